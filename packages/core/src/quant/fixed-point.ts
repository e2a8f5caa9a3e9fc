/**
 * TFLM/gemmlowp fixed-point primitives, exact to the bit, without BigInt. All inputs and outputs are
 * int32 values held in JS numbers.
 */

const TWO_POW_31 = 2147483648;
const TWO_POW_32 = 4294967296;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * gemmlowp SaturatingRoundingDoublingHighMul: the high 32 bits of 2*a*b, rounded to nearest (nudge
 * 2^30 for a*b >= 0, 1 - 2^30 below, then divide by 2^31 truncating toward zero, so an exact tie rounds
 * up: +0.5 → 1, -0.5 → 0); saturates the single overflow case a = b = INT32_MIN to INT32_MAX.
 *
 * Exactness: a*b is split as a1*b1*2^32 + t with a = a1*2^16 + a0 and b = b1*2^16 + b0 (a0, b0 unsigned
 * 16-bit), so every intermediate is an integer below 2^53.
 */
export function saturatingRoundingDoublingHighMul(a: number, b: number): number {
  if (a === INT32_MIN && b === INT32_MIN) return INT32_MAX;
  const a0 = a & 0xffff;
  const a1 = a >> 16;
  const b0 = b & 0xffff;
  const b1 = b >> 16;
  const k = 2 * a1 * b1; // exact, |k| <= 2^31
  // t = (a1*b0 + a0*b1) * 2^16 + a0*b0, |t| < 2^50
  const t = (a1 * b0 + a0 * b1) * 65536 + a0 * b0;
  const nudge = (a >= 0) === (b >= 0) || a === 0 || b === 0 ? 1073741824 : -1073741823;
  const f = (t + nudge) / TWO_POW_31; // exact: division by a power of two
  // (a*b + nudge) / 2^31 = k + f; truncate toward zero
  const r = k + f >= 0 ? k + Math.floor(f) : k + Math.ceil(f);
  return r | 0;
}

/**
 * gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from zero.
 * `exponent` in [0, 31].
 */
export function roundingDivideByPOT(x: number, exponent: number): number {
  const mask = exponent >= 31 ? 0x7fffffff : (1 << exponent) - 1;
  const remainder = x & mask;
  const threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
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

/**
 * TFLM MultiplyByQuantizedMultiplier(int64_t x, int32_t quantized_multiplier, int shift), used by the
 * 16x8 (int16 activations) kernels whose accumulators are int64. `x` is an exact integer held in a
 * double (|x| < 2^47 as TFLM requires); the result is what TFLM computes:
 *   reduced = m < 0x7FFF0000 ? (m + 2^15) >> 16 : 0x7FFF;  total_shift = 15 - shift;
 *   result = (x * reduced + 2^(total_shift-1)) >> total_shift   (arithmetic shift), truncated to int32.
 * Exact: x is split at 2^24 so no intermediate exceeds 2^53.
 */
export function multiplyByQuantizedMultiplierInt64(x: number, quantizedMultiplier: number, shift: number): number {
  const reduced = quantizedMultiplier < 0x7fff0000 ? (quantizedMultiplier + 32768) >> 16 : 0x7fff;
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
