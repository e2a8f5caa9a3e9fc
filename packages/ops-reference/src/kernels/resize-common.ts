/**
 * Shared prepare of RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (TFLM kernels/resize_bilinear.cc,
 * resize_nearest_neighbor.cc): a 4-D NHWC input, a constant 1-D int32 `size` tensor [new_height,
 * new_width] (TFLM refuses a non-constant one), and an output of shape [batch, new_height, new_width,
 * depth] in the input's type.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, TfLiteContext } from '@micrort/core';
import { requireSameTypeAs, requireShape } from './data-common.js';
import { readConstantIndexTensor, shapeString } from './transpose-common.js';
import { expectType } from '@micrort/kernel-support';

/** The geometry of a resize node. */
export interface ResizeGeometry {
  type: TensorType;
  batches: number;
  inHeight: number;
  inWidth: number;
  depth: number;
  outHeight: number;
  outWidth: number;
}

/** Validates a resize node; `types` are the element types the kernel handles. */
export function prepareResize(op: string, context: TfLiteContext, node: Node, types: readonly TensorType[]): ResizeGeometry {
  checkArity(op, node, 2, 1);
  const input = getInput(context, node, 0, op);
  const size = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  if (input.dims.length !== 4) throw new KernelError(op, node.index, `input must be 4-D (NHWC), got shape ${shapeString(input.dims)}`);
  expectType(op, node, 'input', input, types);
  requireSameTypeAs(op, node, output, 'output', input, 'input');
  expectType(op, node, 'size', size, [TensorType.INT32]);
  if (size.dims.length !== 1 || size.dims[0] !== 2)
    throw new KernelError(
      op,
      node.index,
      `size must be a 1-D tensor of 2 values (new_height, new_width), got shape ${shapeString(size.dims)}`,
    );
  if (!size.isConstant)
    throw new KernelError(
      op,
      node.index,
      `size (tensor ${size.index}) must be constant: a non-constant size is not supported (as in TFLM)`,
    );
  const [outHeight, outWidth] = readConstantIndexTensor(size, op, node, 'size') as [number, number];
  if (!(outHeight > 0 && outWidth > 0)) throw new KernelError(op, node.index, `size [${outHeight}, ${outWidth}] must be positive`);
  const [batches, inHeight, inWidth, depth] = input.dims as unknown as [number, number, number, number];
  requireShape(op, node, output, 'output', [batches, outHeight, outWidth, depth]);
  return { type: input.type, batches, inHeight, inWidth, depth, outHeight, outWidth };
}
