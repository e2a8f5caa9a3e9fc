/**
 * Output shapes computed in prepare (TFLite's Prepare → `context->ResizeTensor`). A kernel states the
 * shape of each output it computed from its inputs' shapes and options through `setOutputShape`,
 * instead of trusting the shape stored in the file: that is the one place where micrort decides what to
 * do with a file's shape, so kernels need no change when that decision grows (shapes the file leaves
 * unknown — empty or `-1` — resolved before planning).
 *
 * Today's rule: the tensor's shape must equal the computed one; a difference is a `TensorShapeError`
 * naming both shapes.
 */
import { type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { TensorShapeError, shapeText } from './checks.js';

/** True when `a` and `b` hold the same dimensions. */
export function sameDims(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Sets output `position` of `node` to `dims`, the shape the kernel computed in prepare, and returns the
 * output tensor. Throws a `TensorShapeError` when the model's tensor has another shape.
 */
export function setOutputShape(op: string, context: TfLiteContext, node: Node, position: number, dims: ArrayLike<number>): Tensor {
  const output = context.getTensor(node.outputs[position]!);
  if (!sameDims(output.dims, dims)) {
    const what = node.outputs.length > 1 ? `output ${position}` : 'output';
    throw new TensorShapeError(
      op,
      node.index,
      what,
      output.index,
      Array.from(output.dims),
      `${what} (tensor ${output.index}) has shape ${shapeText(output.dims)}; the inputs give ${shapeText(dims)}`,
    );
  }
  return output;
}
