/**
 * The rest of TFLite's quantization_util.cc / kernel_util.cc that kernels call in prepare, default
 * (frexp, double-rounding) build: multiplier variants with range checks, softmax input scaling,
 * CalculateInputRadius, the per-tensor convolution multiplier and CheckedLog2.
 */
import { quantizeMultiplier, type QuantizedMultiplier } from './quantize-multiplier.js';

/**
 * TFLite QuantizeMultiplierSmallerThanOneExp: `real` must be in (0, 1); the returned shift is <= 0 (a
 * right shift, used as MultiplyByQuantizedMultiplierSmallerThanOneExp's `left_shift`). Throws RangeError
 * where TFLite's TFLITE_CHECKs would abort.
 */
export function quantizeMultiplierSmallerThanOneExp(real: number): QuantizedMultiplier {
  if (!(real < 1 && real > 0)) throw new RangeError(`quantizeMultiplierSmallerThanOneExp: multiplier ${real} is not in (0, 1)`);
  const q = quantizeMultiplier(real);
  if (q.shift > 0) throw new RangeError(`quantizeMultiplierSmallerThanOneExp: multiplier ${real} gives shift ${q.shift} > 0`);
  return q;
}

/**
 * TFLite QuantizeMultiplierGreaterThanOne: `real` must be > 1; the returned shift (a left shift) is >= 0.
 * Throws RangeError where TFLite's TFLITE_CHECKs would abort.
 */
export function quantizeMultiplierGreaterThanOne(real: number): QuantizedMultiplier {
  if (!(real > 1)) throw new RangeError(`quantizeMultiplierGreaterThanOne: multiplier ${real} is not > 1`);
  const q = quantizeMultiplier(real);
  if (q.shift < 0) throw new RangeError(`quantizeMultiplierGreaterThanOne: multiplier ${real} gives shift ${q.shift} < 0`);
  return q;
}

/**
 * TFLite PreprocessSoftmaxScaling (default build): the multiplier that turns an input difference into
 * Q(inputIntegerBits).(31 - inputIntegerBits), i.e. min(beta * inputScale * 2^(31 - inputIntegerBits),
 * 2^31 - 1), quantized with QuantizeMultiplierGreaterThanOne. `shift` is the left shift.
 */
export function preprocessSoftmaxScaling(beta: number, inputScale: number, inputIntegerBits: number): QuantizedMultiplier {
  const maxRealMultiplier = 2147483647; // (1LL << 31) - 1.0
  const real = Math.min(beta * inputScale * 2 ** (31 - inputIntegerBits), maxRealMultiplier);
  return quantizeMultiplierGreaterThanOne(real);
}

/**
 * TFLite CalculateInputRadius (default build): floor(((1 << inputIntegerBits) - 1) *
 * 2^(totalSignedBits - inputIntegerBits) / 2^inputLeftShift), the largest input difference that still
 * matters after rescaling.
 */
export function calculateInputRadius(inputIntegerBits: number, inputLeftShift: number, totalSignedBits = 31): number {
  const maxInputRescaled = (((1 << inputIntegerBits) - 1) * 2 ** (totalSignedBits - inputIntegerBits)) / 2 ** inputLeftShift;
  return Math.floor(maxInputRescaled) | 0;
}

/**
 * TFLite GetQuantizedConvolutionMultipler (per-tensor path of FULLY_CONNECTED and friends): the product
 * input_scale * filter_scale is taken in FLOAT32, then widened and divided by the output scale in double.
 * Scales are float32 values (as stored in the model).
 */
export function getQuantizedConvolutionMultiplier(inputScale: number, filterScale: number, outputScale: number): number {
  return Math.fround(inputScale * filterScale) / outputScale;
}

/**
 * TFLite CheckedLog2(float x, int* log2_result): the rounded log2 of `x` (computed in float32 as
 * log(x) * (1 / log(2))) and whether `x` is a power of two within 1e-3 in the exponent.
 */
export function checkedLog2(x: number): { log2: number; isPowerOfTwo: boolean } {
  const invLog2 = Math.fround(1 / Math.fround(Math.log(2)));
  const xLog2 = Math.fround(Math.fround(Math.log(Math.fround(x))) * invLog2);
  const rounded = xLog2 < 0 ? -Math.round(-xLog2) : Math.round(xLog2);
  const frac = Math.fround(xLog2 - rounded);
  return { log2: rounded, isPowerOfTwo: Math.abs(frac) < Math.fround(1e-3) };
}
