/**
 * The geometry of REDUCE_PROD and REDUCE_ANY (TFLite reduce.cc): a constant int32 axis tensor resolved
 * against the input (negative axes count from the end, duplicates ignored), the output shape with or
 * without `keep_dims` set through `setOutputShape`, and a walk that visits, output by output, the input
 * elements folded into it in row-major order — the order in which TFLite's Reduce (reference and
 * optimized) folds each output, so float products and TFLite's rescaled quantized products come out the
 * same.
 */
import {
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type ReducerOptions,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import {
  expectSameType,
  expectType,
  isDataDependent,
  reducedShape,
  resolveReduceAxes,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';
import { followsInput0, noShapeBound } from './data-dependent-shape.js';
import { constantInts } from './tflite-ops-common.js';

/** Where each output's elements are: outputs in row-major order, their elements by `reduced` offsets. */
export interface ReduceWalk {
  numOutputs: number;
  /** Elements folded into each output. */
  count: number;
  /** Kept dimensions (outer to inner) and their input strides. */
  keptDims: Int32Array;
  keptStrides: Int32Array;
  /** Input offset of each of an output's `count` elements, in row-major order. */
  reduced: Int32Array;
  /** Counter over the kept dimensions (invoke's). */
  counter: Int32Array;
  /** Per input axis: 1 where it is reduced; keep_dims. */
  reducedAxes: Uint8Array;
  keepDims: boolean;
  /** Scratch of `replanWalk`: the input's strides. */
  strides: Int32Array;
  /** Non-null when the input has a data-dependent shape (`followsWalk`): the output's dims at this invoke. */
  actualOutputDims: Int32Array | null;
}

/** The shared prepare: 2 inputs, 1 output of the input's type, constant int32 axes; returns the input and the walk. */
export function prepareReduceWalk(
  op: string,
  context: TfLiteContext,
  node: Node,
  types: readonly TensorType[],
): { input: Tensor; output: Tensor; walk: ReduceWalk } {
  checkArity(op, node, 2, 1);
  const input = getInput(context, node, 0, op);
  const axisTensor = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, types);
  expectSameType(op, node, 'input and output', input, output);
  expectType(op, node, 'axis', axisTensor, [TensorType.INT32]);
  const raw = constantInts(op, node, axisTensor, 'axis');
  if (raw === null) noShapeBound(op, context, node, 0, 'the axis input is not constant');
  const rank = input.dims.length;
  const { reduced } = resolveReduceAxes(op, node, rank, raw);
  const keepDims = (node.builtinData as ReducerOptions | null)?.keepDims ?? false;
  const outDims = reducedShape(input.dims, reduced, keepDims);
  setOutputShapeOrBound(op, context, node, 0, outDims, isDataDependent(input));
  const strides = new Array<number>(rank);
  for (let d = rank - 1, s = 1; d >= 0; d--) {
    strides[d] = s;
    s *= input.dims[d]!;
  }
  const kept = [...Array(rank).keys()].filter((d) => !reduced[d]);
  const red = [...Array(rank).keys()].filter((d) => reduced[d]);
  let count = 1;
  for (const d of red) count *= input.dims[d]!;
  const offsets = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    let rem = i;
    let at = 0;
    for (let k = red.length - 1; k >= 0; k--) {
      const d = red[k]!;
      at += (rem % input.dims[d]!) * strides[d]!;
      rem = Math.floor(rem / input.dims[d]!);
    }
    offsets[i] = at;
  }
  let numOutputs = 1;
  for (const d of kept) numOutputs *= input.dims[d]!;
  return {
    input,
    output,
    walk: {
      numOutputs,
      count,
      keptDims: Int32Array.from(kept, (d) => input.dims[d]!),
      keptStrides: Int32Array.from(kept, (d) => strides[d]!),
      reduced: offsets,
      counter: new Int32Array(kept.length),
      reducedAxes: Uint8Array.from(reduced, (r) => (r ? 1 : 0)),
      keepDims,
      strides: new Int32Array(rank),
      actualOutputDims: null,
    },
  };
}

/**
 * Invoke: recomputes walk `w` for the input dims `dims` (the actual dims of a data-dependent input, of
 * the planned rank, each within the bound the offsets were sized for) and the output's dims into
 * `w.actualOutputDims`. Allocates nothing.
 */
export function replanWalk(w: ReduceWalk, dims: ArrayLike<number>): void {
  const rank = dims.length;
  const reduced = w.reducedAxes;
  const strides = w.strides;
  for (let d = rank - 1, s = 1; d >= 0; d--) {
    strides[d] = s;
    s *= dims[d]!;
  }
  let count = 1;
  let numOutputs = 1;
  let k = 0;
  let j = 0;
  const out = w.actualOutputDims!;
  for (let d = 0; d < rank; d++) {
    if (reduced[d] === 1) {
      count *= dims[d]!;
      if (w.keepDims) out[j++] = 1;
    } else {
      numOutputs *= dims[d]!;
      w.keptDims[k] = dims[d]!;
      w.keptStrides[k++] = strides[d]!;
      out[j++] = dims[d]!;
    }
  }
  const offsets = w.reduced;
  for (let i = 0; i < count; i++) {
    let rem = i;
    let at = 0;
    for (let d = rank - 1; d >= 0; d--) {
      if (reduced[d] !== 1) continue;
      const size = dims[d]!;
      const q = (rem / size) | 0;
      at += (rem - q * size) * strides[d]!;
      rem = q;
    }
    offsets[i] = at;
  }
  w.count = count;
  w.numOutputs = numOutputs;
}

/**
 * A reduction kernel over a `ReduceWalk` (`walkOf` finds it in the op data) made a consumer of
 * data-dependent shapes, as reduce-common's `followsReduce`: prepare bounds the output by the reduction
 * of the input's bound and marks the walk (unless `refuse` gives a reason: `DataDependentShapeError`);
 * every invoke replans from the input's actual dims and sets the output's actual dims first.
 */
export function followsWalk<T>(
  reg: Registration<T>,
  walkOf: (data: T) => ReduceWalk | null,
  refuse?: (data: T) => string | null,
): Registration<T> {
  return followsInput0(reg, 'reduce walk', walkOf, replanWalk, refuse ? { refuse } : {});
}

/** Rewinds the walk's counter; returns the input offset of output 0. */
export function walkStart(w: ReduceWalk): number {
  w.counter.fill(0);
  return 0;
}

/** Moves the walk's counter to the next output; returns that output's input offset. */
export function walkNext(w: ReduceWalk, base: number): number {
  const c = w.counter;
  for (let k = c.length - 1; k >= 0; k--) {
    base += w.keptStrides[k]!;
    if (++c[k]! < w.keptDims[k]!) return base;
    base -= w.keptStrides[k]! * w.keptDims[k]!;
    c[k] = 0;
  }
  return base;
}
