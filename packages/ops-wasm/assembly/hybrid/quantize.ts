// The run-time input quantization of the hybrid kernels: TFLite's BatchQuantizeFloats
// (portable_tensor_utils.cc SymmetricQuantizeFloats / AsymmetricQuantizeFloats), written once in
// JavaScript in kernel-support (hybrid.ts, which ops-reference runs) and here the same operations in
// the same precision, so the int8 rows, scaling factors and zero points are equal (test/hybrid.test.ts
// compares them with kernel-support's on rows with ties, zeros, one sign, wide ranges):
//   symmetric:  range = max(|min|, |max|) (f64); factor = f32(range / 127); inv = f32(127 / range);
//               q = clamp(round_half_away(f32(v * inv)), -127, 127); a row of zeros: q = 0, factor 1
//   asymmetric: min = min(0, min v), max = max(0, max v); scale = (max - min) / 255 (f64), the zero point
//               chosen and nudged in f64 as TFLite; factor = f32(scale); inv = f32(1 / factor);
//               q = clamp(round_half_away(f32(zp + f32(v * inv))), -128, 127); min = max: q = 0, factor 1, zp 0
// Min and max are taken lane-wise (pmin/pmax: v < m ? v : m, as the scalar loop) from the row's first
// value (symmetric) or 0 (asymmetric), so NaN is skipped as there; a zero's sign can differ, which the
// absolute value and the f64 arithmetic below never see.
import { roundAway } from '../int8/quantize';

/** round half away from zero of a double (exact: the fraction is computed exactly). */
@inline function roundAwayF64(x: f64): f64 {
  const t = trunc<f64>(x);
  return abs<f64>(x - t) >= 0.5 ? t + copysign<f64>(1.0, x) : t;
}

/**
 * The smallest and the largest of the `n` floats at `x` (v < m ? v : m and v > m ? v : m from `init`),
 * in one pass: lane 0 of the result holds the minimum, lane 1 the maximum.
 */
@inline function rowMinMax(x: usize, n: i32, init: f32): v128 {
  let lo = f32x4.splat(init);
  let hi = lo;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const v = v128.load(x + (<usize>i << 2));
    lo = f32x4.pmin(lo, v);
    hi = f32x4.pmax(hi, v);
  }
  let mn = init;
  let mx = init;
  for (let l = 0; l < 4; l++) {
    const a = f32x4.extract_lane(lo, 0);
    const b = f32x4.extract_lane(hi, 0);
    if (a < mn) mn = a;
    if (b > mx) mx = b;
    lo = v128.shuffle<i32>(lo, lo, 1, 2, 3, 0);
    hi = v128.shuffle<i32>(hi, hi, 1, 2, 3, 0);
  }
  for (; i < n; i++) {
    const e = load<f32>(x + (<usize>i << 2));
    if (e < mn) mn = e;
    if (e > mx) mx = e;
  }
  return f32x4.replace_lane(f32x4.splat(mn), 1, mx);
}

/** round_half_away(f32(zp + f32(v * inv))) clamped to [lo, hi], four lanes as int32 (NaN: 0, as the int8 store of NaN). */
@inline function quantize4(v: v128, inv: v128, zp: v128, lo: v128, hi: v128, addZp: bool): v128 {
  let t = f32x4.mul(v, inv);
  if (addZp) t = f32x4.add(zp, t);
  return i32x4.min_s(i32x4.max_s(i32x4.trunc_sat_f32x4_s(roundAway(t)), lo), hi);
}

/** One value as quantize4 does it. */
@inline function quantize1(v: f32, inv: f32, zp: f32, lo: i32, hi: i32, addZp: bool): i32 {
  let t = v * inv;
  if (addZp) t = zp + t;
  const r = trunc<f32>(t);
  const q = abs<f32>(t - r) >= 0.5 ? r + copysign<f32>(1.0, t) : r;
  if (q != q) return 0;
  return q >= <f32>hi ? hi : q <= <f32>lo ? lo : <i32>q;
}

/** The `n` values at `x` quantized into `q`, sixteen per step. */
@inline function quantizeRow(x: usize, n: i32, q: usize, inv: f32, zp: f32, lo: i32, hi: i32, addZp: bool): void {
  const iv = f32x4.splat(inv);
  const zv = f32x4.splat(zp);
  const lv = i32x4.splat(lo);
  const hv = i32x4.splat(hi);
  let i = 0;
  for (; i + 16 <= n; i += 16) {
    const p = x + (<usize>i << 2);
    const a = quantize4(v128.load(p), iv, zv, lv, hv, addZp);
    const b = quantize4(v128.load(p, 16), iv, zv, lv, hv, addZp);
    const c = quantize4(v128.load(p, 32), iv, zv, lv, hv, addZp);
    const d = quantize4(v128.load(p, 48), iv, zv, lv, hv, addZp);
    v128.store(q + <usize>i, i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(a, b), i16x8.narrow_i32x4_s(c, d)));
  }
  for (; i < n; i++) store<i8>(q + <usize>i, <i8>quantize1(load<f32>(x + (<usize>i << 2)), inv, zp, lo, hi, addZp));
}

/**
 * TFLite BatchQuantizeFloats: `batches` rows of `size` float32 values from `input`, each quantized to
 * int8 into `output` (row after row) with its scaling factor (float32) at `factors` and zero point
 * (int32; 0 when symmetric) at `zeroPoints`; then, when `foldAt` is not 0, every factor multiplied in
 * float32 by the float32 there (the per-tensor weight scale, as kernel-support's scaleFactors; in memory,
 * HY_FOLD, because a float argument from JavaScript costs V8 a heap number per call).
 */
export function hybrid_quantize(input: usize, batches: i32, size: i32, output: usize, factors: usize, zeroPoints: usize, asymmetric: i32, foldAt: usize): void {
  const foldScale: f32 = foldAt != 0 ? load<f32>(foldAt) : 0;
  for (let b = 0; b < batches; b++) {
    const x = input + (<usize>(b * size) << 2);
    const q = output + <usize>(b * size);
    const fp = factors + (<usize>b << 2);
    const zpp = zeroPoints + (<usize>b << 2);
    if (asymmetric != 0) {
      const mm = rowMinMax(x, size, 0);
      const mn = <f64>f32x4.extract_lane(mm, 0);
      const mx = <f64>f32x4.extract_lane(mm, 1);
      if (mn == mx) {
        memory.fill(q, 0, <usize>size);
        store<f32>(fp, 1);
        store<i32>(zpp, 0);
      } else {
        const scale = (mx - mn) / 255.0;
        const fromMin = -128.0 - mn / scale;
        const fromMax = 127.0 - mx / scale;
        const fromMinError = 128.0 + abs<f64>(mn / scale);
        const fromMaxError = 127.0 + abs<f64>(mx / scale);
        const zpD = fromMinError < fromMaxError ? fromMin : fromMax;
        // (NaN, from infinite inputs: 0, as the int32 store of NaN; never a trapping conversion)
        const zp = zpD != zpD ? 0 : zpD <= -128.0 ? -128 : zpD >= 127.0 ? 127 : <i32>roundAwayF64(zpD);
        const factor = <f32>scale;
        store<f32>(fp, factor);
        store<i32>(zpp, zp);
        quantizeRow(x, size, q, <f32>(1.0 / <f64>factor), <f32>zp, -128, 127, true);
      }
    } else {
      store<i32>(zpp, 0);
      const first = size > 0 ? load<f32>(x) : 0;
      const mm = rowMinMax(x, size, first);
      const range = max<f64>(abs<f64>(<f64>f32x4.extract_lane(mm, 0)), abs<f64>(<f64>f32x4.extract_lane(mm, 1)));
      if (size == 0 || range == 0) {
        memory.fill(q, 0, <usize>size);
        store<f32>(fp, 1);
      } else {
        store<f32>(fp, <f32>(range / 127.0));
        quantizeRow(x, size, q, <f32>(127.0 / range), 0, -127, 127, false);
      }
    }
    if (foldScale != 0) store<f32>(fp, load<f32>(fp) * foldScale);
  }
}
