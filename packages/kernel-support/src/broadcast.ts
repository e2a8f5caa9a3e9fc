/**
 * Broadcast plans of the binary elementwise ops (ADD, SUB, MUL, DIV, comparisons, ...), computed once in
 * prepare: the numpy/TFLite broadcast of two shapes (TFLite's NdArrayDesc / ProcessBroadcastShapes),
 * collapsed so that every kernel walks as few, as long runs as possible. `broadcastGroups` is the shape
 * analysis every package shares; `BroadcastPlan` walks it without allocating (the JavaScript kernels);
 * a package with its own loop structure (WebAssembly, GPU shaders) lays the groups out as it needs.
 */
import { KernelError, numElements, type Node, type Tensor } from '@micrort/core';

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
 * How a binary elementwise op walks its two inputs and its output, computed once in prepare from
 * `broadcastGroups`. The output is walked in order as `rows` runs of `inner` elements; within a run input
 * k advances by `innerStrideK` (0 when it is broadcast along the run, else 1). Between runs `next()`
 * moves `off1`/`off2`/`offOut` to the start of the next run without allocating:
 *
 * ```ts
 * plan.reset();
 * for (let r = 0; r < plan.rows; r++) {
 *   let i1 = plan.off1, i2 = plan.off2;
 *   for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) out[o] = f(a[i1], b[i2]);
 *   plan.next();
 * }
 * ```
 */
export class BroadcastPlan {
  /** Element count of the output. */
  readonly outputSize: number;
  /** Length of one contiguous output run. */
  readonly inner: number;
  /** Step of input 1 within a run (0 or 1). */
  readonly innerStride1: number;
  /** Step of input 2 within a run (0 or 1). */
  readonly innerStride2: number;
  /** Number of runs. */
  readonly rows: number;
  /** Whether an input is actually broadcast (false: plain elementwise over equal shapes). */
  readonly requiresBroadcast: boolean;
  /** The broadcast output shape (rank = the larger input rank). */
  readonly shape: Int32Array;
  /** Start of the current run in input 1. */
  off1 = 0;
  /** Start of the current run in input 2. */
  off2 = 0;
  /** Start of the current run in the output. */
  offOut = 0;

  private readonly outerDims: Int32Array;
  private readonly outerStride1: Int32Array;
  private readonly outerStride2: Int32Array;
  private readonly counter: Int32Array;

  private constructor(b: BroadcastShape) {
    this.shape = b.shape;
    this.requiresBroadcast = b.requiresBroadcast;
    this.outputSize = numElements(b.shape);
    // element strides of each group in each input (0 where the input is broadcast)
    const strides: { size: number; s1: number; s2: number }[] = [];
    let stride1 = 1;
    let stride2 = 1;
    for (const g of b.groups) {
      strides.push({ size: g.size, s1: g.has1 ? stride1 : 0, s2: g.has2 ? stride2 : 0 });
      if (g.has1) stride1 *= g.size;
      if (g.has2) stride2 *= g.size;
    }
    const innermost = strides[0];
    let outer = strides.slice(1);
    if (this.outputSize === 0 || innermost === undefined) {
      // an empty output, or a single element (every dimension is 1)
      this.inner = this.outputSize === 0 ? 0 : 1;
      this.innerStride1 = 0;
      this.innerStride2 = 0;
      this.rows = this.outputSize === 0 ? 0 : 1;
      outer = [];
    } else {
      this.inner = innermost.size;
      this.innerStride1 = innermost.s1;
      this.innerStride2 = innermost.s2;
      this.rows = this.outputSize / innermost.size;
    }
    const n = outer.length;
    this.outerDims = new Int32Array(n);
    this.outerStride1 = new Int32Array(n);
    this.outerStride2 = new Int32Array(n);
    this.counter = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.outerDims[i] = outer[i]!.size;
      this.outerStride1[i] = outer[i]!.s1;
      this.outerStride2[i] = outer[i]!.s2;
    }
  }

  /** Plans the broadcast of `dims1` with `dims2`; the reason as a string when they do not broadcast. */
  static create(dims1: ArrayLike<number>, dims2: ArrayLike<number>): BroadcastPlan | string {
    const b = broadcastGroups(dims1, dims2);
    return typeof b === 'string' ? b : new BroadcastPlan(b);
  }

  /** Rewinds to the first run. */
  reset(): void {
    this.off1 = 0;
    this.off2 = 0;
    this.offOut = 0;
    const c = this.counter;
    for (let i = 0; i < c.length; i++) c[i] = 0;
  }

  /** Moves to the next run. */
  next(): void {
    this.offOut += this.inner;
    const c = this.counter;
    const dims = this.outerDims;
    for (let d = 0; d < c.length; d++) {
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
