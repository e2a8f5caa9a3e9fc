/**
 * Shared parts of REDUCE_MAX, REDUCE_MIN, REDUCE_ALL and SUM (tflite-micro kernels/reduce.cc,
 * reduce_common.cc; reference_ops::ReduceGeneric and QuantizedMeanOrSum): the axes of a constant int32
 * axis tensor (negative allowed, duplicates ignored) are resolved against an input of up to 5 dimensions,
 * and every input element, in row-major order, is folded into its output slot, which is exactly the order
 * TFLM's Reduce loop visits them (so float sums round the same way). MEAN shares the geometry
 * (`planReduce`) and the op-data size.
 *
 * TFLM's OpDataReduce (40 bytes, `OP_DATA_REDUCE_BYTES`) lives in the arena and is filled with TFLM's
 * fields; scratch requests follow TFLM's prepare of each op.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput, tensorTypeName } from '@micrort/core';
import type { Node, ReducerOptions, Registration, Tensor, TfLiteContext } from '@micrort/core';
import { type NumberArray, readConstantIndexTensor, shapeString } from './transpose-common.js';
import { followsInput0 } from './data-dependent-shape.js';
import {
  add64,
  compare64,
  copy64,
  expectType,
  isDataDependent,
  reducedShape,
  resolveReduceAxes,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';

/** TFLM's kMaxNumberOfAxis: the input rank limit of the reduce kernels. */
export const REDUCE_MAX_DIMS = 5;

/**
 * sizeof(OpDataReduce) in TFLM: int32 multiplier, shift, temp_buffer_idx, resolved_axis_idx, input_zp,
 * float input_scale, int32 output_zp, float output_scale, int32 num_output_elements, num_axis.
 */
export const OP_DATA_REDUCE_BYTES = 40;

/** How a reduction folds its input, chosen in prepare. */
export enum Reducer {
  Max,
  Min,
  /** Logical AND of bools. */
  All,
  /** Sum into a float32 output. */
  SumFloat,
  /** Wrapping int32 sum into a scratch buffer. */
  SumInt,
}

/** The geometry of a reduction, computed in prepare. */
export interface ReducePlan {
  /** Input dims front-padded with 1s to 5. */
  inDims: Int32Array;
  /** Per padded input axis: the stride in the output, 0 for reduced axes. */
  outStrides: Int32Array;
  numOutputs: number;
  inputElements: number;
  /** Input elements folded into each output. */
  count: number;
  /** Number of values in the axis tensor (TFLM's num_axis). */
  numAxis: number;
  /** Per padded input axis: 1 where it is reduced. */
  reduced: Uint8Array;
  /** The input's rank (before padding to 5) and keep_dims. */
  rank: number;
  keepDims: boolean;
  /**
   * Non-null when the input has a data-dependent shape (set by `followsReduce`): the output's dims at
   * this invoke, rewritten by `replanReduce`.
   */
  actualOutputDims: Int32Array | null;
}

/** The tensors and plan of a reduction node after the shared checks. */
export interface ReduceSetup {
  input: Tensor;
  axis: Tensor;
  output: Tensor;
  plan: ReducePlan;
}

/**
 * The shared prepare: 2 inputs and 1 output, input type in `types` and equal to the output's, input rank
 * at most 5, a constant int32 axis tensor, an output with the reduced element count (and the input's
 * rank when keep_dims is set).
 */
export function prepareReduce(op: string, context: TfLiteContext, node: Node, types: readonly TensorType[]): ReduceSetup {
  checkArity(op, node, 2, 1);
  const input = getInput(context, node, 0, op);
  const axis = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, types);
  if (output.type !== input.type)
    throw new KernelError(
      op,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  const rank = input.dims.length;
  if (rank > REDUCE_MAX_DIMS)
    throw new KernelError(op, node.index, `input has ${rank} dimensions, at most ${REDUCE_MAX_DIMS} are supported`);
  if (axis.type !== TensorType.INT32)
    throw new KernelError(op, node.index, `axis tensor ${axis.index} has type ${tensorTypeName(axis.type)}, expected int32`);
  const raw = readConstantIndexTensor(axis, op, node, 'axis');
  return { input, axis, output, plan: planReduce(op, context, node, input, output, raw) };
}

/**
 * The geometry of reducing `input` (at most REDUCE_MAX_DIMS dimensions) over the raw axis values `raw`,
 * with `output` resized to the reduced shape (setOutputShape). Axes resolve as
 * TFLite's ResolveAxis: negative ones count from the end, duplicates are ignored, a scalar input ignores
 * them all.
 */
export function planReduce(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  output: Tensor,
  raw: ArrayLike<number>,
): ReducePlan {
  const rank = input.dims.length;
  const { reduced, axes } = resolveReduceAxes(op, node, rank, raw);
  const keepDims = (node.builtinData as ReducerOptions | null)?.keepDims ?? false;
  const outShape = reducedShape(input.dims, reduced, keepDims);
  // a data-dependent input: the reduction of its bound bounds the output (followsReduce replans at invoke)
  setOutputShapeOrBound(op, context, node, 0, outShape, isDataDependent(input));
  const pad = REDUCE_MAX_DIMS - rank;
  const reducedPadded = new Uint8Array(REDUCE_MAX_DIMS);
  for (let d = 0; d < rank; d++) reducedPadded[pad + d] = reduced[d] ? 1 : 0;
  const inDims = new Int32Array(REDUCE_MAX_DIMS).fill(1);
  const outStrides = new Int32Array(REDUCE_MAX_DIMS);
  let stride = 1;
  let count = 1;
  for (let d = rank - 1; d >= 0; d--) {
    const dim = input.dims[d]!;
    inDims[pad + d] = dim;
    if (reduced[d]) count *= dim;
    else {
      outStrides[pad + d] = stride;
      stride *= dim;
    }
  }
  if (output.elementCount !== stride)
    throw new KernelError(
      op,
      node.index,
      `output shape ${shapeString(output.dims)} has ${output.elementCount} elements, reducing ${shapeString(input.dims)} over axes ${shapeString(axes)} gives ${stride}`,
    );
  if (keepDims && output.dims.length !== rank)
    throw new KernelError(op, node.index, `keep_dims is set but output shape ${shapeString(output.dims)} is not ${rank}-D`);
  return {
    inDims,
    outStrides,
    numOutputs: stride,
    inputElements: input.elementCount,
    count,
    numAxis: raw.length,
    reduced: reducedPadded,
    rank,
    keepDims,
    actualOutputDims: null,
  };
}

/**
 * Why a quantized REDUCE_PROD refuses a data-dependent input: its rescaling (the output scale to the
 * power 1/count, through QuantizeMultiplier) is fixed in prepare from the reduced count. (Quantized SUM
 * and MEAN recompute theirs at invoke.)
 */
export const QUANTIZED_REDUCE_REASON =
  'the quantized rescaling depends on the number of reduced elements, which prepare fixes (float32, int32 and int64 follow actual dims)';

/**
 * Invoke: recomputes `plan`'s geometry for the input dims `dims` (the actual dims of a data-dependent
 * input, of the planned rank) and the output's dims into `plan.actualOutputDims`. Allocates nothing.
 */
export function replanReduce(plan: ReducePlan, dims: ArrayLike<number>): void {
  const rank = plan.rank;
  const pad = REDUCE_MAX_DIMS - rank;
  const out = plan.actualOutputDims!;
  let stride = 1;
  let count = 1;
  let elements = 1;
  for (let d = rank - 1; d >= 0; d--) {
    const dim = dims[d]!;
    plan.inDims[pad + d] = dim;
    elements *= dim;
    if (plan.reduced[pad + d] === 1) {
      count *= dim;
      plan.outStrides[pad + d] = 0;
    } else {
      plan.outStrides[pad + d] = stride;
      stride *= dim;
    }
  }
  let j = 0;
  for (let d = 0; d < rank; d++) {
    if (plan.reduced[pad + d] === 0) out[j++] = dims[d]!;
    else if (plan.keepDims) out[j++] = 1;
  }
  plan.numOutputs = stride;
  plan.count = count;
  plan.inputElements = elements;
}

/**
 * A reduction kernel over a `ReducePlan` (`planOf` finds it in the op data) made a consumer of
 * data-dependent shapes: when input 0 has a data-dependent shape, prepare (whose `planReduce` bounded
 * the output by the reduction of the input's bound) marks the plan, unless `refuse` gives a reason (a
 * quantized rescaling computed in prepare from the reduced count: `DataDependentShapeError`); every
 * invoke then replans from the input's actual dims (`replanReduce`), sets the output's actual dims and
 * calls `sync` (for op data that copied plan fields) before the kernel's own invoke. Allocates nothing.
 */
export function followsReduce<T>(
  reg: Registration<T>,
  planOf: (data: T) => ReducePlan | null,
  hooks: { refuse?: (data: T) => string | null; sync?: (data: T, plan: ReducePlan) => void } = {},
): Registration<T> {
  return followsInput0(reg, 'reduce plan', planOf, replanReduce, hooks);
}

/** Writes the shape fields of TFLM's OpDataReduce (num_output_elements, num_axis) into the block of `init`. */
export function writeReduceShapeFields(block: DataView, plan: ReducePlan): void {
  block.setInt32(32, plan.numOutputs, true);
  block.setInt32(36, plan.numAxis, true);
}

/** Fills `out[0 .. n)` with `value`. */
export function fillOutputs(out: NumberArray, n: number, value: number): void {
  for (let i = 0; i < n; i++) out[i] = value;
}

/**
 * Folds every input element into `out[outputIndex]` in row-major input order with `reducer` (TFLM's
 * Reduce loop). `out` must hold the initial values. For SumFloat `out` is a Float32Array (each partial
 * sum rounds to float32 as in C); for SumInt an Int32Array of wrapping sums.
 */
export function foldInput(plan: ReducePlan, reducer: Reducer, input: NumberArray, out: NumberArray): void {
  const n = plan.inDims;
  const s = plan.outStrides;
  const n0 = n[0]!,
    n1 = n[1]!,
    n2 = n[2]!,
    n3 = n[3]!,
    n4 = n[4]!;
  const s0 = s[0]!,
    s1 = s[1]!,
    s2 = s[2]!,
    s3 = s[3]!,
    s4 = s[4]!;
  let p = 0;
  for (let i0 = 0; i0 < n0; i0++)
    for (let i1 = 0; i1 < n1; i1++)
      for (let i2 = 0; i2 < n2; i2++)
        for (let i3 = 0; i3 < n3; i3++) {
          let o = i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3;
          switch (reducer) {
            case Reducer.Max:
              for (let i4 = 0; i4 < n4; i4++, o += s4) {
                const v = input[p++]!;
                if (v > out[o]!) out[o] = v;
              }
              break;
            case Reducer.Min:
              for (let i4 = 0; i4 < n4; i4++, o += s4) {
                const v = input[p++]!;
                if (v < out[o]!) out[o] = v;
              }
              break;
            case Reducer.All:
              for (let i4 = 0; i4 < n4; i4++, o += s4) out[o] = input[p++] !== 0 && out[o] !== 0 ? 1 : 0;
              break;
            case Reducer.SumFloat:
              for (let i4 = 0; i4 < n4; i4++, o += s4) out[o] = out[o]! + input[p++]!;
              break;
            case Reducer.SumInt:
              for (let i4 = 0; i4 < n4; i4++, o += s4) out[o] = (out[o]! + input[p++]!) | 0;
              break;
          }
        }
}

/** Op data of REDUCE_MAX / REDUCE_MIN / REDUCE_ALL / SUM: TFLM's OpDataReduce block plus the plan. */
export interface ReduceOpData {
  block: DataView;
  plan: ReducePlan | null;
  reducer: Reducer;
  /** The value outputs start from (the reducer's identity). */
  initial: number;
  /** int64 input: folded on int32 words. */
  int64?: boolean;
}

/**
 * `foldInput` for int64 (TFLite's int64 reductions): `input` and `out` are int32 word views (two words
 * per element), `out` holds the initial values; Max/Min compare, SumInt adds with wrap-around.
 */
export function foldInputInt64(plan: ReducePlan, reducer: Reducer, input: Int32Array, out: Int32Array): void {
  const n = plan.inDims;
  const s = plan.outStrides;
  let p = 0;
  for (let i0 = 0; i0 < n[0]!; i0++)
    for (let i1 = 0; i1 < n[1]!; i1++)
      for (let i2 = 0; i2 < n[2]!; i2++)
        for (let i3 = 0; i3 < n[3]!; i3++) {
          let o = i0 * s[0]! + i1 * s[1]! + i2 * s[2]! + i3 * s[3]!;
          for (let i4 = 0; i4 < n[4]!; i4++, o += s[4]!, p += 2) {
            const w = 2 * o;
            if (reducer === Reducer.SumInt) add64(out, w, out, w, input, p);
            else if (reducer === Reducer.Max ? compare64(input, p, out, w) > 0 : compare64(input, p, out, w) < 0) copy64(out, w, input, p);
          }
        }
}

/** Fills `n` int64 outputs (word view) with the value whose words are `lo`, `hi`. */
export function fillOutputsInt64(out: Int32Array, n: number, lo: number, hi: number): void {
  for (let i = 0; i < n; i++) {
    out[2 * i] = lo;
    out[2 * i + 1] = hi;
  }
}
