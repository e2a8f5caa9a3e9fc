/**
 * FULLY_CONNECTED math and prepare-time parameters (tflite-micro kernels/fully_connected_common.cc,
 * reference_ops::FullyConnected, reference_integer_ops::FullyConnected / FullyConnectedPerChannel).
 *
 * Data layout as TFLM: input [batches, accum_depth] (any shape with that element count), filter
 * [..., output_depth, accum_depth], output [..., output_depth], bias [output_depth].
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { clampFloat } from './elementwise-common.js';
import { int64At } from './conv-common.js';
import { type FullyConnectedShape } from '@micrort/kernel-support';

/** Bytes of TFLM's OpDataFullyConnected on x86-64 (9 int32, 2 pointers, bool; no compression). */
export const OP_DATA_FULLY_CONNECTED_BYTES = 64;

/** Word offsets of the int32 fields of OpDataFullyConnected (the layout TFLM uses). */
export enum FcWord {
  OutputMultiplier = 0,
  OutputShift = 1,
  ActMin = 2,
  ActMax = 3,
  InputZeroPoint = 5,
  FilterZeroPoint = 6,
  OutputZeroPoint = 7,
  /** `is_per_channel` (byte 56). */
  IsPerChannel = 14,
}

/** Which inner loop a prepared node runs. */
export enum FcKind {
  Float32 = 0,
  Int8 = 1,
  Int8PerChannel = 2,
  /** int16 x int8 with an int64 accumulator (int64 bias, or no bias with quantized_bias_type INT64). */
  Int16Acc64 = 3,
  /** int16 x int8 with an int32 accumulator (int32 bias, or no bias otherwise). */
  Int16Acc32 = 4,
  /** uint8 x uint8 → uint8, or → int16 (output zero point 0): TFLite's legacy uint8 kernels. */
  Uint8 = 5,
  /** float32 x int8/uint8/int4 → float32 (TFLite's hybrid kernel, fully-connected-hybrid.ts). */
  Hybrid = 6,
  /** float32 x blockwise int4 → float32 (fully-connected-blockwise.ts). */
  Blockwise = 7,
}

/** Shape of the matrix product, fixed in prepare (kernel-support's `expectFullyConnectedShape`). */
export type FcShape = FullyConnectedShape;

/** Float FULLY_CONNECTED (reference_ops::FullyConnected) in float32 arithmetic, clamped to [lo, hi]. */
export function fullyConnectedFloat(
  s: FcShape,
  input: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
  lo: number,
  hi: number,
): void {
  const f = Math.fround;
  const { batches, outputDepth, accumDepth } = s;
  for (let b = 0; b < batches; b++) {
    const inBase = b * accumDepth;
    for (let oc = 0; oc < outputDepth; oc++) {
      const wBase = oc * accumDepth;
      let total = 0;
      for (let d = 0; d < accumDepth; d++) total = f(total + f(input[inBase + d]! * filter[wBase + d]!));
      const biasValue = bias === null ? 0 : bias[oc]!;
      output[oc + outputDepth * b] = clampFloat(f(total + biasValue), lo, hi);
    }
  }
}

/**
 * reference_integer_ops::FullyConnected (int8, per-tensor): int32 accumulation of
 * (filter + filter_offset) * (input + input_offset), bias, MultiplyByQuantizedMultiplier, output offset,
 * clamp. `p` is the op-data word block (FcWord offsets).
 */
export function fullyConnectedInt8(
  s: FcShape,
  p: Int32Array,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const inputOffset = -p[FcWord.InputZeroPoint]!;
  const filterOffset = -p[FcWord.FilterZeroPoint]!;
  const outputOffset = p[FcWord.OutputZeroPoint]!;
  const multiplier = p[FcWord.OutputMultiplier]!;
  const shift = p[FcWord.OutputShift]!;
  const lo = p[FcWord.ActMin]!;
  const hi = p[FcWord.ActMax]!;
  const { batches, outputDepth, accumDepth } = s;
  for (let b = 0; b < batches; b++) {
    const inBase = b * accumDepth;
    for (let oc = 0; oc < outputDepth; oc++) {
      const wBase = oc * accumDepth;
      let acc = 0;
      for (let d = 0; d < accumDepth; d++) acc = (acc + Math.imul(filter[wBase + d]! + filterOffset, input[inBase + d]! + inputOffset)) | 0;
      if (bias !== null) acc = (acc + bias[oc]!) | 0;
      acc = (multiplyByQuantizedMultiplier(acc, multiplier, shift) + outputOffset) | 0;
      output[oc + outputDepth * b] = acc < lo ? lo : acc > hi ? hi : acc;
    }
  }
}

/**
 * reference_integer_ops::FullyConnectedPerChannel (int8): as `fullyConnectedInt8` with one multiplier and
 * shift per output channel and no filter offset (per-channel weights are symmetric).
 */
export function fullyConnectedInt8PerChannel(
  s: FcShape,
  p: Int32Array,
  multipliers: Int32Array,
  shifts: Int32Array,
  input: Int8Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const inputOffset = -p[FcWord.InputZeroPoint]!;
  const outputOffset = p[FcWord.OutputZeroPoint]!;
  const lo = p[FcWord.ActMin]!;
  const hi = p[FcWord.ActMax]!;
  const { batches, outputDepth, accumDepth } = s;
  for (let b = 0; b < batches; b++) {
    const inBase = b * accumDepth;
    for (let oc = 0; oc < outputDepth; oc++) {
      const wBase = oc * accumDepth;
      let acc = 0;
      for (let d = 0; d < accumDepth; d++) acc = (acc + Math.imul(filter[wBase + d]!, input[inBase + d]! + inputOffset)) | 0;
      if (bias !== null) acc = (acc + bias[oc]!) | 0;
      acc = (multiplyByQuantizedMultiplier(acc, multipliers[oc]!, shifts[oc]!) + outputOffset) | 0;
      output[oc + outputDepth * b] = acc < lo ? lo : acc > hi ? hi : acc;
    }
  }
}

/**
 * reference_integer_ops::FullyConnected / FullyConnectedPerChannel for int16 activations and int8 weights
 * with an int64 accumulator: sum of (filter + filter_offset) * input (no input or output offset: int16
 * is symmetric), plus the int64 bias, then the int64 MultiplyByQuantizedMultiplier (16-bit reduced
 * multiplier, single rounding) and the clamp. The accumulator is an exact integer in a double (|acc| <
 * 2^47 as TFLM requires). `biasWords` are the bias' int32 words (little-endian int64 pairs).
 * `multipliers`/`shifts` hold one entry (per-tensor, `perChannel` false) or one per output channel.
 */
export function fullyConnectedInt16Acc64(
  s: FcShape,
  p: Int32Array,
  perChannel: boolean,
  multipliers: Int32Array,
  shifts: Int32Array,
  input: Int16Array,
  filter: Int8Array,
  biasWords: Int32Array | null,
  output: Int16Array,
): void {
  const filterOffset = perChannel ? 0 : -p[FcWord.FilterZeroPoint]!;
  const lo = p[FcWord.ActMin]!;
  const hi = p[FcWord.ActMax]!;
  const { batches, outputDepth, accumDepth } = s;
  for (let b = 0; b < batches; b++) {
    const inBase = b * accumDepth;
    for (let oc = 0; oc < outputDepth; oc++) {
      const wBase = oc * accumDepth;
      let acc = 0;
      for (let d = 0; d < accumDepth; d++) acc += (filter[wBase + d]! + filterOffset) * input[inBase + d]!;
      if (biasWords !== null) acc += int64At(biasWords, oc);
      const c = perChannel ? oc : 0;
      const scaled = multiplyByQuantizedMultiplierInt64(acc, multipliers[c]!, shifts[c]!);
      output[oc + outputDepth * b] = scaled < lo ? lo : scaled > hi ? hi : scaled;
    }
  }
}

/**
 * The int16 x int8 variant with an int32 accumulator (newer TFLM, int32 bias): int32 wrap-around
 * accumulation and the int32 (double-rounding) MultiplyByQuantizedMultiplier.
 */
export function fullyConnectedInt16Acc32(
  s: FcShape,
  p: Int32Array,
  perChannel: boolean,
  multipliers: Int32Array,
  shifts: Int32Array,
  input: Int16Array,
  filter: Int8Array,
  bias: Int32Array | null,
  output: Int16Array,
): void {
  const filterOffset = perChannel ? 0 : -p[FcWord.FilterZeroPoint]!;
  const lo = p[FcWord.ActMin]!;
  const hi = p[FcWord.ActMax]!;
  const { batches, outputDepth, accumDepth } = s;
  for (let b = 0; b < batches; b++) {
    const inBase = b * accumDepth;
    for (let oc = 0; oc < outputDepth; oc++) {
      const wBase = oc * accumDepth;
      let acc = 0;
      for (let d = 0; d < accumDepth; d++) acc = (acc + Math.imul(filter[wBase + d]! + filterOffset, input[inBase + d]!)) | 0;
      if (bias !== null) acc = (acc + bias[oc]!) | 0;
      const c = perChannel ? oc : 0;
      const scaled = multiplyByQuantizedMultiplier(acc, multipliers[c]!, shifts[c]!);
      output[oc + outputDepth * b] = scaled < lo ? lo : scaled > hi ? hi : scaled;
    }
  }
}

/**
 * TFLite's reference_ops::FullyConnected for uint8 inputs and weights (uint8 output, or int16 output with
 * zero point 0): int32 accumulation of (filter + filter_offset) * (input + input_offset), bias,
 * MultiplyByQuantizedMultiplier, output offset, clamp — `fullyConnectedInt8`'s arithmetic on uint8 data.
 */
export function fullyConnectedUint8(
  s: FcShape,
  p: Int32Array,
  input: Uint8Array,
  filter: Uint8Array,
  bias: Int32Array | null,
  output: Uint8Array | Int16Array,
): void {
  const inputOffset = -p[FcWord.InputZeroPoint]!;
  const filterOffset = -p[FcWord.FilterZeroPoint]!;
  const outputOffset = p[FcWord.OutputZeroPoint]!;
  const multiplier = p[FcWord.OutputMultiplier]!;
  const shift = p[FcWord.OutputShift]!;
  const lo = p[FcWord.ActMin]!;
  const hi = p[FcWord.ActMax]!;
  const { batches, outputDepth, accumDepth } = s;
  for (let b = 0; b < batches; b++) {
    const inBase = b * accumDepth;
    for (let oc = 0; oc < outputDepth; oc++) {
      const wBase = oc * accumDepth;
      let acc = 0;
      for (let d = 0; d < accumDepth; d++)
        acc = (acc + Math.imul((filter[wBase + d]! + filterOffset) | 0, (input[inBase + d]! + inputOffset) | 0)) | 0;
      if (bias !== null) acc = (acc + bias[oc]!) | 0;
      acc = (multiplyByQuantizedMultiplier(acc, multiplier, shift) + outputOffset) | 0;
      output[oc + outputDepth * b] = acc < lo ? lo : acc > hi ? hi : acc;
    }
  }
}
