/**
 * ABS (tflite-micro kernels/elementwise.cc: PrepareAbsRsqrt, AbsEval, AbsEvalQuantized).
 *
 * float32: |x|. int8 and quantized int16: |x - input zero point|, requantized to the output scale when
 * the scales differ, plus the output zero point, clamped to the type (int16 needs zero points of 0).
 * Unquantized int16: |x| wrapped to int16 as C's static_cast (|-32768| gives -32768). int32 (TFLite's,
 * after 2.9): |x| wrapped the same way (|INT32_MIN| gives INT32_MIN).
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
import { FLOAT32_INT8_INT16, requireInt16ZeroPoints, requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { allocateOpData, opData } from '@micrort/kernel-support';

const OP = 'ABS';

// Word offsets in TFLM's OpDataAbsRsqrt block.
const MULTIPLIER = 0;
const SHIFT = 1;
const INPUT_OFFSET = 2;
const OUTPUT_OFFSET = 3;
const NEEDS_RESCALE = 4;
const QUANTIZED = 5;
const INPUT_TYPE = 6;

interface AbsOpData extends UnaryOpData {
  /** TFLM's OpDataAbsRsqrt in the arena. */
  params: Int32Array;
}

function prepare(_context: TfLiteContext, node: Node, data: AbsOpData, input: Tensor, output: Tensor): void {
  const p = data.params;
  p[INPUT_TYPE] = input.type;
  const quantized =
    input.type === TensorType.INT8 ||
    (input.type === TensorType.INT16 && input.quantization !== null && input.quantization.scale.length > 0);
  p[QUANTIZED] = quantized ? 1 : 0;
  if (quantized) {
    requireQuantizedPair(OP, node, input, output);
    p[INPUT_OFFSET] = input.params.zeroPoint;
    p[OUTPUT_OFFSET] = output.params.zeroPoint;
    requireInt16ZeroPoints(OP, node, input, output);
    const needsRescale = input.params.scale !== output.params.scale;
    p[NEEDS_RESCALE] = needsRescale ? 1 : 0;
    if (needsRescale) {
      const m = checkedQuantizeMultiplier(OP, node, input.params.scale / output.params.scale, 'input/output rescale');
      p[MULTIPLIER] = m.multiplier;
      p[SHIFT] = m.shift;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<AbsOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const p = data.params;
  const n = data.count;
  const type = p[INPUT_TYPE]!;
  if (type === TensorType.FLOAT32) {
    const x = input as Float32Array;
    const y = output as Float32Array;
    for (let i = 0; i < n; i++) y[i] = Math.abs(x[i]!);
    return;
  }
  const x = input as Int8Array | Int16Array;
  const y = output as Int8Array | Int16Array;
  if (p[QUANTIZED] === 0) {
    // Int16Array stores wrap: |-32768| = 32768 becomes -32768, as static_cast<int16_t>.
    for (let i = 0; i < n; i++) y[i] = Math.abs(x[i]!);
    return;
  }
  const lo = type === TensorType.INT8 ? -128 : -32768;
  const hi = type === TensorType.INT8 ? 127 : 32767;
  const inOff = p[INPUT_OFFSET]!;
  const outOff = p[OUTPUT_OFFSET]!;
  const m = p[MULTIPLIER]!;
  const shift = p[SHIFT]!;
  const rescale = p[NEEDS_RESCALE] === 1;
  for (let i = 0; i < n; i++) {
    const d = x[i]! - inOff;
    const value = d < 0 ? -d : d;
    const v = rescale ? (multiplyByQuantizedMultiplier(value, m, shift) + outOff) | 0 : value + outOff;
    y[i] = v < lo ? lo : v > hi ? hi : v;
  }
}

/** ABS reference kernel: float32, int8, int16, int32. */
export const ABS = unaryKernel<AbsOpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.ABS,
  version: 5,
  types: [...FLOAT32_INT8_INT16, TensorType.INT32],
  init: (context) => ({ params: allocateOpData(context, TFLM_OP_DATA_BYTES.ABS).i32, count: 0 }),
  prepare,
  invoke,
});
