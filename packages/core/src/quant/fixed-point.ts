/**
 * TFLM/gemmlowp fixed-point primitives, exact to the bit, without BigInt. All inputs and outputs are
 * int32 values held in JS numbers.
 */

const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_31 = 1 / 2147483648;
const TWO_POW_30 = 1073741824;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * gemmlowp SaturatingRoundingDoublingHighMul: the high 32 bits of 2*a*b, rounded to nearest (nudge
 * 2^30 for a*b >= 0, 1 - 2^30 below, then divide by 2^31 truncating toward zero, so an exact tie rounds
 * up: +0.5 → 1, -0.5 → 0); saturates the single overflow case a = b = INT32_MIN to INT32_MAX.
 * `a` and `b` are taken as int32 (ToInt32, as the previous formulation's bit operations did).
 *
 * Both nudges and the truncation together equal floor((a*b + 2^30) / 2^31) for every sign (for a*b < 0,
 * trunc((a*b + 1 - 2^30) / 2^31) = ceil((y + 1 - 2^31) / 2^31) = floor(y / 2^31) with y = a*b + 2^30),
 * so no branch on the sign is needed. Exactness without BigInt: q is first estimated from the double
 * product. Rounding is monotonic and every boundary k*2^31 (and k*2^31 - 2^30) is exactly a double
 * below 2^63, so the estimate is never too low; the two roundings err by less than 2^10, so it is at
 * most one too high. The exact remainder a*b + 2^30 - q*2^31 therefore lies in (-2^10, 2^31), and its
 * low 32 bits follow exactly from `Math.imul(a, b)` (a*b mod 2^32): read as int32 they are negative
 * exactly when q is one too high (rare, so the branch predicts well).
 */
export function saturatingRoundingDoublingHighMul(a: number, b: number): number {
  a |= 0; // C int32 operands (free when they already are; keeps the double product and imul in step)
  b |= 0;
  if (a === INT32_MIN && b === INT32_MIN) return INT32_MAX;
  const q = Math.floor((a * b + TWO_POW_30) * TWO_POW_MINUS_31);
  // |a| < 2^22: a*b + 2^30 is below 2^53, exact in a double, so q needs no correction (the common case
  // of kernels' accumulators).
  if (a > -4194304 && a < 4194304) return q | 0;
  const r = (Math.imul(a, b) + TWO_POW_30 - ((q & 1) << 31)) | 0;
  return (r < 0 ? q - 1 : q) | 0;
}

/**
 * gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from zero.
 * `exponent` in [0, 31]. Branch-free (the sign and the rounding decision are data-dependent, so
 * branches on them mispredict): `(1 << 31) - 1 | 0` is 0x7fffffff, `x >> 31` is -1 for negative x, and
 * `(threshold - remainder) >>> 31` is 1 exactly when remainder > threshold (both lie in [0, 2^31)).
 */
export function roundingDivideByPOT(x: number, exponent: number): number {
  const mask = ((1 << exponent) - 1) | 0;
  const remainder = x & mask;
  const threshold = (mask >> 1) - (x >> 31);
  return ((x >> exponent) + ((threshold - remainder) >>> 31)) | 0;
}

/**
 * TFLM MultiplyByQuantizedMultiplier(int32 x, int32 quantized_multiplier, int shift) (double rounding,
 * the default build): left shift for positive `shift` (wrapping as the C code does), then
 * SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT for negative `shift`.
 */
export function multiplyByQuantizedMultiplier(x: number, quantizedMultiplier: number, shift: number): number {
  const leftShift = shift > 0 ? shift : 0;
  const rightShift = shift > 0 ? 0 : -shift;
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(Math.imul(x, 1 << leftShift), quantizedMultiplier), rightShift);
}

/**
 * TFLM MultiplyByQuantizedMultiplierSmallerThanOneExp(x, m, left_shift) with left_shift <= 0.
 */
export function multiplyByQuantizedMultiplierSmallerThanOneExp(x: number, quantizedMultiplier: number, leftShift: number): number {
  return roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, quantizedMultiplier), -leftShift);
}

/**
 * TFLM MultiplyByQuantizedMultiplierGreaterThanOne(x, m, left_shift) with left_shift >= 0.
 */
export function multiplyByQuantizedMultiplierGreaterThanOne(x: number, quantizedMultiplier: number, leftShift: number): number {
  return saturatingRoundingDoublingHighMul(Math.imul(x, 1 << leftShift), quantizedMultiplier);
}

/** The 16-bit multiplier TFLM's int64 MultiplyByQuantizedMultiplier uses: m < 0x7FFF0000 ? (m + 2^15) >> 16 : 0x7FFF. */
export function reducedMultiplier16(quantizedMultiplier: number): number {
  return quantizedMultiplier < 0x7fff0000 ? (quantizedMultiplier + 32768) >> 16 : 0x7fff;
}

/**
 * TFLM MultiplyByQuantizedMultiplier(int64_t x, int32_t quantized_multiplier, int shift), used by the
 * 16x8 (int16 activations) kernels whose accumulators are int64. `x` is an exact integer held in a
 * double (|x| < 2^47 as TFLM requires); the result is what TFLM computes:
 *   reduced = m < 0x7FFF0000 ? (m + 2^15) >> 16 : 0x7FFF;  total_shift = 15 - shift;
 *   result = (x * reduced + 2^(total_shift-1)) >> total_shift   (arithmetic shift), truncated to int32.
 * Exact: x is split at 2^24 so no intermediate exceeds 2^53.
 */
export function multiplyByQuantizedMultiplierInt64(x: number, quantizedMultiplier: number, shift: number): number {
  const reduced = reducedMultiplier16(quantizedMultiplier);
  const totalShift = 15 - shift;
  const xh = Math.floor(x / 16777216);
  const xl = x - xh * 16777216; // [0, 2^24)
  const A = xh * reduced; // |A| < 2^38
  const B = xl * reduced + Math.pow(2, totalShift - 1); // < 2^39 + 2^45
  let r: number;
  if (totalShift <= 24) {
    r = A * Math.pow(2, 24 - totalShift) + Math.floor(B / Math.pow(2, totalShift));
  } else {
    r = Math.floor((A + Math.floor(B / 16777216)) / Math.pow(2, totalShift - 24));
  }
  // static_cast<int32_t>: wrap to 32 bits
  return Number(r % TWO_POW_32) | 0;
}

/** Saturates to [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

export const INT32 = { MIN: INT32_MIN, MAX: INT32_MAX } as const;
