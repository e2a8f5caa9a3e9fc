/**
 * DEPTH_TO_SPACE and SPACE_TO_DEPTH (TFLM kernels/depth_to_space.cc, space_to_depth.cc;
 * reference_ops::DepthToSpace / SpaceToDepth): the node checks, the output shape, and the 6-D view under
 * which each rearrangement is one transpose, for every kernel package that runs them.
 *
 * Both move whole elements only, so any kernel that moves bytes in the right order is exact:
 * - DEPTH_TO_SPACE: out[b][h][w][c] = in[b][h / bs][w / bs][((h % bs) * bs + w % bs) * outDepth + c].
 *   The input viewed as [N, H, W, bs, bs, C / bs²] transposed by {@link BLOCK_REARRANGE_PERM} is
 *   [N, H, bs, W, bs, C / bs²], the output [N, H·bs, W·bs, C / bs²].
 * - SPACE_TO_DEPTH: out[b][h / bs][w / bs][((h % bs) * bs + w % bs) * inDepth + c] = in[b][h][w][c].
 *   The input viewed as [N, H / bs, bs, W / bs, bs, C] transposed by the same perm is
 *   [N, H / bs, W / bs, bs, bs, C], the output [N, H / bs, W / bs, bs²·C].
 */
import { KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { DepthToSpaceOptions, Node, SpaceToDepthOptions, Tensor, TfLiteContext } from '@micrort/core';
import { expectSameType, expectType, shapeText } from './checks.js';
import { setOutputShape } from './output-shape.js';

/** The types TFLite takes (TFLM: float32 and int8; int16 is refused by both). */
export const BLOCK_REARRANGE_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT32,
  TensorType.INT64,
];

/** Which of the two rearrangements. */
export type BlockRearrangeKind = 'depthToSpace' | 'spaceToDepth';

/** A prepared DEPTH_TO_SPACE or SPACE_TO_DEPTH node's geometry (NHWC). */
export interface BlockRearrange {
  kind: BlockRearrangeKind;
  input: Tensor;
  output: Tensor;
  blockSize: number;
  batch: number;
  inHeight: number;
  inWidth: number;
  inDepth: number;
  outHeight: number;
  outWidth: number;
  outDepth: number;
}

/**
 * Checks a DEPTH_TO_SPACE (`kind` 'depthToSpace') or SPACE_TO_DEPTH node (one 4-D input of
 * {@link BLOCK_REARRANGE_TYPES}, an output of its type, block_size > 0; the depth a multiple of block_size²,
 * or the height and width multiples of block_size) and sets its output shape. Throws KernelError or
 * TensorTypeError naming the sizes.
 */
export function prepareBlockRearrange(op: string, kind: BlockRearrangeKind, context: TfLiteContext, node: Node): BlockRearrange {
  checkArity(op, node, 1, 1);
  const input = getInput(context, node, 0, op);
  const output = getOutput(context, node, 0, op);
  if (input.dims.length !== 4) throw new KernelError(op, node.index, `input must be 4-D (NHWC), got shape ${shapeText(input.dims)}`);
  expectType(op, node, 'input', input, BLOCK_REARRANGE_TYPES);
  expectSameType(op, node, 'input and output', input, output);
  const blockSize = (node.builtinData as DepthToSpaceOptions | SpaceToDepthOptions | null)?.blockSize ?? 0;
  if (!(blockSize > 0)) throw new KernelError(op, node.index, `block_size must be > 0, got ${blockSize}`);
  const [batch, inHeight, inWidth, inDepth] = input.dims as unknown as [number, number, number, number];
  let outHeight: number, outWidth: number, outDepth: number;
  if (kind === 'depthToSpace') {
    if (inDepth % (blockSize * blockSize) !== 0)
      throw new KernelError(op, node.index, `input depth ${inDepth} is not a multiple of block_size^2 = ${blockSize * blockSize}`);
    outHeight = inHeight * blockSize;
    outWidth = inWidth * blockSize;
    outDepth = inDepth / (blockSize * blockSize);
  } else {
    if (inHeight % blockSize !== 0 || inWidth % blockSize !== 0)
      throw new KernelError(op, node.index, `input height ${inHeight} and width ${inWidth} must be multiples of block_size ${blockSize}`);
    outHeight = inHeight / blockSize;
    outWidth = inWidth / blockSize;
    outDepth = inDepth * blockSize * blockSize;
  }
  setOutputShape(op, context, node, 0, [batch, outHeight, outWidth, outDepth]);
  return { kind, input, output, blockSize, batch, inHeight, inWidth, inDepth, outHeight, outWidth, outDepth };
}

/** The transpose both rearrangements are, on the 6-D views of {@link blockRearrangeDims}: axes 2 and 3 swap. */
export const BLOCK_REARRANGE_PERM: readonly number[] = [0, 1, 3, 2, 4, 5];

/** The input's 6-D view under which the rearrangement is the transpose {@link BLOCK_REARRANGE_PERM}. */
export function blockRearrangeDims(g: BlockRearrange): number[] {
  const bs = g.blockSize;
  return g.kind === 'depthToSpace'
    ? [g.batch, g.inHeight, g.inWidth, bs, bs, g.outDepth]
    : [g.batch, g.outHeight, bs, g.outWidth, bs, g.inDepth];
}
