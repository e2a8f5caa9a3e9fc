/**
 * REVERSE_V2 (TFLM kernels/reverse.cc, reference_ops::Reverse): reverses the input along the axes of a
 * constant 1-D int32 tensor (negative counts from the end). As TFLM, the axes must be contiguous once
 * sorted ("Non-contiguous axes not supported"), the input has at most 6 dimensions and no more axes than
 * dimensions; reversing contiguous axes a..b reverses their combined index. An empty axis list copies.
 * Types: float32, int8, uint8, int16, int32, int64, bool (as TFLM), and float16 (as TFLite).
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, requireSameTypeAs, requireShape, resolveAxis, typeSupport } from './data-common.js';
import {
  type ElementLayout,
  type NumberArray,
  elementLayout,
  movableData,
  readConstantIndexTensor,
  shapeString,
} from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'REVERSE_V2';
const TYPES = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.FLOAT16,
] as const;
/** TFLM's kMaxDimensions (RuntimeShape::kMaxSmallSize). */
export const REVERSE_V2_MAX_DIMS = 6;

/** Op data computed in prepare (TFLM keeps none). */
interface ReverseOpData {
  layout: ElementLayout;
  outer: number;
  /** Product of the reversed dimensions. */
  middle: number;
  /** Array slots after the reversed dimensions. */
  inner: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const axisTensor = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TYPES);
  requireSameTypeAs(OP, node, output, 'output', input, 'input');
  requireShape(OP, node, output, 'output', input.dims);
  expectType(OP, node, 'axis', axisTensor, [TensorType.INT32]);
  if (axisTensor.dims.length !== 1) throw new KernelError(OP, node.index, `axis must be 1-D, got shape ${shapeString(axisTensor.dims)}`);
  const rank = input.dims.length;
  if (rank > REVERSE_V2_MAX_DIMS)
    throw new KernelError(OP, node.index, `input has ${rank} dimensions, at most ${REVERSE_V2_MAX_DIMS} are supported`);
  const raw = readConstantIndexTensor(axisTensor, OP, node, 'axis');
  if (raw.length > rank) throw new KernelError(OP, node.index, `${raw.length} axes given for a ${rank}-D input`);
  const axes = raw.map((a) => resolveAxis(OP, node, a, rank)).sort((a, b) => a - b);
  for (let i = 1; i < axes.length; i++)
    if (axes[i - 1]! + 1 !== axes[i])
      throw new KernelError(OP, node.index, `non-contiguous axes ${shapeString(raw)} are not supported (as in TFLM)`);
  const layout = elementLayout(input.type, OP, node);
  const first = axes.length > 0 ? axes[0]! : rank;
  const last = axes.length > 0 ? axes[axes.length - 1]! + 1 : rank;
  const data: ReverseOpData = {
    layout,
    outer: dimProduct(input.dims, 0, first),
    middle: dimProduct(input.dims, first, last),
    inner: dimProduct(input.dims, last) * layout.units,
  };
  fillOpData(OP, node, data);
}

function reverse(d: ReverseOpData, src: NumberArray, dst: NumberArray): void {
  const { outer, middle, inner } = d;
  for (let o = 0; o < outer; o++) {
    const base = o * middle;
    for (let m = 0; m < middle; m++) {
      let p = (base + m) * inner;
      let q = (base + middle - 1 - m) * inner;
      for (let k = 0; k < inner; k++) dst[q++] = src[p++]!;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ReverseOpData>(OP, node);
  reverse(d, movableData(context.getEvalTensor(node.inputs[0]!), d.layout), movableData(context.getEvalTensor(node.outputs[0]!), d.layout));
}

/** REVERSE_V2 registration (op versions 1..3). */
export const REVERSE_V2: Registration = {
  builtinCode: BuiltinOperator.REVERSE_V2,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
