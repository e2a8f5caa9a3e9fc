/**
 * The loops of QUANTIZE and DEQUANTIZE (reference_ops::AffineQuantize, reference_ops::Requantize,
 * reference_ops::Dequantize), in the arithmetic TFLM's C++ uses on x86-64.
 */
import { multiplyByQuantizedMultiplier, roundF32, truncToInt32X86 } from '@micrort/core';

/** Any integer tensor view QUANTIZE reads or writes. */
export type IntegerData = Int8Array | Uint8Array | Int16Array | Int32Array;

/**
 * reference_ops::AffineQuantize: q = clamp((int32)roundf(x / (float)scale) + zero_point, lo, hi), with
 * the float32 division, round-half-away-from-zero, the x86 float→int32 conversion (out of range → INT32_MIN)
 * and the wrapping int32 addition of the C code.
 */
export function affineQuantize(input: Float32Array, output: IntegerData, count: number, scale: number, zeroPoint: number, lo: number, hi: number): void {
  const s = Math.fround(scale);
  for (let i = 0; i < count; i++) {
    const q = (truncToInt32X86(roundF32(Math.fround(input[i]! / s))) + zeroPoint) | 0;
    output[i] = q < lo ? lo : q > hi ? hi : q;
  }
}

/**
 * reference_ops::Requantize: q = clamp(MultiplyByQuantizedMultiplier(x - input_zp, multiplier, shift) +
 * output_zp, lo, hi). When the effective scale is exactly 1 (multiplier 2^30, shift 1) and the zero points
 * differ by exactly 128 between int8 and uint8, TFLM flips the sign bit instead; the result is the same.
 */
export function requantize(
  input: IntegerData,
  output: IntegerData,
  count: number,
  multiplier: number,
  shift: number,
  inputZeroPoint: number,
  outputZeroPoint: number,
  lo: number,
  hi: number,
): void {
  for (let i = 0; i < count; i++) {
    const q = (multiplyByQuantizedMultiplier((input[i]! - inputZeroPoint) | 0, multiplier, shift) + outputZeroPoint) | 0;
    output[i] = q < lo ? lo : q > hi ? hi : q;
  }
}

/** reference_ops::Dequantize: x = (float)scale * (float)(q - zero_point), in float32. */
export function dequantize(input: Int8Array | Uint8Array | Int16Array, output: Float32Array, count: number, scale: number, zeroPoint: number): void {
  const s = Math.fround(scale);
  for (let i = 0; i < count; i++) output[i] = Math.fround(s * (input[i]! - zeroPoint));
}
