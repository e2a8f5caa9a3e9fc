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
// int8 outputs with 1 <= r <= 22 in every lane (requantLanesRight): RDBPOT is monotonic and moves by at
// most one per step of y, so y is first clamped to [yLo, yHi], the SRDHM results whose quotient plus the
// output zero point is exactly act_min / act_max (computed at prepare per channel): beyond them TFLM's
// clamp gives the same values, and no int8 clamp is needed afterwards. Then z = y + 2^(r-1) - [y < 0]
// has |z| < 2^(r+9), z * 2^(22-r) fits in int32, and floor(z / 2^r) = (z * 2^(22-r)) >> 22 exactly: one
// i32x4.mul and one shift instead of a second 64-bit rounded high word.

// The requantization block (RQ in scripts/abi.mjs: bias, M, 2^left or yHi, 2^(31-r) or yLo, 2^(r-1),
// 2^(22-r), the r = 0 mask; seven i32x4 for four output channels) is written by writeRequantBlock
// (src/kernels/kernel-common.ts).
import { RQ_HALF, RQ_LEFT, RQ_M, RQ_MULT22, RQ_RIGHT, RQ_R_ZERO, RQ_Y_HI, RQ_Y_LO } from '../generated/abi';

@inline function hiWords(lo: v128, hi: v128): v128 {
  return v128.shuffle<i32>(lo, hi, 1, 3, 5, 7);
}

/**
 * floor((x*m + 2^30) / 2^31) per lane = the high word of 2*x*m + 2^31: the high word of 2*x*m, plus one
 * where bit 31 of its low word is set (no 64-bit constant to materialize in the loop).
 */
@inline function roundedHigh(x: v128, m: v128): v128 {
  const a = i64x2.shl(i64x2.extmul_low_i32x4_s(x, m), 1);
  const b = i64x2.shl(i64x2.extmul_high_i32x4_s(x, m), 1);
  return i32x4.sub(hiWords(a, b), i32x4.shr_s(v128.shuffle<i32>(a, b, 0, 2, 4, 6), 31));
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
 * requantLanes for int8 outputs of blocks packed for it (every lane has left shift 0 and 1 <= r <= 22):
 * the quotient, already within [act_min - zp, act_max - zp] (see the note at the top), without the
 * output zero point.
 */
@inline export function requantLanesRight(acc: v128, rq: usize): v128 {
  return requantRightWith(acc, v128.load(rq, RQ_M), v128.load(rq, RQ_Y_HI), v128.load(rq, RQ_Y_LO), v128.load(rq, RQ_HALF), v128.load(rq, RQ_MULT22));
}

/** requantLanesRight with the block's vectors (M, yHi, yLo, 2^(r-1), 2^(22-r)) already loaded. */
@inline export function requantRightWith(acc: v128, m: v128, yHi: v128, yLo: v128, half: v128, mult: v128): v128 {
  const y = i32x4.max_s(i32x4.min_s(roundedHigh(acc, m), yHi), yLo);
  const z = i32x4.add(i32x4.add(y, half), i32x4.shr_s(y, 31));
  return i32x4.shr_s(i32x4.mul(z, mult), 22);
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
