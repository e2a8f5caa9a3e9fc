/**
 * L2_NORMALIZATION (tflite-micro kernels/l2norm.cc; reference_ops::L2Normalization for float32,
 * reference_integer_ops::L2Normalization for int8): each row along the last dimension divided by its L2
 * norm. Input of at most 4 dimensions, output of the same type and shape, fused activation NONE only.
 *
 * - float32: the sum of squares in float32 (in order), sqrtf, at least 1e-6f, then x / norm.
 * - int8: the int32 sum of (x - zero point)^2, GetInvSqrtQuantizedMultiplierExp, and each
 *   (x - zero point) multiplied by that 1/norm with an extra left shift of 7, clamped to int8. The result
 *   is value * 128 whatever the output quantization says (TFLM never reads it; the converter writes
 *   q(1/128, 0)).
 *
 * TFLM refuses int16 in prepare (output must be float32 or int8); so does this kernel.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  REVERSE_SHIFT,
  TensorType,
  getInvSqrtQuantizedMultiplierExp,
  multiplyByQuantizedMultiplier,
  type L2NormOptions,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { MATH_OP_DATA_BYTES, requireSameShape } from './math-common.js';
import { requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { allocateOpData, expectMaxRank, opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'L2_NORMALIZATION';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8];
const EPSILON = Math.fround(1e-6);
/** reference_integer_ops::L2Normalization's kOutputScale: the result is in 1/128 steps. */
const OUTPUT_SCALE_SHIFT = 7;

interface L2NormOpData extends UnaryOpData {
  /** TFLM's L2NormalizationParams { int32 input_zero_point } in the arena. */
  params: Int32Array;
  type: TensorType;
  depth: number;
  outer: number;
  /** GetInvSqrtQuantizedMultiplierExp's [multiplier, shift], reused per row. */
  invSqrt: Int32Array;
}

function prepare(_context: TfLiteContext, node: Node, data: L2NormOpData, input: Tensor, output: Tensor): void {
  expectMaxRank(OP, node, 'input', input, 4);
  requireSameShape(OP, node, input, output);
  const activation = (node.builtinData as L2NormOptions | null)?.fusedActivationFunction ?? ActivationFunctionType.NONE;
  if (activation !== ActivationFunctionType.NONE)
    throw new KernelError(
      OP,
      node.index,
      `fused activation ${ActivationFunctionType[activation] ?? activation} is not supported (TFLM accepts NONE only)`,
    );
  if (input.dims.length === 0) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must have at least one dimension`);
  data.type = input.type;
  data.depth = input.dims[input.dims.length - 1]!;
  data.outer = data.depth === 0 ? 0 : data.count / data.depth;
  data.params[0] = 0;
  if (input.type === TensorType.INT8) {
    requireQuantizedPair(OP, node, input, output);
    data.params[0] = input.params.zeroPoint;
  }
}

function l2NormFloat(x: Float32Array, y: Float32Array, outer: number, depth: number): void {
  const f = Math.fround;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let sum = 0;
    for (let c = 0; c < depth; c++) {
      const v = x[base + c]!;
      sum = f(sum + f(v * v));
    }
    let norm = f(Math.sqrt(sum));
    if (norm < EPSILON) norm = EPSILON;
    for (let c = 0; c < depth; c++) y[base + c] = x[base + c]! / norm;
  }
}

function l2NormInt8(x: Int8Array, y: Int8Array, d: L2NormOpData): void {
  const zp = d.params[0]!;
  const { outer, depth } = d;
  const inv = d.invSqrt;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    let acc = 0;
    for (let c = 0; c < depth; c++) {
      const v = x[base + c]! - zp;
      acc = (acc + v * v) | 0;
    }
    getInvSqrtQuantizedMultiplierExp(acc, REVERSE_SHIFT, inv);
    const multiplier = inv[0]!;
    const shift = inv[1]! + OUTPUT_SCALE_SHIFT;
    for (let c = 0; c < depth; c++) {
      const out = multiplyByQuantizedMultiplier(x[base + c]! - zp, multiplier, shift);
      y[base + c] = out < -128 ? -128 : out > 127 ? 127 : out;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<L2NormOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const y = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) l2NormFloat(x as Float32Array, y as Float32Array, d.outer, d.depth);
  else l2NormInt8(x as Int8Array, y as Int8Array, d);
}

/** L2_NORMALIZATION reference kernel: float32, int8. */
export const L2_NORMALIZATION = {
  ...unaryKernel<L2NormOpData>({
    name: OP,
    builtinCode: BuiltinOperator.L2_NORMALIZATION,
    version: 2,
    types: TYPES,
    init: (context) => ({
      params: allocateOpData(context, MATH_OP_DATA_BYTES.L2_NORMALIZATION).i32,
      type: TensorType.FLOAT32,
      depth: 0,
      outer: 0,
      invSqrt: new Int32Array(2),
      count: 0,
    }),
    prepare,
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
