/**
 * Prepare-time helpers of the Coral kernels: checks that throw `KernelError`s naming the tensor, its
 * index and shape (FlexBuffers options come from kernel-support's `readFlexOptions`).
 */
import { KernelError, type Node, type Tensor } from '@micrort/core';
import { shapeText } from '@micrort/kernel-support';

/** `heatmaps (tensor 3)` for messages. */
export function label(what: string, t: Tensor): string {
  return `${what} (tensor ${t.index})`;
}

/** Throws unless `t` has `rank` dimensions. */
export function checkRank(op: string, node: Node, what: string, t: Tensor, rank: number): void {
  if (t.dims.length !== rank)
    throw new KernelError(op, node.index, `${label(what, t)} must have ${rank} dimensions, has shape ${shapeText(t.dims)}`);
}

/** Throws unless dimension `axis` of `t` is `expected`; `why` says where the number comes from. */
export function checkDim(op: string, node: Node, what: string, t: Tensor, axis: number, expected: number, why: string): void {
  if (t.dims[axis] !== expected)
    throw new KernelError(
      op,
      node.index,
      `${label(what, t)} has shape ${shapeText(t.dims)}: dimension ${axis} must be ${expected} (${why}), is ${t.dims[axis]}`,
    );
}

/** Throws unless `t`'s shape is `expected` (the shape the C++ kernel resizes it to; micrort's shapes are static). */
export function checkShape(op: string, node: Node, what: string, t: Tensor, expected: ArrayLike<number>, why: string): void {
  let same = t.dims.length === expected.length;
  for (let i = 0; same && i < expected.length; i++) same = t.dims[i] === expected[i];
  if (!same)
    throw new KernelError(op, node.index, `${label(what, t)} has shape ${shapeText(t.dims)}, expected ${shapeText(expected)} (${why})`);
}
