/**
 * RELU (tflite-micro kernels/activations.cc, activations_common.cc: ReluFloat, ReluQuantized).
 *
 * float32: max(x, 0). int8/int16: the input is requantized to the output scale with one multiplier
 * (input scale / output scale) and clamped to [max(type min, output zero point), type max]; int16
 * requires zero points of 0. TFLite's uint8 (activations.cc QuantizedReluX) is the same with the
 * multiplier from the float32 quotient of the scales (see relu-common.ts).
 */
import {
  BuiltinOperator,
  TensorType,
  multiplyByQuantizedMultiplier,
  checkedQuantizeMultiplier,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { TFLM_OP_DATA_BYTES } from './elementwise-common.js';
import { FLOAT32_INT8_INT16_UINT8, requireInt16ZeroPoints, requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { prepareReluXUint8, reluXUint8 } from './relu-common.js';
import { allocateOpData, opData } from '@micrort/kernel-support';

const OP = 'RELU';

// Word offsets in TFLM's ReluOpData (ReluParams) block; word 0 is the activation type.
const ACT_MIN = 1;
const ACT_MAX = 2;
const INPUT_OFFSET = 3;
const OUTPUT_OFFSET = 4;
const OUTPUT_MULTIPLIER = 5;
const OUTPUT_SHIFT = 6;

interface ReluOpData extends UnaryOpData {
  /** TFLM's ReluOpData in the arena. */
  params: Int32Array;
  type: TensorType;
}

function prepare(_context: TfLiteContext, node: Node, data: ReluOpData, input: Tensor, output: Tensor): void {
  if (input.type === TensorType.UINT8) {
    prepareReluXUint8(OP, node, input, output, 0, Number.POSITIVE_INFINITY, data.params);
  } else if (input.type !== TensorType.FLOAT32) {
    requireQuantizedPair(OP, node, input, output);
    requireInt16ZeroPoints(OP, node, input, output);
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
  const data = opData<ReluOpData>(OP, node);
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
  if (data.type === TensorType.UINT8) {
    reluXUint8(data.params, input as Uint8Array, output as Uint8Array, n);
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

/** RELU reference kernel: float32, int8, int16, uint8. */
export const RELU = unaryKernel<ReluOpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.RELU,
  version: 3,
  types: FLOAT32_INT8_INT16_UINT8,
  init: (context) => ({ params: allocateOpData(context, TFLM_OP_DATA_BYTES.RELU).i32, type: TensorType.FLOAT32, count: 0 }),
  prepare,
  invoke,
});
