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
 * - uint8 (TFLite's l2norm.cc and reference_ops::L2Normalization; TFLM has none): output q(1/128, 128)
 *   as TFLite requires; the same int32 sum of squares and inverse square root, then
 *   MultiplyByQuantizedMultiplierSmallerThanOneExp(128 × (x - zero point)) + 128, clamped to [0, 255].
 *   TFLite's optimized uint8 kernel does the same integer steps.
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
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  type L2NormOptions,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { MATH_OP_DATA_BYTES, requireSameShape } from './math-common.js';
import { requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { allocateOpData, expectMaxRank, opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'L2_NORMALIZATION';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8];
/** TFLite's required uint8 output quantization (l2norm.cc Prepare). */
const UINT8_OUTPUT_SCALE = 1 / 128;
const UINT8_OUTPUT_ZERO_POINT = 128;
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
  if (input.type === TensorType.INT8 || input.type === TensorType.UINT8) {
    requireQuantizedPair(OP, node, input, output);
    data.params[0] = input.params.zeroPoint;
  }
  if (
    input.type === TensorType.UINT8 &&
    (output.params.scale !== UINT8_OUTPUT_SCALE || output.params.zeroPoint !== UINT8_OUTPUT_ZERO_POINT)
  )
    throw new KernelError(
      OP,
      node.index,
      `uint8 output (tensor ${output.index}) must be quantized with scale 1/128 and zero point 128, got scale ${output.params.scale}, zero point ${output.params.zeroPoint}`,
    );
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

/** reference_ops::L2Normalization for uint8: 1/norm applied to 128 × the centered value, plus 128. */
function l2NormUint8(x: Uint8Array, y: Uint8Array, d: L2NormOpData): void {
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
    const shift = inv[1]!;
    for (let c = 0; c < depth; c++) {
      const out = 128 + multiplyByQuantizedMultiplierSmallerThanOneExp(128 * (x[base + c]! - zp), multiplier, shift);
      y[base + c] = out < 0 ? 0 : out > 255 ? 255 : out;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<L2NormOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const y = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) l2NormFloat(x as Float32Array, y as Float32Array, d.outer, d.depth);
  else if (d.type === TensorType.INT8) l2NormInt8(x as Int8Array, y as Int8Array, d);
  else l2NormUint8(x as Uint8Array, y as Uint8Array, d);
}

/** L2_NORMALIZATION reference kernel: float32, int8, uint8. */
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
