// int8 ADD and SUB (and TFLite's uint8 ADD and SUB: A_KIND bit 1, the values taken as x - 128 with the zero points
// and bounds written minus 128, the outputs given back + 128), TFLM's integer ADD and SUB exactly, with broadcasting (the TypeScript side collapses the shapes into
// at most three outer loops with per-input byte strides around one inner run, in which both inputs are
// contiguous or one repeats a single value; see src/kernels/float/binary-common.ts's broadcastPlan).
//
// TFLM computes
//   a = (x1 - zp1) << left_shift;  b = (x2 - zp2) << left_shift       (left_shift = 20)
//   s = MBQMSmallerThanOneExp(a, m1, -r1) + MBQMSmallerThanOneExp(b, m2, -r2)
//   out = clamp(MBQMSmallerThanOneExp(s, mo, -ro) + zp_out, act_min, act_max)
// The output is a function of two bytes, so the TypeScript side (src/kernels/add.ts) looks at prepare
// for one affine rounding that gives TFLM's byte for every one of the 65,536 input pairs:
//   out = clamp((x1 * C1 + x2 * C2 + K - [x1 * C1 + x2 * C2 + K < T]) >> S, act_min, act_max)
// (rounding half away from zero, the output zero point folded into K and T). Kind 0 runs it, sixteen
// elements per step: two i32x4.mul and five more operations per four lanes. When no such rounding
// exists (or it would overflow int32), Kind 1 runs TFLM's three roundings (inputSide, the 64-bit SRDHM
// of the output), eight elements per step.
// SUB is the same with s = MBQMSmallerThanOneExp(a, ...) - MBQMSmallerThanOneExp(b, ...): its affine
// rounding has a negative C2, and Kind 1 subtracts (A_KIND bit 2).
import { narrowClamp8, rdbpot, srdhm, storeBytes } from './requant';
import { A_ACT_MAX, A_ACT_MIN, A_C1, A_C2, A_CLAMP, A_COUNT, A_K, A_KIND, A_LEFT, A_M1, A_M2, A_MO, A_OFF1, A_OFF2, A_PLAN, A_R1, A_R2, A_RO, A_S, A_T, A_ZP_OUT, BP_INNER, BP_MODE, BP_N, BP_S1, BP_S2 } from '../generated/abi';

/**
 * SRDHM((x + off) << left, m) for int8 x: with v = x + off in [-255, 255], s = 31 - left and
 * m = mh * 2^s + ml, it is v * mh + ((v * ml + 2^(s-1)) >> s) exactly (both products fit in int32 for
 * 8 <= left <= 23; src/kernels/add.ts always writes TFLM's left = 20), two i32x4.mul instead of a
 * 64-bit rounded high word.
 */
@inline function inputSide(x: v128, off: v128, mh: v128, ml: v128, half: v128, s: i32): v128 {
  const v = i32x4.add(x, off);
  return i32x4.add(i32x4.mul(v, mh), i32x4.shr_s(i32x4.add(i32x4.mul(v, ml), half), s));
}

@inline function lane(x1: v128, x2: v128, p: usize, off1: v128, off2: v128, mo: v128, zp: v128, k1: v128, k2: v128, ko: v128, half: v128, mh1: v128, ml1: v128, mh2: v128, ml2: v128, sub: bool): v128 {
  const s = 31 - load<i32>(p, A_LEFT);
  const a = rdbpot(inputSide(x1, off1, mh1, ml1, half, s), load<i32>(p, A_R1), k1, i32x4.shr_s(k1, 1));
  const b = rdbpot(inputSide(x2, off2, mh2, ml2, half, s), load<i32>(p, A_R2), k2, i32x4.shr_s(k2, 1));
  return i32x4.add(rdbpot(srdhm(sub ? i32x4.sub(a, b) : i32x4.add(a, b), mo), load<i32>(p, A_RO), ko, i32x4.shr_s(ko, 1)), zp);
}

/**
 * Eight int8 values at `p`, sign-extended, or the value at `p` in every lane (`repeat`). uint8 (`u8`) values
 * come as x - 128, the int8 value with the same distance to the zero point (the TypeScript side writes
 * the uint8 zero points and bounds minus 128).
 */
@inline function load8(p: usize, repeat: bool, u8: bool): v128 {
  if (u8) return repeat ? i16x8.splat(<i16>(<i32>load<u8>(p) - 128)) : i16x8.sub(v128.load8x8_u(p), i16x8.splat(128));
  return repeat ? i16x8.splat(<i16>load<i8>(p)) : v128.load8x8_s(p);
}

/** Sixteen int8 values at `p`, or the value at `p` in every lane (`repeat`); uint8 (`u8`) as x - 128 (x ^ 0x80). */
@inline function load16(p: usize, repeat: bool, u8: bool): v128 {
  const v = repeat ? i8x16.splat(load<i8>(p)) : v128.load(p);
  return u8 ? v128.xor(v, i8x16.splat(-128)) : v;
}

/** Kind 0 on four lanes (int32 x1, x2): the verified affine rounding, before the narrowing. */
@inline function affine(x1: v128, x2: v128, c1: v128, c2: v128, k: v128, t: v128, s: i32): v128 {
  const n = i32x4.add(i32x4.add(i32x4.mul(x1, c1), i32x4.mul(x2, c2)), k);
  return i32x4.shr_s(i32x4.add(n, i32x4.lt_s(n, t)), s);
}

/** Kind 0 over one run of `n` elements (`r1` / `r2`: that input repeats one value). */
@inline function affineRun(p: usize, a: usize, b: usize, o: usize, n: i32, r1: bool, r2: bool, u8: bool): void {
  const c1 = i32x4.splat(load<i32>(p, A_C1));
  const c2 = i32x4.splat(load<i32>(p, A_C2));
  const k = i32x4.splat(load<i32>(p, A_K));
  const t = i32x4.splat(load<i32>(p, A_T));
  const s = load<i32>(p, A_S);
  const clamp = load<i32>(p, A_CLAMP) != 0;
  const lo = i8x16.splat(<i8>load<i32>(p, A_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(p, A_ACT_MAX));
  const d1: usize = r1 ? 0 : 16, d2: usize = r2 ? 0 : 16;
  for (let i = 0; i < n; i += 16) {
    // the last step reads up to fifteen bytes past the run's end (never used) and stores what is left
    const x1 = load16(a, r1, u8);
    const x2 = load16(b, r2, u8);
    const x1l = i16x8.extend_low_i8x16_s(x1), x1h = i16x8.extend_high_i8x16_s(x1);
    const x2l = i16x8.extend_low_i8x16_s(x2), x2h = i16x8.extend_high_i8x16_s(x2);
    const q0 = affine(i32x4.extend_low_i16x8_s(x1l), i32x4.extend_low_i16x8_s(x2l), c1, c2, k, t, s);
    const q1 = affine(i32x4.extend_high_i16x8_s(x1l), i32x4.extend_high_i16x8_s(x2l), c1, c2, k, t, s);
    const q2 = affine(i32x4.extend_low_i16x8_s(x1h), i32x4.extend_low_i16x8_s(x2h), c1, c2, k, t, s);
    const q3 = affine(i32x4.extend_high_i16x8_s(x1h), i32x4.extend_high_i16x8_s(x2h), c1, c2, k, t, s);
    let out = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(q0, q1), i16x8.narrow_i32x4_s(q2, q3));
    if (clamp) out = i8x16.min_s(i8x16.max_s(out, lo), hi);
    if (u8) out = v128.xor(out, i8x16.splat(-128)); // back to uint8: x + 128
    if (n - i >= 16) v128.store(o + <usize>i, out);
    else storeBytes(o + <usize>i, out, n - i);
    a += d1;
    b += d2;
  }
}

/** Kind 1 (TFLM's three roundings) over one run of `n` elements; `sub`: the second input's part subtracted (SUB). */
@inline function exactRun(p: usize, a: usize, b: usize, o: usize, n: i32, r1: bool, r2: bool, u8: bool, sub: bool): void {
  const off1 = i32x4.splat(load<i32>(p, A_OFF1));
  const off2 = i32x4.splat(load<i32>(p, A_OFF2));
  const mo = i32x4.splat(load<i32>(p, A_MO));
  const zp = i32x4.splat(load<i32>(p, A_ZP_OUT));
  const lo = i8x16.splat(<i8>load<i32>(p, A_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(p, A_ACT_MAX));
  const k1 = i32x4.splat((1 << load<i32>(p, A_R1)) - 1);
  const k2 = i32x4.splat((1 << load<i32>(p, A_R2)) - 1);
  const ko = i32x4.splat((1 << load<i32>(p, A_RO)) - 1);
  const s = 31 - load<i32>(p, A_LEFT);
  const half = i32x4.splat(1 << (s - 1));
  const mask = (1 << s) - 1;
  const mh1 = i32x4.splat(load<i32>(p, A_M1) >> s), ml1 = i32x4.splat(load<i32>(p, A_M1) & mask);
  const mh2 = i32x4.splat(load<i32>(p, A_M2) >> s), ml2 = i32x4.splat(load<i32>(p, A_M2) & mask);
  const d1: usize = r1 ? 0 : 8, d2: usize = r2 ? 0 : 8;
  for (let i = 0; i < n; i += 8) {
    // the last step reads a full eight past the run's end (never used) and stores what is left
    const x1 = load8(a, r1, u8);
    const x2 = load8(b, r2, u8);
    const s0 = lane(i32x4.extend_low_i16x8_s(x1), i32x4.extend_low_i16x8_s(x2), p, off1, off2, mo, zp, k1, k2, ko, half, mh1, ml1, mh2, ml2, sub);
    const s1 = lane(i32x4.extend_high_i16x8_s(x1), i32x4.extend_high_i16x8_s(x2), p, off1, off2, mo, zp, k1, k2, ko, half, mh1, ml1, mh2, ml2, sub);
    let out = narrowClamp8(s0, s1, lo, hi);
    if (u8) out = v128.xor(out, i8x16.splat(-128)); // back to uint8: x + 128
    if (n - i >= 8) v128.store64_lane(o + <usize>i, out, 0);
    else storeBytes(o + <usize>i, out, n - i);
    a += d1;
    b += d2;
  }
}

/** One run of either kind (`kind`: A_KIND, bit 0 the kind, bit 1 uint8, bit 2 subtract in Kind 1). */
@inline function run(p: usize, kind: i32, a: usize, b: usize, o: usize, n: i32, mode: i32): void {
  const u8 = (kind & 2) != 0;
  if ((kind & 1) == 0) {
    if (mode == 0) affineRun(p, a, b, o, n, false, false, u8);
    else if (mode == 1) affineRun(p, a, b, o, n, true, false, u8);
    else affineRun(p, a, b, o, n, false, true, u8);
  } else if ((kind & 4) != 0) {
    exactRun(p, a, b, o, n, mode == 1, mode == 2, u8, true);
  } else {
    exactRun(p, a, b, o, n, mode == 1, mode == 2, u8, false);
  }
}

/** Elements [e0, e1) of a plan-less ADD (one contiguous run), for a thread's share. */
export function qs8_add_range(p: usize, in1: usize, in2: usize, output: usize, e0: i32, e1: i32): void {
  const at = <usize>e0;
  run(p, load<i32>(p, A_KIND), in1 + at, in2 + at, output + at, e1 - e0, 0);
}

export function qs8_add(p: usize, in1: usize, in2: usize, output: usize): void {
  const kind = load<i32>(p, A_KIND);
  const plan = <usize>load<u32>(p, A_PLAN);
  if (plan == 0) {
    run(p, kind, in1, in2, output, load<i32>(p, A_COUNT), 0);
    return;
  }
  const n = load<i32>(plan, BP_INNER);
  const mode = load<i32>(plan, BP_MODE);
  let o = output;
  for (let i0 = 0; i0 < load<i32>(plan, BP_N); i0++) {
    for (let i1 = 0; i1 < load<i32>(plan, BP_N + 4); i1++) {
      for (let i2 = 0; i2 < load<i32>(plan, BP_N + 8); i2++) {
        const a = in1 + <usize>(i0 * load<i32>(plan, BP_S1) + i1 * load<i32>(plan, BP_S1 + 4) + i2 * load<i32>(plan, BP_S1 + 8));
        const b = in2 + <usize>(i0 * load<i32>(plan, BP_S2) + i1 * load<i32>(plan, BP_S2 + 4) + i2 * load<i32>(plan, BP_S2 + 8));
        run(p, kind, a, b, o, n, mode);
        o += <usize>n;
      }
    }
  }
}
