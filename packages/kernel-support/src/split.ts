/**
 * SPLIT, SPLIT_V and UNPACK (TFLM kernels/split.cc, split_v.cc, unpack.cc): the node checks, the outputs'
 * shapes and how the input is cut, for every kernel package that runs them. Each output `i` is the input's
 * slice `[offsets[i], offsets[i] + sizes[i])` along `axis` (all of every other axis); in memory, for each
 * of `outer` steps (the axes before `axis`), a run of `sizes[i] · inner` elements (`inner`: the axes after
 * it), the runs of the outputs following each other. UNPACK is SPLIT into parts of size 1 with the axis
 * removed from the outputs' shapes. Only whole elements move, so any kernel that copies these runs is exact.
 */
import { KernelError, TensorType, getInput, getOutput } from '@micrort/core';
import type { Node, SplitOptions, Tensor, TfLiteContext, UnpackOptions } from '@micrort/core';
import { expectType, shapeText } from './checks.js';
import { dimProduct, readConstantAxis, readConstantIndexTensor, requireSameTypeAs, resolveAxis } from './constant-index.js';
import { isDataDependent, refuseDataDependentInput, setOutputShapeOrBound } from './output-shape.js';

/** Types TFLM's SPLIT and SPLIT_V handle, plus uint8 and int64 (TFLite's). */
export const SPLIT_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT8,
  TensorType.INT64,
];

/** Types of UNPACK: float32, int8, int16, int32 as TFLM, and uint8, bool and float16 as TFLite. */
export const UNPACK_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT8,
  TensorType.BOOL,
  TensorType.FLOAT16,
];

/** How a prepared SPLIT, SPLIT_V or UNPACK node cuts its input into its outputs. */
export interface SplitGeometry {
  input: Tensor;
  /** The input's position among the node's inputs (SPLIT: 1, the others: 0). */
  inputPosition: number;
  /** The split axis, non-negative. */
  axis: number;
  /** Product of the input dims before the axis. */
  outer: number;
  /** Product of the input dims after the axis. */
  inner: number;
  /** Each output's extent along the axis (they add up to the input's). */
  sizes: Int32Array;
  /** The input is data-dependent: the outputs' shapes are bounds, the cut follows its actual dims. */
  bounded: boolean;
}

function geometry(input: Tensor, inputPosition: number, axis: number, sizes: Int32Array, bounded: boolean): SplitGeometry {
  return {
    input,
    inputPosition,
    axis,
    outer: dimProduct(input.dims, 0, axis),
    inner: dimProduct(input.dims, axis + 1),
    sizes,
    bounded,
  };
}

/**
 * Checks a SPLIT node (inputs: the constant int32 axis, the input of {@link SPLIT_TYPES}; num_splits 0 or
 * the output count; the axis size a multiple of it) and sets its outputs' shapes (bounds, for a
 * data-dependent input).
 */
export function prepareSplit(op: string, context: TfLiteContext, node: Node): SplitGeometry {
  if (node.inputs.length !== 2) throw new KernelError(op, node.index, `expects 2 inputs (axis, input), got ${node.inputs.length}`);
  const count = node.outputs.length;
  if (count < 1) throw new KernelError(op, node.index, 'expects at least 1 output');
  const axisTensor = getInput(context, node, 0, op);
  const input = getInput(context, node, 1, op);
  expectType(op, node, 'input', input, SPLIT_TYPES);
  const numSplits = (node.builtinData as SplitOptions | null)?.numSplits ?? 0;
  if (numSplits !== 0 && numSplits !== count)
    throw new KernelError(op, node.index, `num_splits is ${numSplits} but the node has ${count} outputs`);
  const rank = input.dims.length;
  const axis = resolveAxis(op, node, readConstantAxis(op, node, axisTensor, 'axis'), rank);
  const size = input.dims[axis]!;
  if (size % count !== 0) throw new KernelError(op, node.index, `axis ${axis} of size ${size} does not split into ${count} equal parts`);
  const expected = Array.from(input.dims);
  expected[axis] = size / count;
  const bounded = isDataDependent(input);
  for (let i = 0; i < count; i++) {
    const output = getOutput(context, node, i, op);
    requireSameTypeAs(op, node, output, `output ${i}`, input, 'input');
    setOutputShapeOrBound(op, context, node, i, expected, bounded);
  }
  return geometry(input, 1, axis, new Int32Array(count).fill(size / count), bounded);
}

/**
 * Checks a SPLIT_V node (inputs: the input of {@link SPLIT_TYPES}, size_splits, the constant int32 axis)
 * and, with a constant size_splits (one -1 takes the rest, as TFLite's Prepare), sets the outputs' shapes;
 * without one (computed at invoke, not read, as TFLM) the outputs keep their own. Every output must equal
 * the input but along the axis, and their sizes there add up to the input's. A data-dependent input is
 * taken with a constant size_splits only.
 */
export function prepareSplitV(op: string, context: TfLiteContext, node: Node): SplitGeometry {
  if (node.inputs.length !== 3)
    throw new KernelError(op, node.index, `expects 3 inputs (input, size_splits, axis), got ${node.inputs.length}`);
  const count = node.outputs.length;
  if (count < 1) throw new KernelError(op, node.index, 'expects at least 1 output');
  const input = getInput(context, node, 0, op);
  const axisTensor = getInput(context, node, 2, op);
  expectType(op, node, 'input', input, SPLIT_TYPES);
  const rank = input.dims.length;
  const axis = resolveAxis(op, node, readConstantAxis(op, node, axisTensor, 'axis'), rank);
  const sizes = splitVSizes(op, context, node, input.dims[axis]!, count);
  const bounded = isDataDependent(input);
  if (bounded && !sizes)
    refuseDataDependentInput(op, context, node, 0, `${op} follows a data-dependent input with a constant size_splits only`);
  const out = new Int32Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (sizes) {
      const dims = Array.from(input.dims);
      dims[axis] = sizes[i]!;
      setOutputShapeOrBound(op, context, node, i, dims, bounded);
    }
    const output = getOutput(context, node, i, op);
    requireSameTypeAs(op, node, output, `output ${i}`, input, 'input');
    const ok = output.dims.length === rank && Array.from(output.dims).every((v, k) => k === axis || v === input.dims[k]);
    if (!ok)
      throw new KernelError(
        op,
        node.index,
        `output ${i} has shape ${shapeText(output.dims)}; it must equal the input ${shapeText(input.dims)} except along axis ${axis}`,
      );
    out[i] = output.dims[axis]!;
    total += output.dims[axis]!;
  }
  if (total !== input.dims[axis])
    throw new KernelError(op, node.index, `the outputs add up to ${total} along axis ${axis}, the input has ${input.dims[axis]}`);
  return geometry(input, 0, axis, out, bounded);
}

/**
 * The outputs' sizes along the axis from a constant size_splits (model data or folded; one -1 takes the
 * rest, as TFLite's split_v Prepare), or null when size_splits is computed at invoke (the outputs keep
 * their own shapes, TFLM's rule).
 */
function splitVSizes(op: string, context: TfLiteContext, node: Node, axisSize: number, count: number): number[] | null {
  const t = getInput(context, node, 1, op);
  if (!t.isConstant) return null;
  const sizes = readConstantIndexTensor(t, op, node, 'size_splits');
  if (sizes.length !== count)
    throw new KernelError(op, node.index, `size_splits has ${sizes.length} entries, the node has ${count} outputs`);
  const open = sizes.indexOf(-1);
  if (open >= 0) {
    if (sizes.indexOf(-1, open + 1) >= 0) throw new KernelError(op, node.index, 'size_splits has more than one -1');
    sizes[open] = axisSize - sizes.reduce((a, b, i) => (i === open ? a : a + b), 0);
  }
  for (let i = 0; i < count; i++)
    if (sizes[i]! < 0) throw new KernelError(op, node.index, `size_splits [${sizes.join(', ')}] do not split an axis of ${axisSize}`);
  return sizes;
}

/**
 * Checks an UNPACK node (one input of {@link UNPACK_TYPES}, rank ≥ 1; num the output count and the axis
 * size) and sets its outputs' shapes (the input's without the axis; bounds, for a data-dependent input).
 */
export function prepareUnpack(op: string, context: TfLiteContext, node: Node): SplitGeometry {
  if (node.inputs.length !== 1) throw new KernelError(op, node.index, `expects 1 input, got ${node.inputs.length}`);
  const input = getInput(context, node, 0, op);
  expectType(op, node, 'input', input, UNPACK_TYPES);
  const options = node.builtinData as UnpackOptions | null;
  const rank = input.dims.length;
  if (rank < 1) throw new KernelError(op, node.index, 'input must have at least 1 dimension');
  const axis = resolveAxis(op, node, options?.axis ?? 0, rank);
  const count = node.outputs.length;
  const num = options?.num ?? count;
  if (num !== count) throw new KernelError(op, node.index, `num is ${num} but the node has ${count} outputs`);
  if (input.dims[axis] !== count)
    throw new KernelError(op, node.index, `axis ${axis} has size ${input.dims[axis]}, expected one per output (${count})`);
  const expected = Array.from(input.dims);
  expected.splice(axis, 1);
  const bounded = isDataDependent(input);
  for (let i = 0; i < count; i++) {
    const output = getOutput(context, node, i, op);
    requireSameTypeAs(op, node, output, `output ${i}`, input, 'input');
    setOutputShapeOrBound(op, context, node, i, expected, bounded);
  }
  return geometry(input, 0, axis, new Int32Array(count).fill(1), bounded);
}
