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
import { genLutInt16, roundF32 } from '@micrort/core';

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
