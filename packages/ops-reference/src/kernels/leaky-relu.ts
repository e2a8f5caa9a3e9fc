/**
 * LEAKY_RELU (tflite-micro kernels/leaky_relu.cc, leaky_relu_common.cc; reference_ops::LeakyRelu,
 * QuantizeLeakyRelu).
 *
 * float32: x > 0 ? x : alpha * x. int8/int16: non-negative input differences are requantized with the
 * identity multiplier (input scale / output scale), negative ones with the alpha multiplier
 * (input scale * alpha / output scale, computed in float as TFLM), then clamped to the type range
 * (kernel-support's leaky-relu.ts, which ops-wasm shares). TFLite's uint8
 * (reference_ops::QuantizeLeakyRelu<uint8_t>) is the same arithmetic on uint8. int8 and uint8 outputs
 * are tabulated at prepare for the 256 input bytes and looked up at invoke (byte-equal to the arithmetic).
 */
import { BuiltinOperator, TensorType, type LeakyReluOptions, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { TFLM_OP_DATA_BYTES } from './elementwise-common.js';
import { FLOAT32_INT8_INT16_UINT8, requireQuantizedPair, lookupBytes, unaryKernel, type UnaryOpData } from './unary-common.js';
import {
  allocateOpData,
  leakyReluQuantParams,
  leakyReluQuantized,
  leakyReluTable,
  opData,
  type LeakyReluQuantParams,
} from '@micrort/kernel-support';

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
  /** The quantized parameters (kernel-support's leakyReluQuantParams). */
  q: LeakyReluQuantParams | null;
  /** int8 / uint8: the output byte of each input byte (leakyReluTable; op data outside the arena). */
  lut: Uint8Array;
}

function prepare(_context: TfLiteContext, node: Node, data: LeakyReluOpData, input: Tensor, output: Tensor): void {
  // The schema default of LeakyReluOptions.alpha is 0.
  data.alpha = Math.fround((node.builtinData as LeakyReluOptions | null)?.alpha ?? 0);
  if (input.type !== TensorType.FLOAT32) {
    requireQuantizedPair(OP, node, input, output);
    const q = leakyReluQuantParams(OP, node, input, output, data.alpha);
    const p = data.params;
    p[INPUT_ZERO_POINT] = q.inputZeroPoint;
    p[OUTPUT_ZERO_POINT] = q.outputZeroPoint;
    p[MULTIPLIER_ALPHA] = q.multiplierAlpha;
    p[SHIFT_ALPHA] = q.shiftAlpha;
    p[MULTIPLIER_IDENTITY] = q.multiplierIdentity;
    p[SHIFT_IDENTITY] = q.shiftIdentity;
    data.q = q;
    // 8-bit outputs depend on the input byte alone: TFLM's per-element arithmetic, tabulated once
    if (input.type !== TensorType.INT16) leakyReluTable(q, input.type === TensorType.UINT8, data.lut);
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
  if (data.type === TensorType.INT16) {
    const q = data.q!;
    const x = input as Int16Array;
    const y = output as Int16Array;
    for (let i = 0; i < n; i++) y[i] = leakyReluQuantized(x[i]!, q, -32768, 32767);
    return;
  }
  // int8 and uint8: the table of prepare, indexed by the input byte (equal to the per-element arithmetic)
  lookupBytes(data.lut, context.getEvalTensor(node.inputs[0]!).bytes, context.getEvalTensor(node.outputs[0]!).bytes, n);
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
    q: null,
    lut: new Uint8Array(256),
  }),
  prepare,
  invoke,
});
