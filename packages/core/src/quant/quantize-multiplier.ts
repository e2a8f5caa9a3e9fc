/**
 * QuantizeMultiplier and friends (tensorflow/lite/kernels/internal/quantization_util.cc): turn a real
 * multiplier into a Q0.31 int32 multiplier and a power-of-two shift.
 */

/** Result of quantizing a real multiplier: `real ≈ multiplier * 2^(shift - 31)`. */
export interface QuantizedMultiplier {
  multiplier: number;
  shift: number;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/**
 * C's frexp: returns [fraction, exponent] with |fraction| in [0.5, 1) and x = fraction * 2^exponent.
 * Exact (reads the IEEE-754 bits). frexp(0) = [0, 0]; non-finite values are returned unchanged with 0.
 */
export function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  F64[0] = x;
  let exp = (U32[1]! >>> 20) & 0x7ff;
  if (exp === 0) {
    // subnormal: scale up by 2^64 first
    F64[0] = x * 18446744073709551616;
    exp = ((U32[1]! >>> 20) & 0x7ff) - 64;
  }
  const e = exp - 1022;
  return [x / Math.pow(2, e), e];
}

/** std::round: half away from zero. */
export function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * TFLite QuantizeMultiplier(double, int32_t*, int*) using frexp, as TFLM's default build.
 * Returns multiplier in [2^30, 2^31) (or 0) and shift such that real = multiplier * 2^(shift-31).
 */
export function quantizeMultiplier(realMultiplier: number): QuantizedMultiplier {
  if (realMultiplier === 0) return { multiplier: 0, shift: 0 };
  let [q, shift] = frexp(realMultiplier);
  let qFixed = roundHalfAwayFromZero(q * 2147483648);
  if (qFixed > 2147483648) throw new RangeError(`quantizeMultiplier: ${realMultiplier} gives q_fixed ${qFixed} > 2^31`);
  if (qFixed === 2147483648) {
    qFixed /= 2;
    shift++;
  }
  if (shift < -31) {
    shift = 0;
    qFixed = 0;
  }
  if (shift > 30) {
    shift = 30;
    qFixed = 2147483647;
  }
  return { multiplier: qFixed, shift };
}
