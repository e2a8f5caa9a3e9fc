/**
 * LEAKY_RELU (tflite-micro kernels/leaky_relu.cc, leaky_relu_common.cc; reference_ops::LeakyRelu,
 * QuantizeLeakyRelu).
 *
 * float32: x > 0 ? x : alpha * x. int8/int16: non-negative input differences are requantized with the
 * identity multiplier (input scale / output scale), negative ones with the alpha multiplier
 * (input scale * alpha / output scale, computed in float as TFLM), then clamped to the type range.
 * TFLite's uint8 (reference_ops::QuantizeLeakyRelu<uint8_t>) is the same arithmetic on uint8.
 */
import {
  BuiltinOperator,
  TensorType,
  multiplyByQuantizedMultiplier,
  checkedQuantizeMultiplier,
  type LeakyReluOptions,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { TFLM_OP_DATA_BYTES } from './elementwise-common.js';
import { FLOAT32_INT8_INT16_UINT8, requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { allocateOpData, opData } from '@micrort/kernel-support';

const OP = 'LEAKY_RELU';

// Word offsets in TFLM's LeakyReluOpData block.
const MULTIPLIER_ALPHA = 0;
const SHIFT_ALPHA = 1;
const MULTIPLIER_IDENTITY = 2;
const SHIFT_IDENTITY = 3;
const INPUT_ZERO_POINT = 4;
const OUTPUT_ZERO_POINT = 5;

interface LeakyReluOpData extends UnaryOpData {
  /** TFLM's LeakyReluOpData in the arena. */
  params: Int32Array;
  type: TensorType;
  /** alpha as a float32 value (float path); NaN until prepare, so the field holds a double from the start. */
  alpha: number;
}

function prepare(_context: TfLiteContext, node: Node, data: LeakyReluOpData, input: Tensor, output: Tensor): void {
  // The schema default of LeakyReluOptions.alpha is 0.
  data.alpha = Math.fround((node.builtinData as LeakyReluOptions | null)?.alpha ?? 0);
  if (input.type !== TensorType.FLOAT32) {
    requireQuantizedPair(OP, node, input, output);
    const p = data.params;
    p[INPUT_ZERO_POINT] = input.params.zeroPoint;
    p[OUTPUT_ZERO_POINT] = output.params.zeroPoint;
    const alpha = checkedQuantizeMultiplier(
      OP,
      node,
      Math.fround(Math.fround(input.params.scale * data.alpha) / output.params.scale),
      'alpha multiplier',
    );
    p[MULTIPLIER_ALPHA] = alpha.multiplier;
    p[SHIFT_ALPHA] = alpha.shift;
    const identity = checkedQuantizeMultiplier(OP, node, Math.fround(input.params.scale / output.params.scale), 'identity multiplier');
    p[MULTIPLIER_IDENTITY] = identity.multiplier;
    p[SHIFT_IDENTITY] = identity.shift;
  }
  data.type = input.type;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<LeakyReluOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const n = data.count;
  if (data.type === TensorType.FLOAT32) {
    const x = input as Float32Array;
    const y = output as Float32Array;
    const alpha = data.alpha;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      y[i] = v > 0 ? v : v * alpha;
    }
    return;
  }
  const p = data.params;
  const mAlpha = p[MULTIPLIER_ALPHA]!;
  const sAlpha = p[SHIFT_ALPHA]!;
  const mIdentity = p[MULTIPLIER_IDENTITY]!;
  const sIdentity = p[SHIFT_IDENTITY]!;
  const inZp = p[INPUT_ZERO_POINT]!;
  const outZp = p[OUTPUT_ZERO_POINT]!;
  if (data.type === TensorType.UINT8) {
    leakyReluUint8(input as Uint8Array, output as Uint8Array, n, mAlpha, sAlpha, mIdentity, sIdentity, inZp, outZp);
    return;
  }
  const lo = data.type === TensorType.INT8 ? -128 : -32768;
  const hi = data.type === TensorType.INT8 ? 127 : 32767;
  const x = input as Int8Array | Int16Array;
  const y = output as Int8Array | Int16Array;
  for (let i = 0; i < n; i++) {
    const d = x[i]! - inZp;
    const v =
      (outZp + (d >= 0 ? multiplyByQuantizedMultiplier(d, mIdentity, sIdentity) : multiplyByQuantizedMultiplier(d, mAlpha, sAlpha))) | 0;
    y[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** The quantized loop on uint8 data, clamped to [0, 255] (a separate monomorphic loop). */
function leakyReluUint8(
  x: Uint8Array,
  y: Uint8Array,
  n: number,
  mAlpha: number,
  sAlpha: number,
  mIdentity: number,
  sIdentity: number,
  inZp: number,
  outZp: number,
): void {
  for (let i = 0; i < n; i++) {
    const d = x[i]! - inZp;
    const v =
      (outZp + (d >= 0 ? multiplyByQuantizedMultiplier(d, mIdentity, sIdentity) : multiplyByQuantizedMultiplier(d, mAlpha, sAlpha))) | 0;
    y[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
}

/** LEAKY_RELU reference kernel: float32, int8, int16, uint8. */
export const LEAKY_RELU = unaryKernel<LeakyReluOpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.LEAKY_RELU,
  version: 2,
  types: FLOAT32_INT8_INT16_UINT8,
  init: (context) => ({
    params: allocateOpData(context, TFLM_OP_DATA_BYTES.LEAKY_RELU).i32,
    type: TensorType.FLOAT32,
    count: 0,
    alpha: Number.NaN,
  }),
  prepare,
  invoke,
});
