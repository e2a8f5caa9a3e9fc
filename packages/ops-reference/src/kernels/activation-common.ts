/**
 * Shared math of the activation reference kernels (LOGISTIC, TANH) and of DIV: the prepare-time input
 * rescaling of the int16 kernels (whose sigmoid-table evaluation is core's `logisticInt16Run` /
 * `tanhInt16Run`) and TFLM's x86 RoundingDivideByPOT for any exponent. The int8 fixed-point functions
 * live in kernel-support (sigmoid.ts), which ops-wasm shares.
 */
import { checkedLog2 } from '@micrort/core';

/**
 * gemmlowp RoundingDivideByPOT(x, exponent) for any exponent, as TFLM's x86-64 build computes it. For
 * exponents in [0, 31] this is the exact rounding shift. Outside that range (reachable in TFLM's int8
 * DIV, e.g. for a tiny numerator with a large divisor) the C code is undefined; x86 computes the mask
 * `(1ll << exponent) - 1` with the shift count taken modulo 64 and truncates it to 32 bits, and shifts
 * `x >> exponent` with the count taken modulo 32. This reproduces that.
 */
export function roundingDivideByPOTWide(x: number, exponent: number): number {
  const maskShift = exponent & 63;
  const mask = maskShift >= 32 ? -1 : maskShift === 0 ? 0 : ((1 << maskShift) - 1) | 0;
  const remainder = x & mask;
  const threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return ((x >> (exponent & 31)) + (remainder > threshold ? 1 : 0)) | 0;
}

/**
 * TFLM's int16 LOGISTIC/TANH input rescaling. `multiplier === 0` marks the power-of-two scale case,
 * which the eval turns into `3 << leftShift` with no shift.
 */
export interface Int16ActivationParams {
  multiplier: number;
  leftShift: number;
}

/**
 * Computes the int16 LUT input rescaling for an input scale as TFLM's prepare does: a power-of-two scale
 * of 2^-12 (or 2^-11 for TANH, `maxPotLeftShift` 1) needs no multiplier; otherwise the scale times 3*4096
 * is doubled until above 32767/2 and truncated. Returns a string describing the problem when the scale
 * gives a multiplier above 32767.
 */
export function int16ActivationParams(inputScale: number, maxPotLeftShift: number): Int16ActivationParams | string {
  const kInputIntegerBits = 3;
  const log2 = checkedLog2(inputScale);
  let leftShift = 15 - kInputIntegerBits + log2.log2;
  const pot = log2.isPowerOfTwo && leftShift >= 0 && leftShift <= maxPotLeftShift;
  if (pot) return { multiplier: 0, leftShift };
  let multiplier = inputScale * 4096 * 3;
  leftShift = 0;
  while (multiplier <= 32767 / 2 && leftShift <= 30) {
    leftShift++;
    multiplier *= 2;
  }
  const m = Math.trunc(multiplier);
  if (m > 32767) return `input scale ${inputScale} is too large for the int16 lookup (multiplier ${m} > 32767)`;
  return { multiplier: m, leftShift };
}
