/**
 * Broadcast plans of the binary elementwise ops (ADD, SUB, MUL, DIV, comparisons, ...), computed once in
 * prepare: the numpy/TFLite broadcast of two shapes (TFLite's NdArrayDesc / ProcessBroadcastShapes),
 * collapsed so that every kernel walks as few, as long runs as possible. `broadcastGroups` is the shape
 * analysis every package shares; `BroadcastPlan` walks it without allocating (the JavaScript kernels);
 * a package with its own loop structure (WebAssembly, GPU shaders) lays the groups out as it needs.
 */
import { KernelError, numElements, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { isDataDependent, setOutputShapeOrBound } from './output-shape.js';

/** Right-aligns `dims` to `rank` dimensions by prepending 1s (RuntimeShape::ExtendedShape). */
export function extendShape(dims: ArrayLike<number>, rank: number): Int32Array {
  const out = new Int32Array(rank).fill(1);
  const pad = rank - dims.length;
  for (let i = 0; i < dims.length; i++) out[pad + i] = dims[i]!;
  return out;
}

/** A run of neighbouring output dimensions along which each input either advances or is repeated. */
export interface BroadcastGroup {
  /** Output elements the group spans (the product of its dimensions). */
  size: number;
  /** Whether input 1 has these dimensions (false: it is broadcast along them). */
  has1: boolean;
  has2: boolean;
}

/** The broadcast of two shapes: the output shape and its dimension groups. */
export interface BroadcastShape {
  /** The broadcast output shape (rank = the larger input rank). */
  shape: Int32Array;
  /** Whether an input is actually broadcast (false: equal shapes, up to leading 1s). */
  requiresBroadcast: boolean;
  /**
   * Innermost first: output dimensions of size 1 dropped, neighbours that both inputs treat alike merged.
   * Empty when the output has one element or none.
   */
  groups: BroadcastGroup[];
}

/**
 * Broadcasts `dims1` with `dims2` (right-aligned; each dimension equal, or 1 in one of them). Returns the
 * reason as a string when they do not broadcast.
 */
export function broadcastGroups(dims1: ArrayLike<number>, dims2: ArrayLike<number>): BroadcastShape | string {
  const rank = Math.max(dims1.length, dims2.length);
  const e1 = extendShape(dims1, rank);
  const e2 = extendShape(dims2, rank);
  const shape = new Int32Array(rank);
  let requiresBroadcast = false;
  for (let i = 0; i < rank; i++) {
    const a = e1[i]!;
    const b = e2[i]!;
    if (a === b) shape[i] = a;
    else if (a === 1 || b === 1) {
      shape[i] = a === 1 ? b : a;
      requiresBroadcast = true;
    } else
      return `shapes [${Array.from(dims1).join(',')}] and [${Array.from(dims2).join(',')}] cannot be broadcast (dimension ${i} of the right-aligned shapes: ${a} vs ${b})`;
  }
  const groups: BroadcastGroup[] = [];
  for (let i = rank - 1; i >= 0; i--) {
    const size = shape[i]!;
    if (size === 1) continue;
    const has1 = e1[i] !== 1;
    const has2 = e2[i] !== 1;
    const last = groups[groups.length - 1];
    if (last && last.has1 === has1 && last.has2 === has2) last.size *= size;
    else groups.push({ size, has1, has2 });
  }
  return { shape, requiresBroadcast, groups };
}

/**
 * How a binary elementwise op walks its two inputs and its output, computed in prepare from the
 * inputs' shapes (the groups of `broadcastGroups`). The output is walked in order as `rows` runs of
 * `inner` elements; within a run input k advances by `innerStrideK` (0 when it is broadcast along the
 * run, else 1). Between runs `next()` moves `off1`/`off2`/`offOut` to the start of the next run without
 * allocating:
 *
 * ```ts
 * plan.reset();
 * for (let r = 0; r < plan.rows; r++) {
 *   let i1 = plan.off1, i2 = plan.off2;
 *   for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) out[o] = f(a[i1], b[i2]);
 *   plan.next();
 * }
 * ```
 *
 * The plan owns preallocated storage for its rank, so `replan` recomputes it for other dims of the same
 * ranks at invoke without allocating: a binary op whose input has a data-dependent shape replans from
 * the inputs' actual dims at every invoke (`followBroadcastShapes`) and walks the same object.
 */
export class BroadcastPlan {
  /** Element count of the output. */
  outputSize = 0;
  /** Length of one contiguous output run. */
  inner = 0;
  /** Step of input 1 within a run (0 or 1). */
  innerStride1 = 0;
  /** Step of input 2 within a run (0 or 1). */
  innerStride2 = 0;
  /** Number of runs. */
  rows = 0;
  /** Whether an input is actually broadcast (false: plain elementwise over equal shapes). */
  requiresBroadcast = false;
  /** The broadcast output shape (rank = the larger input rank); rewritten in place by `replan`. */
  readonly shape: Int32Array;
  /** Start of the current run in input 1. */
  off1 = 0;
  /** Start of the current run in input 2. */
  off2 = 0;
  /** Start of the current run in the output. */
  offOut = 0;
  /**
   * Set in prepare (`followActualShapes`) when an input has a data-dependent shape: invoke must replan
   * from the actual dims before walking. Null otherwise.
   */
  actualOutputDims: Int32Array | null = null;

  /** Outer groups in use (innermost outer group first). */
  private outer = 0;
  private readonly outerDims: Int32Array;
  private readonly outerStride1: Int32Array;
  private readonly outerStride2: Int32Array;
  private readonly counter: Int32Array;
  /** Scratch of `replan`: group sizes and which inputs have them (bit 1: input 1, bit 2: input 2). */
  private readonly groupSize: Int32Array;
  private readonly groupHas: Int32Array;

  private constructor(rank: number) {
    this.shape = new Int32Array(rank);
    this.outerDims = new Int32Array(rank);
    this.outerStride1 = new Int32Array(rank);
    this.outerStride2 = new Int32Array(rank);
    this.counter = new Int32Array(rank);
    this.groupSize = new Int32Array(rank);
    this.groupHas = new Int32Array(rank);
  }

  /** Plans the broadcast of `dims1` with `dims2`; the reason as a string when they do not broadcast. */
  static create(dims1: ArrayLike<number>, dims2: ArrayLike<number>): BroadcastPlan | string {
    const plan = new BroadcastPlan(Math.max(dims1.length, dims2.length));
    const error = plan.replan(dims1, dims2);
    return error === null ? plan : error;
  }

  /**
   * Recomputes the plan for `dims1` and `dims2`, whose larger rank must be the plan's (the actual dims
   * of data-dependent inputs keep their rank). Allocates nothing unless they do not broadcast: then the
   * reason as a string (the plan is left unusable until a successful replan), else null.
   */
  replan(dims1: ArrayLike<number>, dims2: ArrayLike<number>): string | null {
    const rank = this.shape.length;
    const r1 = dims1.length;
    const r2 = dims2.length;
    if ((r1 > r2 ? r1 : r2) !== rank) return `ranks ${r1} and ${r2} do not match the plan's rank ${rank}`;
    const pad1 = rank - r1;
    const pad2 = rank - r2;
    const shape = this.shape;
    let requiresBroadcast = false;
    let outputSize = 1;
    for (let i = 0; i < rank; i++) {
      const a = i < pad1 ? 1 : dims1[i - pad1]!;
      const b = i < pad2 ? 1 : dims2[i - pad2]!;
      if (a === b) shape[i] = a;
      else if (a === 1 || b === 1) {
        shape[i] = a === 1 ? b : a;
        requiresBroadcast = true;
      } else
        return `shapes [${Array.from(dims1).join(',')}] and [${Array.from(dims2).join(',')}] cannot be broadcast (dimension ${i} of the right-aligned shapes: ${a} vs ${b})`;
      outputSize *= shape[i]!;
    }
    this.requiresBroadcast = requiresBroadcast;
    this.outputSize = outputSize;
    // groups, innermost first: size-1 output dimensions dropped, neighbours both inputs treat alike merged
    const gSize = this.groupSize;
    const gHas = this.groupHas;
    let groups = 0;
    for (let i = rank - 1; i >= 0; i--) {
      const size = shape[i]!;
      if (size === 1) continue;
      const has = ((i < pad1 ? 1 : dims1[i - pad1]!) !== 1 ? 1 : 0) | ((i < pad2 ? 1 : dims2[i - pad2]!) !== 1 ? 2 : 0);
      if (groups > 0 && gHas[groups - 1] === has) gSize[groups - 1]! *= size;
      else {
        gSize[groups] = size;
        gHas[groups] = has;
        groups++;
      }
    }
    this.outer = 0;
    if (outputSize === 0 || groups === 0) {
      // an empty output, or a single element (every dimension is 1)
      this.inner = outputSize === 0 ? 0 : 1;
      this.innerStride1 = 0;
      this.innerStride2 = 0;
      this.rows = outputSize === 0 ? 0 : 1;
    } else {
      // element strides of each group in each input (0 where the input is broadcast)
      let stride1 = 1;
      let stride2 = 1;
      for (let g = 0; g < groups; g++) {
        const size = gSize[g]!;
        const has = gHas[g]!;
        const s1 = (has & 1) !== 0 ? stride1 : 0;
        const s2 = (has & 2) !== 0 ? stride2 : 0;
        if (g === 0) {
          this.inner = size;
          this.innerStride1 = s1;
          this.innerStride2 = s2;
        } else {
          this.outerDims[g - 1] = size;
          this.outerStride1[g - 1] = s1;
          this.outerStride2[g - 1] = s2;
        }
        if ((has & 1) !== 0) stride1 *= size;
        if ((has & 2) !== 0) stride2 *= size;
      }
      this.outer = groups - 1;
      this.rows = outputSize / this.inner;
    }
    return null;
  }

  /** Rewinds to the first run. */
  reset(): void {
    this.off1 = 0;
    this.off2 = 0;
    this.offOut = 0;
    const c = this.counter;
    for (let i = 0; i < this.outer; i++) c[i] = 0;
  }

  /** Moves to the next run. */
  next(): void {
    this.offOut += this.inner;
    const c = this.counter;
    const dims = this.outerDims;
    for (let d = 0; d < this.outer; d++) {
      const s1 = this.outerStride1[d]!;
      const s2 = this.outerStride2[d]!;
      this.off1 += s1;
      this.off2 += s2;
      if (++c[d]! < dims[d]!) return;
      c[d] = 0;
      this.off1 -= s1 * dims[d]!;
      this.off2 -= s2 * dims[d]!;
    }
  }

  /**
   * Prepare: the plan will follow the actual dims of data-dependent inputs at invoke
   * (`followBroadcastShapes`); `outputRank` is the output's rank (the plan's, or fewer when the output
   * drops leading 1s).
   */
  followActualShapes(outputRank: number): void {
    this.actualOutputDims = new Int32Array(outputRank);
  }
}

/**
 * Invoke: replans `plan` (see `BroadcastPlan.followActualShapes`) from the actual dims of inputs
 * `position1` and `position2` of `node` and sets the actual dims of output `outputPosition` to the
 * broadcast shape — the data-dependent path of a binary elementwise op. Does nothing for a plan that does
 * not follow actual shapes. Allocates nothing; `KernelError` naming both inputs when their actual dims do
 * not broadcast (as TFLite's ResizeTensor at Eval fails), before anything is written.
 */
export function followBroadcastShapes(
  op: string,
  context: TfLiteContext,
  node: Node,
  plan: BroadcastPlan,
  position1 = 0,
  position2 = 1,
  outputPosition = 0,
): void {
  const out = plan.actualOutputDims;
  if (out === null) return;
  const i1 = node.inputs[position1]!;
  const i2 = node.inputs[position2]!;
  const error = plan.replan(context.getEvalTensor(i1).dims, context.getEvalTensor(i2).dims);
  if (error !== null)
    throw new KernelError(op, node.index, `input ${position1 + 1} (tensor ${i1}) and input ${position2 + 1} (tensor ${i2}): ${error}`);
  const shape = plan.shape;
  const skip = shape.length - out.length;
  for (let i = 0; i < out.length; i++) out[i] = shape[skip + i]!;
  context.setActualShape(node.outputs[outputPosition]!, out);
}

/**
 * The output shape of a binary elementwise op (TFLite's ProcessBroadcastShapes): input 1's shape when
 * the inputs have the same shape, else their broadcast (right-aligned, each dimension equal or 1 in one
 * of them). Throws a KernelError naming both inputs when they do not broadcast.
 */
export function binaryOutputShape(op: string, node: Node, input1: Tensor, input2: Tensor): Int32Array {
  const b = broadcastGroups(input1.dims, input2.dims);
  if (typeof b === 'string')
    throw new KernelError(op, node.index, `input 1 (tensor ${input1.index}) and input 2 (tensor ${input2.index}): ${b}`);
  return b.shape;
}

/**
 * Sets output `position` of a binary elementwise op to `binaryOutputShape` (setOutputShape) and returns
 * it. When an input has a data-dependent shape, that shape (computed from the inputs' bounds) is the
 * output's upper bound (`setOutputShapeOrBound`): any actual dims within the inputs' bounds broadcast to
 * dims within it.
 */
export function setBinaryOutputShape(op: string, context: TfLiteContext, node: Node, input1: Tensor, input2: Tensor, position = 0): Tensor {
  const bounded = isDataDependent(input1) || isDataDependent(input2);
  return setOutputShapeOrBound(op, context, node, position, binaryOutputShape(op, node, input1, input2), bounded);
}

/**
 * Plans a binary elementwise op in prepare: checks that the inputs broadcast, that the output has the
 * broadcast shape (or, without broadcasting, the same element count, as TFLM's MatchingElementsSize) and
 * that broadcasting stays within `maxBroadcastRank` dimensions (TFLM's NdArrayDesc size for the op).
 */
export function planBinary(
  op: string,
  node: Node,
  input1: Tensor,
  input2: Tensor,
  output: Tensor,
  maxBroadcastRank: number,
): BroadcastPlan {
  const plan = BroadcastPlan.create(input1.dims, input2.dims);
  if (typeof plan === 'string')
    throw new KernelError(op, node.index, `input 1 (tensor ${input1.index}) and input 2 (tensor ${input2.index}): ${plan}`);
  const outCount = numElements(output.dims);
  if (plan.requiresBroadcast) {
    const rank = Math.max(plan.shape.length, output.dims.length);
    if (rank > maxBroadcastRank)
      throw new KernelError(op, node.index, `broadcasting supports at most ${maxBroadcastRank} dimensions, got rank ${rank}`);
    const a = extendShape(plan.shape, rank);
    const b = extendShape(output.dims, rank);
    for (let i = 0; i < rank; i++)
      if (a[i] !== b[i])
        throw new KernelError(
          op,
          node.index,
          `output (tensor ${output.index}) has shape [${output.dims.join(',')}], expected the broadcast shape [${plan.shape.join(',')}]`,
        );
  } else if (outCount !== plan.outputSize) {
    throw new KernelError(op, node.index, `output (tensor ${output.index}) has ${outCount} elements, inputs have ${plan.outputSize}`);
  }
  return plan;
}

/** Whether `b`'s output shape is `out` (right-aligned, leading 1s ignored on either side). */
export function broadcastsTo(b: BroadcastShape, out: ArrayLike<number>): boolean {
  const rank = Math.max(b.shape.length, out.length);
  const x = extendShape(b.shape, rank);
  const y = extendShape(out, rank);
  for (let i = 0; i < rank; i++) if (x[i] !== y[i]) return false;
  return true;
}
