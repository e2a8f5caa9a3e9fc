/**
 * REVERSE_V2 (TFLM kernels/reverse.cc, reference_ops::Reverse): the node checks, the output shape and the
 * reversal as three axes, for every kernel package that runs it. As TFLM, the axes (a constant 1-D int32
 * tensor, negative counting from the end) must be contiguous once sorted, the input has at most 6
 * dimensions and no more axes than dimensions; reversing contiguous axes a..b reverses their combined
 * index, so the input is `[outer, middle, inner]` with `middle` walked backwards (an empty axis list: a
 * copy, middle 1). Only whole elements move.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Tensor, TfLiteContext } from '@micrort/core';
import { expectType, shapeText } from './checks.js';
import { dimProduct, readConstantIndexTensor, requireSameTypeAs, resolveAxis } from './constant-index.js';
import { setOutputShape } from './output-shape.js';

/** REVERSE_V2's types: float32, int8, uint8, int16, int32, int64, bool (as TFLM), and float16 (as TFLite). */
export const REVERSE_V2_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.FLOAT16,
];

/** TFLM's kMaxDimensions (RuntimeShape::kMaxSmallSize). */
export const REVERSE_V2_MAX_DIMS = 6;

/** A prepared REVERSE_V2: out[o][middle - 1 - m][i] = in[o][m][i]. */
export interface Reverse {
  input: Tensor;
  /** Product of the dims before the reversed axes. */
  outer: number;
  /** Product of the reversed dims. */
  middle: number;
  /** Product of the dims after the reversed axes (elements). */
  inner: number;
}

/** Checks a REVERSE_V2 node, sets its output's shape (the input's) and returns the reversal. Throws KernelError or TensorTypeError. */
export function prepareReverse(op: string, context: TfLiteContext, node: Node): Reverse {
  checkArity(op, node, 2, 1);
  const input = getInput(context, node, 0, op);
  const axisTensor = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, REVERSE_V2_TYPES);
  requireSameTypeAs(op, node, output, 'output', input, 'input');
  setOutputShape(op, context, node, 0, input.dims);
  expectType(op, node, 'axis', axisTensor, [TensorType.INT32]);
  if (axisTensor.dims.length !== 1) throw new KernelError(op, node.index, `axis must be 1-D, got shape ${shapeText(axisTensor.dims)}`);
  const rank = input.dims.length;
  if (rank > REVERSE_V2_MAX_DIMS)
    throw new KernelError(op, node.index, `input has ${rank} dimensions, at most ${REVERSE_V2_MAX_DIMS} are supported`);
  const raw = readConstantIndexTensor(axisTensor, op, node, 'axis');
  if (raw.length > rank) throw new KernelError(op, node.index, `${raw.length} axes given for a ${rank}-D input`);
  const axes = raw.map((a) => resolveAxis(op, node, a, rank)).sort((a, b) => a - b);
  for (let i = 1; i < axes.length; i++)
    if (axes[i - 1]! + 1 !== axes[i])
      throw new KernelError(op, node.index, `non-contiguous axes ${shapeText(raw)} are not supported (as in TFLM)`);
  const first = axes.length > 0 ? axes[0]! : rank;
  const last = axes.length > 0 ? axes[axes.length - 1]! + 1 : rank;
  return {
    input,
    outer: dimProduct(input.dims, 0, first),
    middle: dimProduct(input.dims, first, last),
    inner: dimProduct(input.dims, last),
  };
}
