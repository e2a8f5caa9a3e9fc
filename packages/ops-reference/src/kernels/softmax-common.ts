/**
 * SOFTMAX math (tflite-micro kernels/softmax_common.cc; reference_ops::Softmax for float and for
 * int8 → int8/int16, reference_ops::SoftmaxInt16 with TFLM's exp and 1/(1+x) lookup tables).
 */
import {
  expF32,
  expOnNegativeValues,
  getReciprocal,
  lutLookupInt16,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierGreaterThanOne,
  rescale,
  roundingDivideByPOT,
  saturatingRoundingDoublingHighMul,
} from '@micrort/core';
import { ACCUMULATION_INTEGER_BITS, SCALED_DIFF_INTEGER_BITS, type SoftmaxShape } from '@micrort/kernel-support';

/** Bytes of TFLM's SoftmaxParams on x86-64 (double, 7 int32/float, 5 pointers). */
export const SOFTMAX_PARAMS_BYTES = 80;

/** Word offsets of SoftmaxParams' int32 fields (`beta` is float64 word 0). */
export enum SoftmaxWord {
  InputMultiplier = 2,
  InputLeftShift = 3,
  DiffMin = 6,
  ZeroPoint = 7,
}

/** Row layout of a softmax: kernel-support's `SoftmaxShape` (`outer` rows of `depth` elements). */
export type { SoftmaxShape };

const NUM_BITS_OVER_UNIT = new Int32Array(1);

/**
 * reference_ops::Softmax for float32: per row, exp((x - max) * beta) / sum, every step in float32
 * (expf, float accumulation in order).
 */
export function softmaxFloat(s: SoftmaxShape, input: Float32Array, output: Float32Array, beta: number): void {
  const f = Math.fround;
  const betaF = f(beta);
  const { outer, depth } = s;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let max = -3.4028234663852886e38;
    for (let c = 0; c < depth; c++) {
      const x = input[base + c]!;
      if (max < x) max = x;
    }
    let sum = 0;
    for (let c = 0; c < depth; c++) {
      const e = expF32(f(f(input[base + c]! - max) * betaF));
      output[base + c] = e;
      sum = f(sum + e);
    }
    for (let c = 0; c < depth; c++) output[base + c] = f(output[base + c]! / sum);
  }
}

/**
 * reference_ops::Softmax<int8_t, OutputT> (OutputT int8 or int16): differences to the row maximum at or
 * above `diffMin` are rescaled to Q5.26 with (multiplier, leftShift), exponentiated with gemmlowp's
 * exp_on_negative_values, summed in Q12.19, and multiplied by the reciprocal of the sum; the result is
 * shifted to the output's unsigned range and offset by its minimum (-128 or -32768).
 */
export function softmaxInt8(
  s: SoftmaxShape,
  input: Int8Array,
  output: Int8Array | Int16Array,
  multiplier: number,
  leftShift: number,
  diffMin: number,
  outputBits: 8 | 16,
): void {
  const outMin = outputBits === 8 ? -128 : -32768;
  const outMax = outputBits === 8 ? 127 : 32767;
  const { outer, depth } = s;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let maxInRow = -128;
    for (let c = 0; c < depth; c++) {
      const x = input[base + c]!;
      if (x > maxInRow) maxInRow = x;
    }
    let sumOfExps = 0;
    for (let c = 0; c < depth; c++) {
      const diff = input[base + c]! - maxInRow;
      if (diff >= diffMin) {
        const scaled = multiplyByQuantizedMultiplierGreaterThanOne(diff, multiplier, leftShift);
        sumOfExps = (sumOfExps + rescale(expOnNegativeValues(scaled, SCALED_DIFF_INTEGER_BITS), 0, ACCUMULATION_INTEGER_BITS)) | 0;
      }
    }
    const shiftedScale = getReciprocal(sumOfExps, ACCUMULATION_INTEGER_BITS, NUM_BITS_OVER_UNIT);
    const exponent = NUM_BITS_OVER_UNIT[0]! + 31 - outputBits;
    for (let c = 0; c < depth; c++) {
      const diff = input[base + c]! - maxInRow;
      if (diff >= diffMin) {
        const scaled = multiplyByQuantizedMultiplierGreaterThanOne(diff, multiplier, leftShift);
        const exp = expOnNegativeValues(scaled, SCALED_DIFF_INTEGER_BITS);
        const unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(shiftedScale, exp), exponent);
        const shifted = (unsat + outMin) | 0;
        output[base + c] = shifted < outMin ? outMin : shifted > outMax ? outMax : shifted;
      } else {
        output[base + c] = outMin;
      }
    }
  }
}

/**
 * reference_ops::SoftmaxInt16: exp(x - max) from `expLut` (inputs rescaled so [-65535, 0] spans
 * [-10, 0]), the exps cached in the output row, the reciprocal of their sum from `oneOverOnePlusXLut`,
 * and the rounded product shifted into [0, 32767].
 */
export function softmaxInt16(
  s: SoftmaxShape,
  input: Int16Array,
  output: Int16Array,
  multiplier: number,
  shift: number,
  expLut: Int16Array,
  oneOverOnePlusXLut: Int16Array,
): void {
  const { outer, depth } = s;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let maxInRow = -32768;
    for (let c = 0; c < depth; c++) {
      const x = input[base + c]!;
      if (x > maxInRow) maxInRow = x;
    }
    let sumOfExps = 0; // Q16.15
    for (let c = 0; c < depth; c++) {
      const scaledDiff = multiplyByQuantizedMultiplier(input[base + c]! - maxInRow, multiplier, shift);
      const sym = scaledDiff + 32767;
      const e = lutLookupInt16(sym < -32768 ? -32768 : sym > 32767 ? 32767 : sym, expLut);
      output[base + c] = e;
      sumOfExps = (sumOfExps + e) | 0;
    }
    const headroomPlusOne = Math.clz32(sumOfExps) & 0xff;
    // ((int64)sum << (headroom_plus_one - 1)) + (1 << 13)) >> 14, exact in doubles
    const shiftedSum = Math.floor((sumOfExps * 2 ** (headroomPlusOne - 1) + 8192) / 16384) | 0;
    const symShiftedSum = shiftedSum - 98304; // - ((1 << 15) + (1 << 16))
    const reciprocal = lutLookupInt16(symShiftedSum < -32768 ? -32768 : symShiftedSum > 32767 ? 32767 : symShiftedSum, oneOverOnePlusXLut);
    const rightShift = (31 - headroomPlusOne) & 0xff;
    const round = 2 ** (rightShift - 1);
    const divisor = 2 ** rightShift;
    for (let c = 0; c < depth; c++) {
      const r = Math.floor((output[base + c]! * reciprocal + round) / divisor) | 0;
      output[base + c] = r < 0 ? 0 : r > 32767 ? 32767 : r;
    }
  }
}

/**
 * TFLite's SOFTMAX for uint8 inputs (optimized_ops::Softmax with the float table, which TFLite runs for
 * uint8 whatever the kernel variant; the table is kernel-support's populateSoftmaxUint8Table): per row,
 * with m the row's maximum, e(x) = table[255 - m + x];
 * p = e(x) · (1 / (Σ e · output_scale)), in float32 with the sum taken in order. uint8 outputs are
 * (int32)(p + 0.5f) (TFLite's x86 QuantizeSoftmaxOutput<uint8_t>, which ignores the zero point: micrort
 * requires it to be 0); int16 outputs are roundf(p) + zero_point. Clamped to the output type.
 */
export function softmaxUint8(
  s: SoftmaxShape,
  input: Uint8Array,
  output: Uint8Array | Int16Array,
  table: Float32Array,
  outputScale: number,
  outputZeroPoint: number,
  int16Output: boolean,
): void {
  const f = Math.fround;
  const { outer, depth } = s;
  const lo = int16Output ? -32768 : 0;
  const hi = int16Output ? 32767 : 255;
  for (let r = 0; r < outer; r++) {
    const base = r * depth;
    let max = 0;
    for (let j = 0; j < depth; j++) if (input[base + j]! > max) max = input[base + j]!;
    const offset = 255 - max;
    let sum = 0;
    for (let j = 0; j < depth; j++) sum = f(sum + table[offset + input[base + j]!]!);
    const inv = f(1 / f(sum * outputScale));
    for (let j = 0; j < depth; j++) {
      const p = f(table[offset + input[base + j]!]! * inv);
      let q: number;
      if (int16Output) {
        q = (p < 0 ? -Math.round(-p) : Math.round(p)) + outputZeroPoint;
      } else {
        const t = f(p + 0.5);
        q = t >= 2147483648 ? hi : Math.trunc(t);
      }
      output[base + j] = q < lo ? lo : q > hi ? hi : q;
    }
  }
}
