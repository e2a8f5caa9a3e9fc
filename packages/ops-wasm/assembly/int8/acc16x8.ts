// Shared pieces of the 16x8 kernels (int16 activations with zero point 0, int8 weights): TRANSPOSE_CONV
// (transpose-conv-16x8.ts), CONV_2D, FULLY_CONNECTED and DEPTHWISE_CONV_2D (conv-16x8.ts).
//
// Exact int64 sums in int32 lanes: a product of an int16 and an int8 value has |x * w| <= 2^15 * 2^7 =
// 2^22, so any sum of at most CHUNK16 = 256 such products (whatever the grouping: extmul lanes, dot_i16x8
// pairs, lane sums) has magnitude at most 2^30 < 2^31 and is exact in int32. The kernels sum at most
// CHUNK16 products per output in int32, then widen to int64.

/** Products of int16 and int8 values summed in int32 before widening (256 x 2^22 = 2^30). */
export const CHUNK16 = 256;

/**
 * TFLM's int64 MultiplyByQuantizedMultiplier with the multiplier reduced to 16 bits (`reduced`) and the
 * total right shift `t` = 15 - shift (>= 1): (x * reduced + 2^(t-1)) >> t, wrapped to int32 as TFLM's
 * static_cast. Exact while |x| < 2^47 and t <= 62 (the product stays below 2^62, the sum below 2^63).
 */
@inline export function requant64(x: i64, reduced: i64, t: i64): i32 {
  return <i32>((x * reduced + (<i64>1 << (t - 1))) >> t);
}

/** `v` clamped to [lo, hi]. */
@inline export function clamp16(v: i32, lo: i32, hi: i32): i32 {
  return v < lo ? lo : v > hi ? hi : v;
}
