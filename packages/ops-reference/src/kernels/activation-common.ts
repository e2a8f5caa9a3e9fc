/**
 * Shared math of the reference kernels' DIV: TFLM's x86 RoundingDivideByPOT for any exponent. The int8
 * fixed-point LOGISTIC / TANH functions and the int16 input rescaling live in kernel-support (sigmoid.ts),
 * which ops-wasm shares; the int16 sigmoid-table evaluation is core's `logisticInt16Run` / `tanhInt16Run`.
 */

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
