/**
 * TFLite's lookup tables for quantized elementwise functions (`LUTPopulate` in
 * tensorflow/lite/kernels/internal/common.h, which EXP, LOG and int16 RSQRT use in TFLite after 2.9): the
 * function is evaluated in float32 on dequantized inputs and its results quantized once, in prepare, so
 * invoke only looks values up.
 *
 * - 8-bit (`LUTPopulateInt8`): one entry per input value; each is
 *   `(int32)(round(f(scale_in × (v − zp_in)) × (1 / scale_out)) + zp_out)` clamped to the type, every step
 *   in float32. The float → int32 conversion saturates (LiteRT's WebAssembly build; C++ leaves values
 *   past int32 undefined and x86 would give INT32_MIN).
 * - int16 (`LUTPopulateInt16`): 513 entries over the int16 input range, built as TFLM's `gen_lut`
 *   (core's `genLutInt16`) with the range ends `scale × (±limit − zero point)` in float32, and read
 *   with `lutLookupInt16` (linear interpolation with the low 7 bits).
 */
import { TensorType, expF32, genLutInt16, roundF32, truncToInt32X86 } from '@micrort/core';

/** A float32 → float32 function a table samples. */
export type LutTransform = (x: number) => number;

/**
 * Fills `lut` (256 entries; entry `v - lo` for input value `v` in [lo, hi]) for an 8-bit type of range
 * [`lo`, `hi`] (int8: −128..127, uint8: 0..255).
 */
export function lutPopulate8(
  inputScale: number,
  inputZeroPoint: number,
  outputScale: number,
  outputZeroPoint: number,
  transform: LutTransform,
  lo: number,
  hi: number,
  lut: Int8Array | Uint8Array,
): void {
  const f = Math.fround;
  const inverseScale = f(1 / f(outputScale));
  for (let v = lo; v <= hi; v++) {
    const dequantized = f(f(inputScale) * (v - inputZeroPoint));
    const rescaled = roundF32(f(f(transform(dequantized)) * inverseScale));
    const quantized = saturateInt32(f(rescaled + outputZeroPoint));
    lut[v - lo] = quantized < lo ? lo : quantized > hi ? hi : quantized;
  }
}

/**
 * lutPopulate8 into `table` indexed by the input byte (entry b: the output byte for input byte b), as
 * WebAssembly's lookup reads it: int8 (`signed`) value v lands at v & 255, so lutPopulate8's halves swap.
 */
export function lutPopulateBytes(
  table: Uint8Array,
  signed: boolean,
  inputScale: number,
  inputZeroPoint: number,
  outputScale: number,
  outputZeroPoint: number,
  transform: LutTransform,
): void {
  lutPopulate8(inputScale, inputZeroPoint, outputScale, outputZeroPoint, transform, signed ? -128 : 0, signed ? 127 : 255, table);
  if (signed) {
    const negative = table.slice(0, 128);
    table.copyWithin(0, 128, 256);
    table.set(negative, 128);
  }
}

/**
 * TFLM's 8-bit table population (elu.cc PopulateLookupTable, common.h LUTPopulateInt8), every step in
 * float32: table[uint8(v)] = clamp(int32(round(f(scale_in × (v − zp_in)) × (1 / scale_out)) + zp_out)) for
 * int8 v, the float → int32 conversion as x86 computes it (out of range or NaN: INT32_MIN, clamped to −128,
 * where lutPopulate8, TFLite's, saturates); the table is indexed by the input byte.
 */
export function tflmLutPopulateInt8(
  inputScale: number,
  inputZeroPoint: number,
  outputScale: number,
  outputZeroPoint: number,
  transform: LutTransform,
  table: Int8Array | Uint8Array,
): void {
  const f = Math.fround;
  const inverseScale = f(1 / outputScale);
  const inScale = f(inputScale);
  for (let v = -128; v <= 127; v++) {
    const dequantized = f(inScale * (v - inputZeroPoint));
    const rescaled = roundF32(f(transform(dequantized) * inverseScale));
    const quantized = truncToInt32X86(f(rescaled + outputZeroPoint));
    table[v & 0xff] = quantized < -128 ? -128 : quantized > 127 ? 127 : quantized;
  }
}

/** ELU's int8 table function (TFLM elu.cc): exp(x) − 1 in float32 below zero, the identity above. */
export function eluLutTransform(x: number): number {
  return x < 0 ? Math.fround(expF32(x) - 1) : x;
}

/**
 * LOG's table function for an output of `type` (int8 or int16), scale and zero point (TFLite's
 * LogLUTPrepare): logf(x) for x > 0; for x ≤ 0 the output type's lowest value, (min − zero point) × scale
 * in float32.
 */
export function logLutTransform(type: TensorType, outputScale: number, outputZeroPoint: number): LutTransform {
  const min = type === TensorType.INT8 ? -128 : -32768;
  const outputMin = Math.fround((min - outputZeroPoint) * Math.fround(outputScale));
  return (x: number) => (x <= 0 ? outputMin : Math.fround(Math.log(x)));
}

/** Fills `lut` (at least 513 entries) for int16 input and output of the given scales and zero points. */
export function lutPopulateInt16(
  inputScale: number,
  inputZeroPoint: number,
  outputScale: number,
  outputZeroPoint: number,
  transform: LutTransform,
  lut: Int16Array,
): void {
  const f = Math.fround;
  genLutInt16(
    transform,
    f(f(inputScale) * (-32768 - inputZeroPoint)),
    f(f(inputScale) * (32767 - inputZeroPoint)),
    f(f(outputScale) * (-32768 - outputZeroPoint)),
    f(f(outputScale) * (32767 - outputZeroPoint)),
    lut,
  );
}

/** A saturating float → int32 conversion (truncation toward zero; NaN gives 0), as WebAssembly's `i32.trunc_sat_f32_s`. */
export function saturateInt32(x: number): number {
  if (x !== x) return 0;
  if (x >= 2147483647) return 2147483647;
  if (x <= -2147483648) return -2147483648;
  return Math.trunc(x);
}
