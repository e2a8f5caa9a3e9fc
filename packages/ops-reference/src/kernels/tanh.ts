/**
 * TANH (tflite-micro kernels/tanh.cc; reference_ops::Tanh for float, reference_integer_ops::Tanh for
 * int8 and int16).
 *
 * - float32: tanh(x).
 * - int8: the input difference from its zero point is rescaled to Q4.27 and run through gemmlowp's
 *   fixed-point tanh; the Q0.31 result is rounded to the output scale 1/128 (zero point 0). Inputs
 *   beyond the saturation radius give -128 / 127 directly.
 * - int16: TFLM's sigmoid lookup table (tanh(x) = 2 sigmoid(2x) - 1) with linear interpolation; zero
 *   points 0, output scale 2^-15; power-of-two input scales 2^-12 and 2^-11 need no multiplier.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkedLog2,
  multiplyByQuantizedMultiplier,
  roundingDivideByPOT,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { fixedPointTanh, int16ActivationParams, int8ActivationParams, tanhInt16 } from './activation-common.js';
import {
  TFLM_OP_DATA_BYTES,
  allocateOpData,
  opDataOf,
  requireQuantized,
  requireSameElementCount,
  requireSameType,
  requireType,
  requireZeroPoint,
  unaryTensors,
} from './elementwise-common.js';

const OP = 'TANH';

// Word offsets in TFLM's tanh OpData block.
const INPUT_ZERO_POINT = 0;
const INPUT_RANGE_RADIUS = 1;
const INPUT_MULTIPLIER = 2;
const INPUT_LEFT_SHIFT = 3;

interface TanhOpData {
  /** TFLM's tanh OpData in the arena. */
  params: Int32Array;
  type: TensorType;
  count: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opDataOf<TanhOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  requireType(OP, node, input, 'input', [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16]);
  requireSameType(OP, node, input, output, 'input and output');
  data.count = requireSameElementCount(OP, node, input, output);
  const p = data.params;
  if (input.type === TensorType.INT8) {
    requireQuantized(OP, node, input, 'input');
    requireQuantized(OP, node, output, 'output');
    requireZeroPoint(OP, node, output, 'output', 0);
    if (output.params.scale !== 1 / 128)
      throw new KernelError(OP, node.index, `int8 output (tensor ${output.index}) scale must be 1/128, got ${output.params.scale}`);
    const q = int8ActivationParams(input.params.scale);
    if (q.leftShift < 0)
      throw new KernelError(OP, node.index, `input (tensor ${input.index}) scale ${input.params.scale} is too small (left shift ${q.leftShift})`);
    p[INPUT_ZERO_POINT] = input.params.zeroPoint;
    p[INPUT_RANGE_RADIUS] = q.radius;
    p[INPUT_MULTIPLIER] = q.multiplier;
    p[INPUT_LEFT_SHIFT] = q.leftShift;
  } else if (input.type === TensorType.INT16) {
    requireQuantized(OP, node, input, 'input');
    requireQuantized(OP, node, output, 'output');
    requireZeroPoint(OP, node, input, 'input', 0);
    requireZeroPoint(OP, node, output, 'output', 0);
    const q = int16ActivationParams(input.params.scale, 1);
    if (typeof q === 'string') throw new KernelError(OP, node.index, q);
    const outLog2 = checkedLog2(output.params.scale);
    if (!outLog2.isPowerOfTwo || outLog2.log2 !== -15)
      throw new KernelError(OP, node.index, `int16 output (tensor ${output.index}) scale must be 2^-15, got ${output.params.scale}`);
    p[INPUT_MULTIPLIER] = q.multiplier;
    p[INPUT_LEFT_SHIFT] = q.leftShift;
  }
  data.type = input.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as TanhOpData;
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const p = data.params;
  const n = data.count;
  switch (data.type) {
    case TensorType.FLOAT32: {
      const x = input as Float32Array;
      const y = output as Float32Array;
      for (let i = 0; i < n; i++) y[i] = Math.tanh(x[i]!);
      break;
    }
    case TensorType.INT8:
      tanhInt8(input as Int8Array, output as Int8Array, n, p[INPUT_ZERO_POINT]!, p[INPUT_RANGE_RADIUS]!, p[INPUT_MULTIPLIER]!, p[INPUT_LEFT_SHIFT]!);
      break;
    default: {
      let multiplier = p[INPUT_MULTIPLIER]!;
      let leftShift = p[INPUT_LEFT_SHIFT]!;
      if (multiplier === 0) {
        // Power-of-two input scale: the factor 3 of the [-10.7, 10.7] table range, no shift.
        multiplier = 3 << leftShift;
        leftShift = 0;
      }
      const round = leftShift > 0 ? 1 << (leftShift - 1) : 0;
      const x = input as Int16Array;
      const y = output as Int16Array;
      for (let i = 0; i < n; i++) y[i] = tanhInt16(x[i]!, multiplier, leftShift, round);
    }
  }
}

function tanhInt8(x: Int8Array, y: Int8Array, n: number, zeroPoint: number, radius: number, multiplier: number, leftShift: number): void {
  for (let i = 0; i < n; i++) {
    const d = x[i]! - zeroPoint;
    if (d <= -radius) y[i] = -128;
    else if (d >= radius) y[i] = 127;
    else {
      const inQ4 = multiplyByQuantizedMultiplier(d, multiplier, leftShift);
      const outQ24 = roundingDivideByPOT(fixedPointTanh(inQ4, 4), 24);
      y[i] = outQ24 < -128 ? -128 : outQ24 > 127 ? 127 : outQ24;
    }
  }
}

/** TANH reference kernel: float32, int8, int16. */
export const TANH: Registration<TanhOpData> = {
  builtinCode: BuiltinOperator.TANH,
  version: 3,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: 'TANH',
  init: (context) => ({ params: allocateOpData(context, TFLM_OP_DATA_BYTES.TANH), type: TensorType.FLOAT32, count: 0 }),
  prepare,
  invoke,
};
