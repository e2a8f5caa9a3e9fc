/**
 * Outputs whose size depends on the data (WHERE, UNIQUE, NON_MAX_SUPPRESSION_V4/V5 with a runtime
 * size, TOPK_V2 with a runtime k) and outputs whose shape is read from a runtime tensor with no bound
 * (RANGE, TILE, ONE_HOT… whose shape inputs are not constant): the one place where the kernels of
 * registrations/tflite-builtins.ts meet the graph layer's contract for such shapes (issue 20, item 1).
 *
 * A kernel with a data-dependent output calls, in prepare, `boundOutputShape` with the largest shape
 * it can prove (the arena plans that many elements) and keeps an `Int32Array` of the output's rank in
 * its op data; in invoke it fills the output and calls `setActualOutputShape` with the actual dims
 * written into that array (no allocation). A kernel that can prove no bound throws `noShapeBound`.
 *
 * Until core's dynamic shapes land, the contract is kept this way: the bound is stated through
 * `setOutputShape` (so the model's output must have the bound's shape, as the writer-made test models
 * do), invoke writes the actual result into the leading elements and zeroes the rest, and the actual
 * dims are kept in the kernel's op data (what `setActualOutputShape` receives) for the caller.
 * With core's `declareShapeBound` / `setActualShape`, these three functions become one-line calls of
 * kernel-support's `setOutputUpperBound`, `context.setActualShape` and `noUpperBound`.
 */
import { KernelError, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { setOutputShape } from '@micrort/kernel-support';

/**
 * Prepare: output `position` of `node` has a data-dependent shape of at most `maxDims` (its rank is
 * the output's). Returns the output tensor.
 */
export function boundOutputShape(op: string, context: TfLiteContext, node: Node, position: number, maxDims: ArrayLike<number>): Tensor {
  return setOutputShape(op, context, node, position, maxDims);
}

/**
 * Invoke: the actual dims of data-dependent output `position` for this invoke, in an Int32Array the
 * kernel keeps in its op data (same rank as the bound, each dimension at most the bound's). The kernel
 * has already zeroed the planned elements past the actual ones.
 */
export function setActualOutputShape(_context: TfLiteContext, _node: Node, _position: number, _dims: Int32Array): void {
  // Kept in the kernel's op data (the caller's `_dims`): core's setActualShape takes it from here.
}

/**
 * Prepare: output `position` depends on runtime values for which no upper bound follows from what
 * prepare knows; `reason` says why (e.g. `the multiples input is not constant`). Always throws.
 */
export function noShapeBound(op: string, context: TfLiteContext, node: Node, position: number, reason: string): never {
  const output = context.getTensor(node.outputs[position]!);
  const what = node.outputs.length > 1 ? `output ${position}` : 'output';
  throw new KernelError(
    op,
    node.index,
    `${what} (tensor ${output.index}, ${output.name || 'unnamed'}) has a shape that depends on data and no upper bound is known in prepare: ${reason}`,
  );
}
