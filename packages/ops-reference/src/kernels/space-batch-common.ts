/**
 * Shared prepare of BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND (TFLM kernels/batch_to_space_nd.cc,
 * space_to_batch_nd.cc; reference_ops::BatchToSpaceND / SpaceToBatchND): 3-D (NHC, treated as NH1C) or
 * 4-D (NHWC) tensors, a constant int32 block shape (one value per spatial dimension) and constant int32
 * crops / paddings ([spatial, 2]). TFLM reads these operands at eval; micrort needs them in prepare to
 * check the output shape, so they must be constant.
 */
import { KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Tensor, TfLiteContext } from '@micrort/core';
import { requireSameTypeAs } from './data-common.js';
import { type ElementLayout, elementLayout, readConstantIndexTensor, shapeString } from './transpose-common.js';
import { expectType } from '@micrort/kernel-support';

/** Both kernels as NHWC loops (a 3-D tensor has width 1). */
export interface SpaceBatchOpData {
  layout: ElementLayout;
  inBatch: number;
  inHeight: number;
  inWidth: number;
  depth: number;
  outBatch: number;
  outHeight: number;
  outWidth: number;
  blockHeight: number;
  blockWidth: number;
  /** crops (BATCH_TO_SPACE_ND) or paddings (SPACE_TO_BATCH_ND) before the first element: top, left. */
  top: number;
  left: number;
}

/** [N, H, W, C] of a 3-D (NHC → NH1C) or 4-D tensor. */
function nhwc(t: Tensor): [number, number, number, number] {
  const d = t.dims;
  return d.length === 4 ? [d[0]!, d[1]!, d[2]!, d[3]!] : [d[0]!, d[1]!, 1, d[2]!];
}

/**
 * Validates a node of either op (`toBatch`: SPACE_TO_BATCH_ND, whose third input is `paddings`; else
 * BATCH_TO_SPACE_ND with `crops`) and returns its loop data. The output shape must be the one the block
 * shape and crops/paddings give.
 */
export function prepareSpaceBatch(
  op: string,
  context: TfLiteContext,
  node: Node,
  types: readonly TensorType[],
  what: 'crops' | 'paddings',
  toBatch: boolean,
): SpaceBatchOpData {
  checkArity(op, node, 3, 1);
  const input = getInput(context, node, 0, op);
  const blockTensor = getInput(context, node, 1, op);
  const amountTensor = getInput(context, node, 2, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, types);
  requireSameTypeAs(op, node, output, 'output', input, 'input');
  const rank = input.dims.length;
  if (rank < 3 || rank > 4) throw new KernelError(op, node.index, `input must be 3-D or 4-D, got shape ${shapeString(input.dims)}`);
  if (output.dims.length !== rank)
    throw new KernelError(op, node.index, `output has shape ${shapeString(output.dims)}, expected ${rank} dimensions like the input`);
  const spatial = rank - 2;
  expectType(op, node, 'block_shape', blockTensor, [TensorType.INT32]);
  expectType(op, node, what, amountTensor, [TensorType.INT32]);
  if (blockTensor.elementCount !== spatial)
    throw new KernelError(op, node.index, `block_shape has shape ${shapeString(blockTensor.dims)}, expected [${spatial}]`);
  if (amountTensor.elementCount !== spatial * 2)
    throw new KernelError(op, node.index, `${what} has shape ${shapeString(amountTensor.dims)}, expected [${spatial}, 2]`);
  const block = readConstantIndexTensor(blockTensor, op, node, 'block_shape');
  const amounts = readConstantIndexTensor(amountTensor, op, node, what);
  for (let i = 0; i < spatial; i++) {
    if (block[i]! < 1) throw new KernelError(op, node.index, `block_shape[${i}] is ${block[i]}, must be >= 1`);
    if (amounts[2 * i]! < 0 || amounts[2 * i + 1]! < 0)
      throw new KernelError(
        op,
        node.index,
        `${what} of spatial dimension ${i} are [${amounts[2 * i]}, ${amounts[2 * i + 1]}], must be non-negative`,
      );
  }
  const [inBatch, inHeight, inWidth, depth] = nhwc(input);
  const [outBatch, outHeight, outWidth] = nhwc(output);
  const blockHeight = block[0]!;
  const blockWidth = spatial === 2 ? block[1]! : 1;
  const blocks = blockHeight * blockWidth;
  const inSpatial = [inHeight, inWidth];
  const expected: number[] = [];
  if (toBatch) {
    expected.push(inBatch * blocks);
    for (let i = 0; i < spatial; i++) {
      const padded = inSpatial[i]! + amounts[2 * i]! + amounts[2 * i + 1]!;
      if (padded % block[i]! !== 0)
        throw new KernelError(
          op,
          node.index,
          `padded spatial dimension ${i} (${padded}) is not a multiple of block_shape[${i}] = ${block[i]}`,
        );
      expected.push(padded / block[i]!);
    }
  } else {
    if (inBatch % blocks !== 0)
      throw new KernelError(op, node.index, `input batch ${inBatch} is not a multiple of the block size product ${blocks}`);
    expected.push(inBatch / blocks);
    for (let i = 0; i < spatial; i++) {
      const size = inSpatial[i]! * block[i]! - amounts[2 * i]! - amounts[2 * i + 1]!;
      if (size < 0)
        throw new KernelError(op, node.index, `crops of spatial dimension ${i} remove more than its ${inSpatial[i]! * block[i]!} elements`);
      expected.push(size);
    }
  }
  expected.push(depth);
  if (expected.some((v, i) => v !== output.dims[i]))
    throw new KernelError(op, node.index, `output has shape ${shapeString(output.dims)}, expected ${shapeString(expected)}`);
  return {
    layout: elementLayout(input.type, op, node),
    inBatch,
    inHeight,
    inWidth,
    depth,
    outBatch,
    outHeight,
    outWidth,
    blockHeight,
    blockWidth,
    top: amounts[0]!,
    left: spatial === 2 ? amounts[2]! : 0,
  };
}
