/**
 * RELU (tflite-micro kernels/activations.cc, activations_common.cc: ReluFloat, ReluQuantized).
 *
 * float32: max(x, 0). int8/int16: the input is requantized to the output scale with one multiplier
 * (input scale / output scale) and clamped to [max(type min, output zero point), type max]; int16
 * requires zero points of 0.
 */
import {
  BuiltinOperator,
  TensorType,
  multiplyByQuantizedMultiplier,
  checkedQuantizeMultiplier,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
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

const OP = 'RELU';

// Word offsets in TFLM's ReluOpData (ReluParams) block; word 0 is the activation type.
const ACT_MIN = 1;
const ACT_MAX = 2;
const INPUT_OFFSET = 3;
const OUTPUT_OFFSET = 4;
const OUTPUT_MULTIPLIER = 5;
const OUTPUT_SHIFT = 6;

interface ReluOpData {
  /** TFLM's ReluOpData in the arena. */
  params: Int32Array;
  type: TensorType;
  count: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opDataOf<ReluOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  requireType(OP, node, input, 'input', [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16]);
  requireSameType(OP, node, input, output, 'input and output');
  data.count = requireSameElementCount(OP, node, input, output);
  if (input.type !== TensorType.FLOAT32) {
    requireQuantized(OP, node, input, 'input');
    requireQuantized(OP, node, output, 'output');
    if (input.type === TensorType.INT16) {
      requireZeroPoint(OP, node, input, 'input', 0);
      requireZeroPoint(OP, node, output, 'output', 0);
    }
    const p = data.params;
    const m = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'input/output rescale');
    p[OUTPUT_MULTIPLIER] = m.multiplier;
    p[OUTPUT_SHIFT] = m.shift;
    const typeMin = input.type === TensorType.INT8 ? -128 : -32768;
    // zero_point + roundf(0 / scale) = zero_point; no upper bound for RELU.
    p[ACT_MIN] = Math.max(typeMin, output.params.zeroPoint);
    p[ACT_MAX] = input.type === TensorType.INT8 ? 127 : 32767;
    p[INPUT_OFFSET] = input.params.zeroPoint;
    p[OUTPUT_OFFSET] = output.params.zeroPoint;
  }
  data.type = input.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as ReluOpData;
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const n = data.count;
  if (data.type === TensorType.FLOAT32) {
    const x = input as Float32Array;
    const y = output as Float32Array;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      y[i] = v < 0 ? 0 : v;
    }
    return;
  }
  const p = data.params;
  const lo = p[ACT_MIN]!;
  const hi = p[ACT_MAX]!;
  const inOff = p[INPUT_OFFSET]!;
  const outOff = p[OUTPUT_OFFSET]!;
  const m = p[OUTPUT_MULTIPLIER]!;
  const shift = p[OUTPUT_SHIFT]!;
  const x = input as Int8Array | Int16Array;
  const y = output as Int8Array | Int16Array;
  for (let i = 0; i < n; i++) {
    const v = (outOff + multiplyByQuantizedMultiplier(x[i]! - inOff, m, shift)) | 0;
    y[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** RELU reference kernel: float32, int8, int16. */
export const RELU: Registration<ReluOpData> = {
  builtinCode: BuiltinOperator.RELU,
  version: 3,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: 'RELU',
  init: (context) => ({ params: allocateOpData(context, TFLM_OP_DATA_BYTES.RELU), type: TensorType.FLOAT32, count: 0 }),
  prepare,
  invoke,
};
