// Helpers shared by the float32 kernels: multiply-add, the fused-activation clamp and stores of a partial vector.

/**
 * a * b + c lane by lane: f32x4.relaxed_madd in the relaxed builds (a fused multiply-add where the CPU
 * has one: one rounding instead of two, within the float tolerance), mul then add elsewhere.
 */
@inline export function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, c);
  return f32x4.add(c, f32x4.mul(a, b));
}

/**
 * min(max(v, lo), hi) lane by lane, as TFLite's ActivationFunctionWithMinMax (a NaN stays NaN). pmax/pmin
 * are single instructions on x86 and ARM.
 */
@inline export function clamp(v: v128, lo: v128, hi: v128): v128 {
  return f32x4.pmin(f32x4.pmax(v, lo), hi);
}

/** Stores the first `n` (0-3) float lanes of `v` at `p`. */
@inline export function storeLanes(p: usize, v: v128, n: i32): void {
  if (n & 2) {
    v128.store64_lane(p, v, 0);
    v = v128.shuffle<f32>(v, v, 2, 3, 2, 3);
    p += 8;
  }
  if (n & 1) v128.store32_lane(p, v, 0);
}

/** Stores the first `n` (1-8) float lanes of the pair (`lo`, `hi`) at `p`. */
@inline export function store8(p: usize, lo: v128, hi: v128, n: i32): void {
  if (n >= 8) {
    v128.store(p, lo);
    v128.store(p, hi, 16);
  } else if (n >= 4) {
    v128.store(p, lo);
    storeLanes(p + 16, hi, n - 4);
  } else {
    storeLanes(p, lo, n);
  }
}
