/**
 * The output stage of the int8 kernels' hot loops: TFLM's MultiplyByQuantizedMultiplier (default build,
 * double rounding), computed with as few double operations as exactness allows.
 *
 * gemmlowp's SaturatingRoundingDoublingHighMul is `floor((x * m + 2^30) / 2^31)` for both signs of
 * `x * m` (its nudge-and-truncate rounds ties up either way) except in its one saturating case. When
 * `|x| < 2^22` the product is exact in a double (at most 2^53 - 2^31), so that is one multiply, one add,
 * one exact scaling and a floor;
 * larger `x` are split into 16-bit halves so that every partial sum stays exact. The same identity holds
 * for a negative multiplier (a negative scale); only `x = m = INT32_MIN` saturates, which is left to core's
 * general routine. Results equal core's `multiplyByQuantizedMultiplier` for every input.
 */
import { multiplyByQuantizedMultiplier } from '@micrort/core';

const TWO_POW_MINUS_31 = 4.656612873077393e-10;

/**
 * `MultiplyByQuantizedMultiplier(x, m, shift)` for int32 `x` and `m` and `shift` in [-31, 31) (QuantizeMultiplier's
 * range), bit-exact with core's implementation.
 * Kept small (one rare-case call) so that V8 inlines it into the kernels' output stages.
 */
export function multiplyByQuantizedMultiplierFast(x: number, m: number, shift: number): number {
  if (shift > 0) x = Math.imul(x, 1 << shift);
  let hi: number;
  if (x > -4194304 && x < 4194304) {
    hi = Math.floor((x * m + 1073741824) * TWO_POW_MINUS_31);
  } else {
    // Only x = m = INT32_MIN saturates; take the general routine for that multiplier.
    if (m === -2147483648) return multiplyByQuantizedMultiplier(x, m, shift > 0 ? 0 : shift);
    const xh = x >> 16;
    const xl = x & 0xffff;
    const mh = m >> 16;
    const ml = m & 0xffff;
    hi = 2 * xh * mh + Math.floor(((xh * ml + xl * mh) * 65536 + xl * ml + 1073741824) * TWO_POW_MINUS_31);
  }
  hi |= 0;
  if (shift >= 0) return hi;
  // RoundingDivideByPOT(hi, -shift), branch-free (the rounding decision is data-dependent, so a branch
  // would be mispredicted half the time): add 1 when the remainder exceeds half, ties away from zero.
  const exponent = -shift;
  const mask = ~(-1 << exponent);
  const threshold = (mask >> 1) + (hi >>> 31);
  return (hi >> exponent) + ((threshold - (hi & mask)) >>> 31);
}
