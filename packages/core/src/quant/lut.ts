/**
 * TFLM's int16 lookup tables (`gen_lut<float, int16_t, int16_t>` and `LUTLookup(int16_t, const int16_t*)`
 * from tensorflow/lite/kernels/internal/common.h): 512 interpolation intervals over the int16 input range
 * plus one extra entry for the slope of the last interval. Built in float32 arithmetic, as TFLM builds it.
 */
import { roundF32 } from './float32-math.js';

/** Entries of an int16 → int16 LUT (TFLM's `LUTSize<int16_t>()`). */
export const INT16_LUT_SIZE = 513;

/**
 * TFLM `gen_lut<float, int16_t, int16_t>(func, input_min, input_max, output_min, output_max, lut)`:
 * fills `lut` (at least 513 entries) so that `lutLookupInt16` approximates `func` mapped from
 * [inputMin, inputMax] (the int16 input range) onto [outputMin, outputMax] (the int16 output range).
 * Each entry is the rounded sample minus half the rounded midpoint interpolation error. `func` receives
 * and should return float32 values (its result is rounded to float32 here); all other arithmetic is done
 * in float32.
 */
export function genLutInt16(
  func: (x: number) => number,
  inputMin: number,
  inputMax: number,
  outputMin: number,
  outputMax: number,
  lut: Int16Array,
): void {
  if (lut.length < INT16_LUT_SIZE) throw new RangeError(`genLutInt16: LUT has ${lut.length} entries, needs ${INT16_LUT_SIZE}`);
  const f = Math.fround;
  const nbSteps = 512;
  const inMin = f(inputMin);
  const step = f(f(f(inputMax) - inMin) / nbSteps);
  const halfStep = f(step / 2);
  const outputScalingInv = f(65536 / f(f(outputMax) - f(outputMin)));
  for (let i = 0; i < nbSteps; i++) {
    const x = f(inMin + f(i * step));
    const val = f(func(x));
    const valMidpoint = f(func(f(x + halfStep)));
    const valNext = f(func(f(inMin + f((i + 1) * step))));
    const sampleVal = roundF32(f(val * outputScalingInv));
    const midpointInterpVal = roundF32(f(f(f(valNext * outputScalingInv) + roundF32(f(val * outputScalingInv))) / 2));
    const midpointVal = roundF32(f(valMidpoint * outputScalingInv));
    const midpointErr = f(midpointInterpVal - midpointVal);
    const bias = roundF32(f(midpointErr / 2));
    lut[i] = clampInt16(f(sampleVal - bias));
  }
  lut[nbSteps] = clampInt16(roundF32(f(f(func(f(inputMax))) * outputScalingInv)));
}

function clampInt16(v: number): number {
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
}

/**
 * TFLM `LUTLookup(int16_t value, const int16_t* lut)`: the entry for the top 9 bits of `value`, linearly
 * interpolated with the low 7 bits (slope and result wrap to int16 as in C).
 */
export function lutLookupInt16(value: number, lut: Int16Array): number {
  const index = 256 + (value >> 7);
  const offset = value & 0x7f;
  const base = lut[index]!;
  const slope = ((lut[index + 1]! - base) << 16) >> 16;
  const delta = (slope * offset + 64) >> 7;
  return ((base + delta) << 16) >> 16;
}
