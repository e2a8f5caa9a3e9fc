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
  // fraction: the same sign and mantissa with the biased exponent of [0.5, 1) (dividing by 2^e would
  // overflow 2^e for e = 1024)
  U32[1] = (U32[1]! & 0x800fffff) | (1022 << 20);
  return [F64[0]!, exp - 1022];
}

/** std::round: half away from zero. */
export function roundHalfAwayFromZero(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * TFLite QuantizeMultiplier(double, int32_t*, int*) using frexp, as TFLM's default build (neither
 * TFLITE_EMULATE_FLOAT nor TFLITE_SINGLE_ROUNDING): q_fixed = TfLiteRound(q * 2^31) with
 * q = frexp(real), halved (shift + 1) when it rounds up to 2^31, and flushed to (0, 0) when shift < -31.
 * Returns |multiplier| in [2^30, 2^31) (or 0) and shift such that real ≈ multiplier * 2^(shift - 31).
 *
 * A shift above 30 is NOT clamped: TFLM clamps it to 30 (with multiplier 2^31 - 1) only under
 * TFLITE_SINGLE_ROUNDING, which the reference build does not define. Negative multipliers are
 * accepted, as in TFLM. Throws RangeError for NaN and infinities (TFLM's behaviour is undefined there).
 */
export function quantizeMultiplier(realMultiplier: number): QuantizedMultiplier {
  if (realMultiplier === 0) return { multiplier: 0, shift: 0 };
  if (!Number.isFinite(realMultiplier)) throw new RangeError(`quantizeMultiplier: multiplier ${realMultiplier} is not finite`);
  const [q, frexpShift] = frexp(realMultiplier);
  let shift = frexpShift;
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
  return { multiplier: qFixed, shift };
}
