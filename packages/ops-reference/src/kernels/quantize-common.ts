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
export function affineQuantize(
  input: Float32Array,
  output: IntegerData,
  count: number,
  scale: number,
  zeroPoint: number,
  lo: number,
  hi: number,
): void {
  const s = Math.fround(scale);
  for (let i = 0; i < count; i++) {
    const q = (truncToInt32X86(roundF32(Math.fround(input[i]! / s))) + zeroPoint) | 0;
    output[i] = q < lo ? lo : q > hi ? hi : q;
  }
}

/**
 * TFLite's AffineQuantizeToInt4 (quantize.cc, after 2.9): each value as `affineQuantize` computes it,
 * clamped to [-8, 7], then packed two per byte, low nibble first (tensor_utils::PackInt8IntoDenseInt;
 * an odd count leaves the last byte's high nibble 0). TFLite packs from a temporary vector; here the
 * pairs are packed as they are computed.
 */
export function affineQuantizeInt4(
  input: Float32Array,
  output: Int8Array | Uint8Array,
  count: number,
  scale: number,
  zeroPoint: number,
): void {
  const s = Math.fround(scale);
  for (let i = 0; i < count; i += 2) {
    const q0 = int4(input[i]!, s, zeroPoint);
    const q1 = i + 1 < count ? int4(input[i + 1]!, s, zeroPoint) : 0;
    output[i >> 1] = (q0 & 0x0f) | ((q1 & 0x0f) << 4);
  }
}

function int4(x: number, s: number, zeroPoint: number): number {
  const q = (truncToInt32X86(roundF32(Math.fround(x / s))) + zeroPoint) | 0;
  return q < -8 ? -8 : q > 7 ? 7 : q;
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
export function dequantize(
  input: Int8Array | Uint8Array | Int16Array,
  output: Float32Array,
  count: number,
  scale: number,
  zeroPoint: number,
): void {
  const s = Math.fround(scale);
  for (let i = 0; i < count; i++) output[i] = Math.fround(s * (input[i]! - zeroPoint));
}

/**
 * TFLite reference_ops::PerChannelDequantize: element i of channel c (its index along the quantized
 * dimension) → scale[c] × (q − zeroPoint[c]) in float32. The data are `outer` blocks of `channels` ×
 * `inner` elements (the dimensions before, at and after the quantized one).
 */
export function dequantizePerChannel(
  input: Int8Array | Uint8Array | Int16Array,
  output: Float32Array,
  outer: number,
  channels: number,
  inner: number,
  scales: Float32Array,
  zeroPoints: Int32Array,
): void {
  let i = 0;
  for (let o = 0; o < outer; o++)
    for (let c = 0; c < channels; c++) {
      const s = scales[c]!;
      const zp = zeroPoints[c]!;
      for (let k = 0; k < inner; k++, i++) output[i] = Math.fround(s * (input[i]! - zp));
    }
}

/** 2^(e - 25) for a half's biased exponent e in 1..30: a normal half is (1024 + mantissa) · 2^(e - 25). */
const HALF_POW2 = Float64Array.from({ length: 31 }, (_, e) => 2 ** (e - 25));

/**
 * IEEE binary16 → binary32 (static_cast<float>(Eigen::half), TFLite's float16 DEQUANTIZE), exact for
 * every input: normals, subnormals (mantissa · 2^-24), ±0, ±Infinity, and NaN with its sign and payload
 * kept (mantissa shifted into the top of the float's). `input` holds the raw half bits; `outputBytes`
 * are the same bytes as `output` (NaNs are written bit by bit there: a JS number would lose the payload).
 */
export function dequantizeFloat16(input: Uint16Array, output: Float32Array, outputBytes: Uint8Array, count: number): void {
  for (let i = 0; i < count; i++) {
    const h = input[i]!;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    let v: number;
    if (e === 0) {
      v = m * 5.960464477539063e-8; // 2^-24
    } else if (e === 0x1f) {
      if (m !== 0) {
        const bits = ((h & 0x8000) << 16) | 0x7f800000 | (m << 13);
        const b = i << 2;
        outputBytes[b] = bits & 0xff;
        outputBytes[b + 1] = (bits >>> 8) & 0xff;
        outputBytes[b + 2] = (bits >>> 16) & 0xff;
        outputBytes[b + 3] = bits >>> 24;
        continue;
      }
      v = Infinity;
    } else {
      v = (1024 + m) * HALF_POW2[e]!;
    }
    output[i] = h & 0x8000 ? -v : v;
  }
}
