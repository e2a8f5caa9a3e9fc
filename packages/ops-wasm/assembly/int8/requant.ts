// TFLM's MultiplyByQuantizedMultiplier (gemmlowp double rounding), exact, on four int32 lanes.
//
//   x = acc * 2^left                    (int32 wrap, as TFLM's `x * (1 << left_shift)`)
//   y = floor((x * M + 2^30) / 2^31)    (SaturatingRoundingDoublingHighMul; M >= 0, so never saturates)
//   q = floor((y + 2^(r-1) - [y < 0]) / 2^r)   (RoundingDivideByPOT, ties away from zero)
//
// SRDHM: the i64 product 2*x*M + 2^31 has floor((x*M + 2^30) / 2^31) as its high word, so the shift by
// 31 is a lane shuffle (and the + 2^31 a carry from bit 31 of the low word). RDBPOT with one shift per
// lane (r >= 1) is the same rounded high word of (y - [y < 0]) * 2^(31-r); lanes with r = 0 keep y.
// With one shift for the whole vector, RDBPOT is TFLM's formula: (y >> r) + [(y & (2^r - 1)) >
// ((2^r - 1) >> 1) + [y < 0]].
//
// int8 outputs with 1 <= r <= 19 in every lane (requantLanesRight), one rounding instead of two. With
// t = 2^(r-1) - [y < 0], floor((floor(a / 2^31) + t) / 2^r) = floor((a + t * 2^31) / 2^(31+r)), so
//   q = floor((acc * M + 2^30 + 2^(30+r) - s * 2^31) / 2^(31+r)),   s = [y < 0] = [acc < 0]
// (M >= 0: y < 0 implies acc < 0, and acc < 0 with y >= 0 means y = 0, where both s give q = 0 for r >= 1).
// q is nondecreasing in acc, so acc is first clamped to [xLo, xHi], accumulators whose q plus the
// output zero point is exactly act_min / act_max: beyond them TFLM's clamp gives the same values, and no
// clamp is needed afterwards. Any accumulator of q's level set works; expandRequant takes the one
// nearest the middle of the set (see rightBound), and |acc| * 2^(21-r) < 2^30 between them (prepare
// requires 2^30 <= M < 2^31, as TFLM's QuantizeMultiplier gives). Numerator and denominator times
// 2^(21-r):
//   q = floor((x * M + 2^(51-r) + 2^51 - s * 2^(52-r)) / 2^52)
// where every constant is a multiple of 2^32 (r <= 19), so they add to the high word h of the i64
// product x * M exactly (no carry from the low word, which the division by 2^52 drops):
//   q + zp = (h + 2^19 + zp * 2^20 + (s ? -2^(19-r) : 2^(19-r))) >> 20
// one i32x4.mul, one 64-bit product's high word and a few 32-bit operations.

// The requantization block (RQ in scripts/abi.mjs: M, then 2^left, 2^(31-r) and the r = 0 mask, or for
// requantLanesRight xHi, xLo and 2^(21-r); four i32x4 for four output channels) is written by
// expandRequant below, or writeRequantBlock (src/kernels/kernel-common.ts) for the general path.
import { RQ_BYTES, RQ_LEFT, RQ_M, RQ_RIGHT, RQ_R_ZERO, RQ_SCALE, RQ_X_HI, RQ_X_LO, W_ACT_MAX, W_ACT_MIN, W_MULT, W_OUT_C, W_RIGHT_ONLY, W_RQ_STRIDE, W_SHIFT, W_ZP_OUT } from '../generated/abi';

@inline function hiWords(lo: v128, hi: v128): v128 {
  return v128.shuffle<i32>(lo, hi, 1, 3, 5, 7);
}

/**
 * floor((x*m + 2^30) / 2^31) per lane: the high word of (x*m + 2^30) * 2 (the 64-bit products of
 * i64x2.extmul, the rounding constant added before the doubling).
 */
@inline function roundedHigh(x: v128, m: v128): v128 {
  const c = i64x2.splat(1 << 30);
  const a = i64x2.shl(i64x2.add(i64x2.extmul_low_i32x4_s(x, m), c), 1);
  const b = i64x2.shl(i64x2.add(i64x2.extmul_high_i32x4_s(x, m), c), 1);
  return hiWords(a, b);
}

/**
 * RoundingDivideByPOT(y, r) per lane for r >= 1, with `p` = 2^(31-r): floor((y + 2^(r-1) - [y < 0]) / 2^r)
 * = floor((u * 2^(31-r) + 2^30) / 2^31) with u = y - [y < 0] (never overflows: y > -2^31 after SRDHM
 * with M < 2^31), the same rounded high word as SRDHM.
 */
@inline function rdbpotLanes(y: v128, p: v128): v128 {
  return roundedHigh(i32x4.add(y, i32x4.shr_s(y, 31)), p);
}

/** MultiplyByQuantizedMultiplier of `acc` with the per-lane parameters of the block at `rq`. */
@inline export function requantLanes(acc: v128, rq: usize): v128 {
  const y = roundedHigh(i32x4.mul(acc, v128.load(rq, RQ_LEFT)), v128.load(rq, RQ_M));
  // lanes with r = 0 keep y
  return v128.bitselect(y, rdbpotLanes(y, v128.load(rq, RQ_RIGHT)), v128.load(rq, RQ_R_ZERO));
}

/**
 * requantLanes for int8 outputs of blocks packed for it (every lane has left shift 0 and 1 <= r <= 19):
 * the quotient, already within [act_min - zp, act_max - zp] (see the note at the top), without the
 * output zero point.
 */
@inline export function requantLanesRight(acc: v128, rq: usize): v128 {
  const scale = v128.load(rq, RQ_SCALE);
  return requantRightWith(acc, v128.load(rq, RQ_M), v128.load(rq, RQ_X_HI), v128.load(rq, RQ_X_LO), scale, rightBase(scale, i32x4.splat(1 << 19)), rightStep(scale));
}

/**
 * requantLanesRight with the block's vectors (M, xHi, xLo, 2^(21-r)) already loaded, and `base` =
 * rightBase(scale, round), `step` = rightStep(scale) (computed once per block by callers that requantize
 * several accumulators with it). The output zero point is added when `round` = roundWithZp(zp) =
 * splat(2^19 + zp * 2^20): floor((v + zp * 2^20) / 2^20) = floor(v / 2^20) + zp (|h| < 2^30, the
 * constants stay below 2^28).
 */
@inline export function requantRightWith(acc: v128, m: v128, xHi: v128, xLo: v128, scale: v128, base: v128, step: v128): v128 {
  const c = i32x4.max_s(i32x4.min_s(acc, xHi), xLo);
  const x = i32x4.mul(c, scale);
  const h = hiWords(i64x2.extmul_low_i32x4_s(x, m), i64x2.extmul_high_i32x4_s(x, m));
  // base = round + 2^(19-r), less step = 2^(20-r) for acc < 0
  return i32x4.shr_s(i32x4.add(h, i32x4.sub(base, v128.and(i32x4.shr_s(c, 31), step))), 20);
}

/** requantRightWith's `base`: `round` plus 2^(19-r) (`scale` = 2^(21-r)). */
@inline export function rightBase(scale: v128, round: v128): v128 {
  return i32x4.add(round, i32x4.shr_u(scale, 2));
}

/** requantRightWith's `step`: 2^(20-r) (`scale` = 2^(21-r)). */
@inline export function rightStep(scale: v128): v128 {
  return i32x4.shr_u(scale, 1);
}

/** requantRightWith's `round` for output zero point `zp`. */
@inline export function roundWithZp(zp: i32): v128 {
  return i32x4.splat((zp << 20) + (1 << 19));
}

/** roundWithZp of the zero point splat in `zp`. */
@inline export function roundWithZpV(zp: v128): v128 {
  return i32x4.add(i32x4.shl(zp, 20), i32x4.splat(1 << 19));
}

/** SaturatingRoundingDoublingHighMul(x, m) for m >= 0 (`m` splat in every lane). */
@inline export function srdhm(x: v128, m: v128): v128 {
  return roundedHigh(x, m);
}

/** RoundingDivideByPOT(y, r) with one exponent for every lane; `mask` = 2^r - 1, `half` = mask >> 1 (splat). */
@inline export function rdbpot(y: v128, r: i32, mask: v128, half: v128): v128 {
  const rem = v128.and(y, mask);
  const thr = i32x4.sub(half, i32x4.shr_s(y, 31));
  return i32x4.sub(i32x4.shr_s(y, r), i32x4.gt_s(rem, thr));
}

/** Scalar SaturatingRoundingDoublingHighMul for m >= 0. */
@inline export function srdhmScalar(x: i32, m: i32): i32 {
  return <i32>(((<i64>x * <i64>m) + (<i64>1 << 30)) >> 31);
}

/** Scalar RoundingDivideByPOT. */
@inline export function rdbpotScalar(y: i32, r: i32): i32 {
  const mask = (1 << r) - 1;
  const rem = y & mask;
  const thr = (mask >> 1) + (y < 0 ? 1 : 0);
  return (y >> r) + (rem > thr ? 1 : 0);
}

/** Narrows two i32x4 (lanes 0-3, 4-7) to eight saturated int8 in lanes 0-7. */
@inline export function narrow8(a: v128, b: v128): v128 {
  const n16 = i16x8.narrow_i32x4_s(a, b);
  return i8x16.narrow_i16x8_s(n16, n16);
}

/** Narrows two i32x4 (lanes 0-3, 4-7) to eight saturated uint8 in lanes 0-7. */
@inline export function narrowU8(a: v128, b: v128): v128 {
  const n16 = i16x8.narrow_i32x4_s(a, b);
  return i8x16.narrow_i16x8_u(n16, n16);
}

/** Narrows two i32x4 (lanes 0-3, 4-7) to eight saturated uint8 in lanes 0-7, then clamps (unsigned). */
@inline export function narrowClampU8(a: v128, b: v128, lo: v128, hi: v128): v128 {
  const n16 = i16x8.narrow_i32x4_s(a, b);
  return i8x16.min_u(i8x16.max_u(i8x16.narrow_i16x8_u(n16, n16), lo), hi);
}

/** Narrows two i32x4 (lanes 0-3, 4-7) to eight saturated int8 in lanes 0-7, then clamps. */
@inline export function narrowClamp8(a: v128, b: v128, lo: v128, hi: v128): v128 {
  const n16 = i16x8.narrow_i32x4_s(a, b);
  return i8x16.min_s(i8x16.max_s(i8x16.narrow_i16x8_s(n16, n16), lo), hi);
}

/** Stores the first `n` (0 < n < 16) byte lanes of `v` at `p`. */
@inline export function storeBytes(p: usize, v: v128, n: i32): void {
  if (n >= 8) {
    v128.store64_lane(p, v, 0);
    p += 8;
    v = v128.shuffle<i8>(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0);
    n -= 8;
  }
  if (n >= 4) {
    v128.store32_lane(p, v, 0);
    p += 4;
    v = v128.shuffle<i8>(v, v, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0, 0, 0, 0);
    n -= 4;
  }
  if (n >= 2) {
    v128.store16_lane(p, v, 0);
    p += 2;
    v = v128.shuffle<i8>(v, v, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0);
    n -= 2;
  }
  if (n >= 1) v128.store8_lane(p, v, 0);
}

/**
 * An accumulator whose requantized value (the note at the top) is `v` (-255..255), per lane of right
 * shift r (1..19, `p` = 2^(r+1)), from `inv` = 2^30 / M as two f64x2 (lanes 0-1, 2-3). For v > 0 the
 * accumulators giving v are the x >= 0 with v * 2^(31+r) <= x * M + 2^30 + 2^(30+r) < (v+1) * 2^(31+r),
 * a real interval of length 2^(31+r) / M > 2^r >= 2 around (v * 2^(31+r) - 2^30) / M =
 * 2^30 * (v * 2^(r+1) - 1) / M; for v < 0 (x < 0, the constant 2^(30+r) - 2^30) the middle is
 * 2^30 * (v * 2^(r+1) + 1) / M; for v = 0 it is 0. The middle in f64 (v * 2^(r+1) -+ 1 < 2^28 exact,
 * two roundings of relative error 2^-53 on a value below 2^29: an error below 2^-23), rounded to the
 * nearest integer, is within 1/2 + 2^-23 of the true middle, inside the interval; and as 2^30 <= M,
 * |x| <= 255 * 2^(r+1) + 2, so |x| * 2^(21-r) < 2^30.
 */
@inline function rightBound(v: i32, p: v128, invLo: v128, invHi: v128): v128 {
  const t = i32x4.sub(i32x4.mul(p, i32x4.splat(v)), i32x4.splat(v > 0 ? 1 : v < 0 ? -1 : 0));
  const lo = i32x4.trunc_sat_f64x2_s_zero(f64x2.nearest(f64x2.mul(f64x2.convert_low_i32x4_s(t), invLo)));
  const hi = i32x4.trunc_sat_f64x2_s_zero(f64x2.nearest(f64x2.mul(f64x2.convert_low_i32x4_s(v128.shuffle<i32>(t, t, 2, 3, 0, 1)), invHi)));
  return v128.shuffle<i32>(lo, hi, 0, 1, 4, 5);
}

/** 2^e per lane for 0 <= e <= 30, exact: the float32 with exponent e, converted. */
@inline function pow2(e: v128): v128 {
  return i32x4.trunc_sat_f32x4_s(i32x4.shl(i32x4.add(e, i32x4.splat(127)), 23));
}

/**
 * Expands TFLM's per-channel multipliers and shifts (W_MULT, W_SHIFT: int32 arrays, one per output
 * channel) into requantization blocks at `rq`, one per four channels. For W_RIGHT_ONLY layers (every
 * r = -shift in 1..19, 2^30 <= M): M, xHi and xLo (rightBound of act_max - zp_out and act_min - zp_out),
 * 2^(21-r). Otherwise M, 2^left
 * (left 31: INT32_MIN, as x << 31 wraps), 2^(31-r), the r = 0 mask. Lanes past the last channel hold
 * whatever follows the arrays; their outputs are never stored.
 */
export function expandRequant(pp: usize, rq: usize): void {
  const mult = <usize>load<u32>(pp, W_MULT);
  const shift = <usize>load<u32>(pp, W_SHIFT);
  const channels = load<i32>(pp, W_OUT_C);
  // W_RQ_STRIDE 0: one multiplier and shift for every channel, one block
  const shared = load<i32>(pp, W_RQ_STRIDE) == 0;
  const blocks = shared ? 1 : (channels + 3) >> 2;
  const zp = load<i32>(pp, W_ZP_OUT);
  const lo = load<i32>(pp, W_ACT_MIN) - zp;
  const hi = load<i32>(pp, W_ACT_MAX) - zp;
  const rightOnly = load<i32>(pp, W_RIGHT_ONLY) != 0;
  const c30 = f64x2.splat(1073741824.0);
  const zero = i32x4.splat(0);
  for (let k = 0; k < blocks; k++) {
    const o = rq + <usize>(k * RQ_BYTES);
    const at = <usize>(k << 4);
    const s = shared ? i32x4.splat(load<i32>(shift)) : v128.load(shift + at);
    const m = shared ? i32x4.splat(load<i32>(mult)) : v128.load(mult + at);
    v128.store(o, m, RQ_M);
    if (rightOnly) {
      const r = i32x4.min_s(i32x4.max_s(i32x4.neg(s), i32x4.splat(1)), i32x4.splat(19)); // past the last channel: any r
      const invLo = f64x2.div(c30, f64x2.convert_low_i32x4_s(m));
      const invHi = f64x2.div(c30, f64x2.convert_low_i32x4_s(v128.shuffle<i32>(m, m, 2, 3, 0, 1)));
      const p = pow2(i32x4.add(r, i32x4.splat(1)));
      v128.store(o, rightBound(hi, p, invLo, invHi), RQ_X_HI);
      v128.store(o, rightBound(lo, p, invLo, invHi), RQ_X_LO);
      v128.store(o, pow2(i32x4.sub(i32x4.splat(21), r)), RQ_SCALE);
    } else {
      const left = i32x4.max_s(s, zero);
      const r = i32x4.max_s(i32x4.neg(s), zero);
      const l31 = i32x4.eq(left, i32x4.splat(31));
      v128.store(o, v128.bitselect(i32x4.splat(-2147483648), pow2(i32x4.min_s(left, i32x4.splat(30))), l31), RQ_LEFT);
      v128.store(o, pow2(i32x4.min_s(i32x4.max_s(i32x4.sub(i32x4.splat(31), r), zero), i32x4.splat(30))), RQ_RIGHT);
      v128.store(o, i32x4.eq(r, zero), RQ_R_ZERO);
    }
  }
}
