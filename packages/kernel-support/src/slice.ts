/**
 * SLICE and STRIDED_SLICE (TFLM kernels/slice.cc, strided_slice.cc + strided_slice_common.cc;
 * reference_ops::Slice and StridedSlice, strided_slice_logic.h): the node checks, the output shape and the
 * slice itself as a first index, a step and a count per input axis ({@link SliceAxes}, front-padded to
 * five axes), for every kernel package that runs them. Both only move whole elements, so any kernel that
 * copies the selected elements in row-major output order is exact.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput, tensorTypeName } from '@micrort/core';
import type { EvalTensor, Node, StridedSliceOptions, Tensor, TfLiteContext } from '@micrort/core';
import { expectType, shapeText } from './checks.js';
import { int64At, readConstantIndexTensor, requireSameTypeAs } from './constant-index.js';
import { isDataDependent, refuseDataDependentInput, setOutputShapeOrBound } from './output-shape.js';

/** TFLM's kMaxDim of SLICE, and the rank STRIDED_SLICE's reference loop runs at (StridedSlicePadIndices). */
export const SLICE_MAX_DIMS = 5;

/**
 * Every element type with a fixed size that TFLite's generic data-movement kernels take (they move
 * elements by their size): the float, integer, bool and complex types.
 */
export const FIXED_SIZE_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.FLOAT16,
  TensorType.FLOAT64,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.UINT16,
  TensorType.INT32,
  TensorType.UINT32,
  TensorType.INT64,
  TensorType.UINT64,
  TensorType.BOOL,
  TensorType.COMPLEX64,
];

/**
 * A slice of a tensor of up to {@link SLICE_MAX_DIMS} axes, front-padded to that many (a padded axis:
 * start 0, step 1, count 1): the output is, in row-major order, the input elements
 * `[starts[a] + i_a · steps[a]]` for `i_a < counts[a]` on every axis `a`.
 */
export interface SliceAxes {
  /** First input index along each axis. */
  readonly starts: Int32Array;
  /** Step along each axis (non-zero, negative walks backwards). */
  readonly steps: Int32Array;
  /** Number of positions visited along each axis. */
  readonly counts: Int32Array;
}

/** A slice of {@link SLICE_MAX_DIMS} axes that selects one element (starts 0, steps 1, counts 1). */
export function newSliceAxes(): SliceAxes {
  return {
    starts: new Int32Array(SLICE_MAX_DIMS),
    steps: new Int32Array(SLICE_MAX_DIMS).fill(1),
    counts: new Int32Array(SLICE_MAX_DIMS).fill(1),
  };
}

// ---------------------------------------------------------------------------------------------- SLICE

/** SLICE's checked tensors. */
export interface SliceNode {
  input: Tensor;
  begin: Tensor;
  size: Tensor;
  output: Tensor;
  rank: number;
  /** begin and size are int64 (else int32). */
  int64: boolean;
}

/**
 * Checks a SLICE node (3 inputs, 1 output; the input of `types`, the output of its type, begin and size
 * int32 or int64 of one type, one entry per input axis, at most {@link SLICE_MAX_DIMS} axes). Throws
 * KernelError or TensorTypeError.
 */
export function checkSliceNode(op: string, context: TfLiteContext, node: Node, types: readonly TensorType[]): SliceNode {
  checkArity(op, node, 3, 1);
  const input = getInput(context, node, 0, op);
  const begin = getInput(context, node, 1, op);
  const size = getInput(context, node, 2, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, types);
  requireSameTypeAs(op, node, output, 'output', input, 'input');
  expectType(op, node, 'begin', begin, [TensorType.INT32, TensorType.INT64]);
  requireSameTypeAs(op, node, size, 'size', begin, 'begin');
  const rank = input.dims.length;
  if (rank > SLICE_MAX_DIMS) throw new KernelError(op, node.index, `input has ${rank} dimensions, at most ${SLICE_MAX_DIMS} are supported`);
  for (const [t, what] of [
    [begin, 'begin'],
    [size, 'size'],
  ] as const)
    if (t.dims.length !== 1 || t.dims[0] !== rank)
      throw new KernelError(op, node.index, `${what} has shape ${shapeText(t.dims)}, expected [${rank}] (one entry per input dimension)`);
  return { input, begin, size, output, rank, int64: begin.type === TensorType.INT64 };
}

/**
 * Fills `axes` (starts and counts; steps stay 1) of a SLICE of a rank-`rank` tensor whose dims, padded to
 * {@link SLICE_MAX_DIMS}, are `inDims` from the begin and size values (size -1: to the end of the axis);
 * returns null, or what is wrong, as TFLM's GetValidatedBeginAndSizeVectors rejects it (begin outside
 * [0, dim], a resolved size outside [0, dim - begin]; with `checkCount`, a selected element count other
 * than `outCount`). Allocates nothing but the message.
 */
export function resolveSlice(
  axes: SliceAxes,
  inDims: ArrayLike<number>,
  rank: number,
  begin: Pick<EvalTensor, 'bytes' | 'data'>,
  size: Pick<EvalTensor, 'bytes' | 'data'>,
  int64: boolean,
  outCount: number,
  checkCount: boolean,
): string | null {
  const shift = SLICE_MAX_DIMS - rank;
  let elements = 1;
  for (let i = 0; i < rank; i++) {
    const b = int64 ? int64At(begin.bytes, i) : (begin.data as Int32Array)[i]!;
    const s = int64 ? int64At(size.bytes, i) : (size.data as Int32Array)[i]!;
    const dim = inDims[shift + i]!;
    if (b < 0 || b > dim) return `begin[${i}] = ${b} is outside [0, ${dim}]`;
    const remaining = dim - b;
    const resolved = s === -1 ? remaining : s;
    if (resolved < 0 || resolved > remaining) return `size[${i}] = ${s} is outside [0, ${remaining}] (begin ${b}, dimension ${dim})`;
    axes.starts[shift + i] = b;
    axes.counts[shift + i] = resolved;
    elements *= resolved;
  }
  return !checkCount || elements === outCount ? null : `begin and size select ${elements} elements, the output holds ${outCount}`;
}

// -------------------------------------------------------------------------------------- STRIDED_SLICE

function clamp(v: number, lo: number, hi: number): number {
  return hi < v ? hi : v < lo ? lo : v;
}

/** TFLite's StridedSliceStartForAxis: the first index along an axis of size `size`. */
export function stridedSliceStart(begin: number, stride: number, size: number, beginMask: boolean): number {
  let start = begin;
  if (start < 0) start += size;
  start = stride > 0 ? clamp(start, 0, size) : clamp(start, -1, size - 1);
  if (beginMask) start = stride > 0 ? 0 : size - 1;
  return start;
}

/** TFLite's StridedSliceEndForAxis: the exclusive stop along an axis (start + 1 for a shrunk axis). */
export function stridedSliceStop(
  end: number,
  stride: number,
  size: number,
  start: number,
  endMask: boolean,
  shrink: boolean,
  offset: boolean,
): number {
  if (shrink) return start >= size ? start : start + 1;
  let stop = end;
  if (offset) stop += start;
  if (stop < 0) stop += size;
  stop = stride > 0 ? clamp(stop, 0, size) : clamp(stop, -1, size - 1);
  if (endMask) stop = stride > 0 ? size : -1;
  return stop;
}

/** Iterations of `for (i = start; stride > 0 ? i < stop : i > stop; i += stride)`. */
export function stridedSliceCount(start: number, stop: number, stride: number): number {
  const n = stride > 0 ? Math.ceil((stop - start) / stride) : Math.ceil((start - stop) / -stride);
  return n > 0 ? n : 0;
}

/** A STRIDED_SLICE's constant operands and options (ellipsis and new-axis masks are not applied, as TFLM). */
export interface StridedSliceSpec {
  begin: Int32Array;
  end: Int32Array;
  strides: Int32Array;
  beginMask: number;
  endMask: number;
  shrinkMask: number;
  offset: boolean;
}

/**
 * Fills `axes` (front-padded to {@link SLICE_MAX_DIMS}) with the slice `spec` selects from a tensor of
 * dims `dims`, and `shape[0…]` with the counts of the axes not shrunk (the output's shape). Returns -1,
 * or the first axis whose stride is 0 or whose shrink selects other than one element
 * ({@link stridedSliceError} says which). Allocates nothing.
 */
export function resolveStridedSlice(
  spec: StridedSliceSpec,
  dims: ArrayLike<number>,
  axes: SliceAxes,
  shape: { [i: number]: number },
): number {
  const rank = dims.length;
  const pad = SLICE_MAX_DIMS - rank;
  let j = 0;
  for (let axis = 0; axis < rank; axis++) {
    const stride = spec.strides[axis]!;
    if (stride === 0) return axis;
    const size = dims[axis]!;
    const shrink = (spec.shrinkMask & (1 << axis)) !== 0;
    const start = stridedSliceStart(spec.begin[axis]!, stride, size, (spec.beginMask & (1 << axis)) !== 0);
    const stop = stridedSliceStop(spec.end[axis]!, stride, size, start, (spec.endMask & (1 << axis)) !== 0, shrink, spec.offset);
    const count = stridedSliceCount(start, stop, stride);
    axes.starts[pad + axis] = start;
    axes.steps[pad + axis] = stride;
    axes.counts[pad + axis] = count;
    if (shrink && count !== 1) return axis;
    if (!shrink) shape[j++] = count;
  }
  return -1;
}

/** The KernelError for the axis {@link resolveStridedSlice} returned (`atInvoke`: the dims are a data-dependent input's at this invoke). */
export function stridedSliceError(
  op: string,
  node: Node,
  spec: StridedSliceSpec,
  dims: ArrayLike<number>,
  axes: SliceAxes,
  axis: number,
  atInvoke: boolean,
): KernelError {
  const stride = spec.strides[axis]!;
  if (stride === 0) return new KernelError(op, node.index, `strides[${axis}] is 0; stride value has to be non-zero`);
  const count = axes.counts[SLICE_MAX_DIMS - dims.length + axis]!;
  const size = dims[axis]!;
  return new KernelError(
    op,
    node.index,
    atInvoke
      ? `shrunk axis ${axis} selects ${count} elements at this invoke (size ${size}); it must select exactly 1`
      : `shrunk axis ${axis} selects ${count} elements (begin ${spec.begin[axis]}, stride ${stride}, size ${size}); it must select exactly 1`,
  );
}

/** A prepared STRIDED_SLICE node. */
export interface StridedSlice {
  input: Tensor;
  output: Tensor;
  spec: StridedSliceSpec;
  /** The slice of the input (of its bound, when `bounded`). */
  axes: SliceAxes;
  /** The output's shape (the counts of the axes not shrunk). */
  shape: number[];
  /** The input is data-dependent: the output is bounded by `shape`, the slice follows its actual dims. */
  bounded: boolean;
  /** ellipsis_mask or new_axis_mask is set (not applied, as TFLM: the file's output shape must be the slice's). */
  masks: boolean;
}

/**
 * Checks a STRIDED_SLICE node (4 inputs, 1 output of the input's type, at most {@link SLICE_MAX_DIMS}
 * axes, constant int32/int64 begin, end and strides of one entry per axis, no zero stride, each shrunk axis
 * selecting one element), resolves the slice and sets the output's shape (its bound for a data-dependent
 * input, refused with ellipsis_mask / new_axis_mask or strings; with those masks the file's shape is
 * checked instead). `checkInput` runs after the type check (ops-reference: the element layout).
 */
export function prepareStridedSlice(op: string, context: TfLiteContext, node: Node, checkInput?: (input: Tensor) => void): StridedSlice {
  checkArity(op, node, 4, 1);
  const input = getInput(context, node, 0, op);
  const beginT = getInput(context, node, 1, op);
  const endT = getInput(context, node, 2, op);
  const stridesT = getInput(context, node, 3, op);
  const output = getOutput(context, node, 0, op);
  const params = (node.builtinData as StridedSliceOptions | null) ?? null;
  const rank = input.dims.length;
  if (rank > SLICE_MAX_DIMS) throw new KernelError(op, node.index, `input has ${rank} dimensions, at most ${SLICE_MAX_DIMS} are supported`);
  if (output.type !== input.type)
    throw new KernelError(
      op,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  checkInput?.(input);
  const begin = readConstantIndexTensor(beginT, op, node, 'begin');
  const end = readConstantIndexTensor(endT, op, node, 'end');
  const strides = readConstantIndexTensor(stridesT, op, node, 'strides');
  for (const [name, v] of [
    ['begin', begin],
    ['end', end],
    ['strides', strides],
  ] as const)
    if (v.length !== rank) throw new KernelError(op, node.index, `${name} has ${v.length} elements, the input has ${rank} dimensions`);
  const spec: StridedSliceSpec = {
    begin: Int32Array.from(begin),
    end: Int32Array.from(end),
    strides: Int32Array.from(strides),
    beginMask: params?.beginMask ?? 0,
    endMask: params?.endMask ?? 0,
    shrinkMask: params?.shrinkAxisMask ?? 0,
    offset: params?.offset ?? false,
  };
  const axes = newSliceAxes();
  const shape: number[] = [];
  const bad = resolveStridedSlice(spec, input.dims, axes, shape);
  if (bad >= 0) throw stridedSliceError(op, node, spec, input.dims, axes, bad, false);
  const masks = (params?.ellipsisMask ?? 0) !== 0 || (params?.newAxisMask ?? 0) !== 0;
  const bounded = isDataDependent(input);
  if (bounded && (masks || input.type === TensorType.STRING))
    refuseDataDependentInput(op, context, node, 0, `${op} follows one without ellipsis_mask / new_axis_mask, of a type other than string`);
  // The slice's shape is the output's (TFLite's Prepare); with the masks micrort does not apply, the file's
  // shape must already be it (as TFLM checks). Of a data-dependent input, it is the bound.
  if (!masks) setOutputShapeOrBound(op, context, node, 0, shape, bounded);
  else if (shape.length !== output.dims.length || shape.some((v, i) => v !== output.dims[i]))
    throw new KernelError(
      op,
      node.index,
      `output shape ${shapeText(output.dims)} does not match the slice shape ${shapeText(shape)}` +
        ' (ellipsis_mask and new_axis_mask are not supported, as in TFLM)',
    );
  return { input, output, spec, axes, shape, bounded, masks };
}
