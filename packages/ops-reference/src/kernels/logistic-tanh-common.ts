/**
 * What LOGISTIC and TANH share (tflite-micro logistic_common.cc, tanh.cc): the 4-word op-data block,
 * the int8/int16 quantization checks and input rescaling of prepare, and the int8 and int16 loops. The two
 * ops differ only in the fixed-point function, the required int8 output quantization and the int16
 * power-of-two shortcut (kernel-support's SigmoidSpec, with the fixed-point arithmetic).
 */
import {
  KernelError,
  TensorType,
  checkedLog2,
  logisticInt16Run,
  tanhInt16Run,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { requireInt16ZeroPoints, requireQuantizedPair } from './unary-common.js';
import {
  SIGMOID_TABLE_SIZE,
  SigmoidFunction,
  expectZeroPoint,
  int16ActivationParams,
  int8ActivationParams,
  sigmoidInt8Table,
  sigmoidUint8Table,
  type SigmoidSpec,
} from '@micrort/kernel-support';

// Word offsets in TFLM's OpDataLogistic / tanh OpData block (4 int32).
const INPUT_ZERO_POINT = 0;
const INPUT_RANGE_RADIUS = 1;
const INPUT_MULTIPLIER = 2;
const INPUT_LEFT_SHIFT = 3;

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

/**
 * TFLite's uint8 LOGISTIC / TANH prepare (activations.cc): kernel-support's 256-entry table
 * (sigmoidUint8Table), kept in a persistent arena region. LOGISTIC requires output scale 1/256 as TFLite
 * does; TANH takes any output quantization.
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
  const table = context.allocatePersistentBuffer(SIGMOID_TABLE_SIZE).u8.subarray(0, SIGMOID_TABLE_SIZE);
  sigmoidUint8Table(fn, input.params.scale, input.params.zeroPoint, output.params.scale, output.params.zeroPoint, table);
  return table;
}

/**
 * int8 LOGISTIC / TANH (reference_integer_ops::Logistic / Tanh): each output depends on its input byte
 * alone, so prepare tabulates TFLM's per-element function for the 256 inputs (kernel-support's
 * sigmoidInt8Table of the op-data words in `p`) into `lut`, 256 bytes of the kernel's own op data outside
 * the arena (TFLM's arena layout is unchanged); invoke looks each output up (unary-common's lookupBytes). The outputs equal
 * TFLM's computation byte for byte; the fixed-point evaluation per element took ~190 ns.
 */
export function sigmoidInt8Lut(fn: SigmoidFunction, p: Int32Array, lut: Uint8Array): void {
  const params = { multiplier: p[INPUT_MULTIPLIER]!, leftShift: p[INPUT_LEFT_SHIFT]!, radius: p[INPUT_RANGE_RADIUS]! };
  sigmoidInt8Table(fn, p[INPUT_ZERO_POINT]!, params, new Int8Array(lut.buffer, lut.byteOffset, lut.length));
}

/**
 * int16 LOGISTIC / TANH through TFLM's sigmoid lookup table with linear interpolation (a stored multiplier
 * of 0 is the power-of-two input scale: the factor 3 of the [-10.7, 10.7] table range, no shift).
 */
export function sigmoidInt16(fn: SigmoidFunction, x: Int16Array, y: Int16Array, n: number, p: Int32Array): void {
  if (fn === SigmoidFunction.Tanh) tanhInt16Run(x, 0, y, 0, n, p[INPUT_MULTIPLIER]!, p[INPUT_LEFT_SHIFT]!);
  else logisticInt16Run(x, 0, y, 0, n, p[INPUT_MULTIPLIER]!, p[INPUT_LEFT_SHIFT]!);
}
