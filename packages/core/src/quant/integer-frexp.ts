/**
 * The integer-only path of TFLite's QuantizeMultiplier (quantization_util.cc, built with
 * TFLITE_EMULATE_FLOAT): `IntegerFrExp` reads the IEEE-754 bits of the double instead of calling frexp.
 */
import type { QuantizedMultiplier } from './quantize-multiplier.js';

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** `shift` IntegerFrExp reports for NaN and infinities (C's INT_MAX). */
export const INTEGER_FREXP_BAD_SHIFT = 2147483647;

/** Result of `integerFrExp`: `input ≈ fraction * 2^(shift - 31)`. */
export interface IntegerFrExpResult {
  /**
   * Signed 31-bit fraction, |fraction| in [2^30, 2^31] (2^31 when rounding carries), 0 for ±0 and NaN.
   * For ±infinity TFLite returns INT64_MAX / INT64_MIN; they are reported here as ±Infinity.
   */
  fraction: number;
  /** Exponent as frexp's (`INTEGER_FREXP_BAD_SHIFT` for NaN and infinities). */
  shift: number;
}

/**
 * TFLite `IntegerFrExp(double input, int* shift)`, bit for bit: the fraction is 2^30 plus the top 30
 * explicit mantissa bits, incremented when the 22 discarded bits exceed 0x200000 (strictly: an exact
 * tie rounds DOWN, unlike TfLiteRound in the frexp path), negated for negative inputs. The shift is the
 * biased exponent minus 1022, so subnormals report -1022 (QuantizeMultiplier flushes them to zero).
 */
export function integerFrExp(input: number): IntegerFrExpResult {
  F64[0] = input;
  const hi = U32[1]!;
  const lo = U32[0]!;
  if ((hi & 0x7fffffff) === 0 && lo === 0) return { fraction: 0, shift: 0 };
  const negative = hi >>> 31 === 1;
  const exponentPart = (hi >>> 20) & 0x7ff;
  if (exponentPart === 0x7ff) {
    const mantissaTop30 = (hi & 0xfffff) !== 0 || lo >>> 22 !== 0;
    // NaN → 0; infinity → ±INT64_MAX, reported as ±Infinity (not representable as a JS integer).
    if (mantissaTop30) return { fraction: 0, shift: INTEGER_FREXP_BAD_SHIFT };
    return { fraction: negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY, shift: INTEGER_FREXP_BAD_SHIFT };
  }
  const shift = exponentPart - 1023 + 1;
  // (u & 0x000fffffffc00000) >> 22: mantissa bits 51..22 = 20 bits of `hi` and the top 10 of `lo`.
  let fraction = 0x40000000 + (hi & 0xfffff) * 1024 + (lo >>> 22);
  if ((lo & 0x3fffff) > 0x200000) fraction += 1;
  return { fraction: negative ? -fraction : fraction, shift };
}

/**
 * TFLite QuantizeMultiplier on the TFLITE_EMULATE_FLOAT path: q_fixed from `integerFrExp`, then the same
 * post-processing as the frexp path (q_fixed == 2^31 → halve and shift + 1; shift < -31 → (0, 0); no
 * clamp of shift > 30). Agrees with `quantizeMultiplier` except when the 22 bits below the 31-bit
 * fraction are exactly 0x200000 (a rounding tie): there the frexp path rounds away from zero and this
 * one toward zero, so |multiplier| is one lower. Throws RangeError for NaN and infinities.
 */
export function quantizeMultiplierIntegerFrExp(realMultiplier: number): QuantizedMultiplier {
  if (realMultiplier === 0) return { multiplier: 0, shift: 0 };
  if (!Number.isFinite(realMultiplier)) throw new RangeError(`quantizeMultiplierIntegerFrExp: multiplier ${realMultiplier} is not finite`);
  const r = integerFrExp(realMultiplier);
  let qFixed = r.fraction;
  let shift = r.shift;
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
