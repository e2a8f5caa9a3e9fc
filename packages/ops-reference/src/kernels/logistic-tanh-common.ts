/**
 * What LOGISTIC and TANH share (tflite-micro logistic_common.cc, tanh.cc): the 4-word op-data block,
 * the int8/int16 quantization checks and input rescaling of prepare, and the int8 and int16 loops. The two
 * ops differ only in the fixed-point function, the required int8 output quantization and the int16
 * power-of-two shortcut.
 */
import {
  KernelError,
  TensorType,
  checkedLog2,
  expF32,
  logisticInt16Run,
  multiplyByQuantizedMultiplier,
  roundingDivideByPOT,
  tanhInt16Run,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { fixedPointLogistic, fixedPointTanh, int16ActivationParams, int8ActivationParams } from './activation-common.js';
import { requireInt16ZeroPoints, requireQuantizedPair } from './unary-common.js';
import { expectZeroPoint } from '@micrort/kernel-support';

// Word offsets in TFLM's OpDataLogistic / tanh OpData block (4 int32).
const INPUT_ZERO_POINT = 0;
const INPUT_RANGE_RADIUS = 1;
const INPUT_MULTIPLIER = 2;
const INPUT_LEFT_SHIFT = 3;

/** Which of the two functions a loop computes. */
export enum SigmoidFunction {
  Logistic = 0,
  Tanh = 1,
}

/** The per-op parts of the shared prepare. */
export interface SigmoidSpec {
  fn: SigmoidFunction;
  /** Required int8 output zero point (LOGISTIC -128, TANH 0). */
  int8OutputZeroPoint: number;
  /** The required int8 output scale is 1 / this (LOGISTIC 256, TANH 128). */
  int8OutputScaleDenominator: number;
  /** Largest left shift for which a power-of-two int16 input scale needs no multiplier (LOGISTIC 0, TANH 1). */
  int16MaxPotLeftShift: number;
}

/**
 * Quantized prepare of LOGISTIC / TANH: validates input and output quantization for int8 and int16 inputs
 * (float32 needs nothing) and writes TFLM's op-data words into `p`.
 *
 * - int8: output zero point and scale fixed by `spec`; the input scale gives the Q4.27 multiplier, left
 *   shift and saturation radius.
 * - int16: zero points 0, output scale 2^-15; the input scale gives the LUT rescaling.
 * - uint8 (TFLite only): see `prepareSigmoidUint8`; returns its 256-entry table (null for other types).
 */
export function prepareSigmoidQuantized(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  output: Tensor,
  p: Int32Array,
  spec: SigmoidSpec,
): Uint8Array | null {
  if (input.type === TensorType.UINT8) return prepareSigmoidUint8(op, context, node, input, output, spec.fn);
  if (input.type === TensorType.INT8) {
    requireQuantizedPair(op, node, input, output);
    expectZeroPoint(op, node, 'output', output, spec.int8OutputZeroPoint);
    if (output.params.scale !== 1 / spec.int8OutputScaleDenominator)
      throw new KernelError(
        op,
        node.index,
        `int8 output (tensor ${output.index}) scale must be 1/${spec.int8OutputScaleDenominator}, got ${output.params.scale}`,
      );
    const q = int8ActivationParams(input.params.scale);
    if (q.leftShift < 0)
      throw new KernelError(
        op,
        node.index,
        `input (tensor ${input.index}) scale ${input.params.scale} is too small (left shift ${q.leftShift})`,
      );
    p[INPUT_ZERO_POINT] = input.params.zeroPoint;
    p[INPUT_RANGE_RADIUS] = q.radius;
    p[INPUT_MULTIPLIER] = q.multiplier;
    p[INPUT_LEFT_SHIFT] = q.leftShift;
  } else if (input.type === TensorType.INT16) {
    requireQuantizedPair(op, node, input, output);
    requireInt16ZeroPoints(op, node, input, output);
    const q = int16ActivationParams(input.params.scale, spec.int16MaxPotLeftShift);
    if (typeof q === 'string') throw new KernelError(op, node.index, q);
    const outLog2 = checkedLog2(output.params.scale);
    if (!outLog2.isPowerOfTwo || outLog2.log2 !== -15)
      throw new KernelError(op, node.index, `int16 output (tensor ${output.index}) scale must be 2^-15, got ${output.params.scale}`);
    p[INPUT_MULTIPLIER] = q.multiplier;
    p[INPUT_LEFT_SHIFT] = q.leftShift;
  }
  return null;
}

/** Entries of TFLite's uint8 activation table (OpData::table). */
export const UINT8_TABLE_SIZE = 256;

/**
 * TFLite's uint8 LOGISTIC / TANH prepare (activations.cc, the path its reference and generic kernels
 * share): a 256-entry table, kept in a persistent arena region, from PopulateLookupTable<uint8_t>:
 * table[v] = clamp((int32)(roundf(f(input_scale * (v - input_zero_point)) * (1 / output_scale)) +
 * output_zero_point), 0, 255), every step in float32, with f = 1 / (1 + expf(-x)) or tanhf. LOGISTIC
 * requires output scale 1/256 as TFLite does; TANH takes any output quantization.
 */
function prepareSigmoidUint8(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  output: Tensor,
  fn: SigmoidFunction,
): Uint8Array {
  requireQuantizedPair(op, node, input, output);
  if (fn === SigmoidFunction.Logistic && output.params.scale !== 1 / 256)
    throw new KernelError(op, node.index, `uint8 output (tensor ${output.index}) scale must be 1/256, got ${output.params.scale}`);
  const table = context.allocatePersistentBuffer(UINT8_TABLE_SIZE).u8.subarray(0, UINT8_TABLE_SIZE);
  const f = Math.fround;
  const inverseScale = f(1 / output.params.scale);
  const inScale = input.params.scale;
  const inZero = input.params.zeroPoint;
  const outZero = output.params.zeroPoint;
  for (let v = 0; v < UINT8_TABLE_SIZE; v++) {
    const x = f(inScale * (v - inZero));
    const y = fn === SigmoidFunction.Logistic ? f(1 / f(1 + expF32(-x))) : f(Math.tanh(x));
    const t = f(y * inverseScale);
    const q = Math.trunc(f((t < 0 ? -Math.round(-t) : Math.round(t)) + outZero));
    table[v] = q < 0 ? 0 : q > 255 ? 255 : q;
  }
  return table;
}

/** A 256-entry uint8 table applied elementwise (TFLite's EvalUsingLookupTable). */
export function lookupUint8(table: Uint8Array, x: Uint8Array, y: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) y[i] = table[x[i]!]!;
}

/**
 * int8 LOGISTIC / TANH (reference_integer_ops::Logistic / Tanh): inputs beyond the saturation radius give
 * -128 / 127; others are rescaled to Q4.27, run through gemmlowp's fixed-point function and rounded to
 * the output scale (LOGISTIC: Q0.31 to 1/256 with zero point -128; TANH: Q0.31 to 1/128).
 */
export function sigmoidInt8(fn: SigmoidFunction, x: Int8Array, y: Int8Array, n: number, p: Int32Array): void {
  const zeroPoint = p[INPUT_ZERO_POINT]!;
  const radius = p[INPUT_RANGE_RADIUS]!;
  const multiplier = p[INPUT_MULTIPLIER]!;
  const leftShift = p[INPUT_LEFT_SHIFT]!;
  const tanh = fn === SigmoidFunction.Tanh;
  for (let i = 0; i < n; i++) {
    const d = x[i]! - zeroPoint;
    if (d <= -radius) y[i] = -128;
    else if (d >= radius) y[i] = 127;
    else {
      const inQ4 = multiplyByQuantizedMultiplier(d, multiplier, leftShift);
      const out = tanh ? roundingDivideByPOT(fixedPointTanh(inQ4, 4), 24) : roundingDivideByPOT(fixedPointLogistic(inQ4, 4), 23) - 128;
      y[i] = out < -128 ? -128 : out > 127 ? 127 : out;
    }
  }
}

/**
 * int16 LOGISTIC / TANH through TFLM's sigmoid lookup table with linear interpolation (a stored multiplier
 * of 0 is the power-of-two input scale: the factor 3 of the [-10.7, 10.7] table range, no shift).
 */
export function sigmoidInt16(fn: SigmoidFunction, x: Int16Array, y: Int16Array, n: number, p: Int32Array): void {
  if (fn === SigmoidFunction.Tanh) tanhInt16Run(x, 0, y, 0, n, p[INPUT_MULTIPLIER]!, p[INPUT_LEFT_SHIFT]!);
  else logisticInt16Run(x, 0, y, 0, n, p[INPUT_MULTIPLIER]!, p[INPUT_LEFT_SHIFT]!);
}
