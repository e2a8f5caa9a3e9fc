/**
 * MaxUnpooling2D (MediaPipe mediapipe/util/tflite/operations/max_unpooling.cc): the inverse of
 * MaxPoolingWithArgmax2D, float32 only. Every input value is written back to the position its index
 * names inside its filter window; the rest of the output is zero.
 *
 * Inputs: 0 values [N, H, W, C], 1 indices [N, H, W, C] (as MaxPoolingWithArgmax2D writes them: float
 * `y * filter_w + x + 0.1`). Output: [N, H * filter_h, W * filter_w, C].
 * Options: a `TfLitePoolParams` struct (see pooling-common.ts); the activation is read but, as in
 * MediaPipe, not applied.
 *
 * An index is truncated toward zero like C's float-to-int conversion; one whose destination falls
 * outside the output is skipped (MediaPipe's bounds check), and so is one that is not a finite number
 * in int32 range (undefined behaviour in C).
 */
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkFloat32Node, checkShape, float32Supports } from './mediapipe-common.js';
import { PAD_HEIGHT, PAD_WIDTH, allocatePaddingValues, readPoolParams } from './pooling-common.js';
import { computePadding, expectRank, opData } from '@micrort/kernel-support';

const OP = 'MaxUnpooling2D';
const INPUT = 0;
const INDICES = 1;
const INT32_LIMIT = 2147483648;

interface MaxUnpoolingData {
  /** MediaPipe's op data (TfLitePaddingValues), in the arena. */
  padding: Int32Array;
  batches: number;
  inHeight: number;
  inWidth: number;
  depth: number;
  outHeight: number;
  outWidth: number;
  strideHeight: number;
  strideWidth: number;
  filterWidth: number;
}

const supports = float32Supports(2, 1);

function init(context: TfLiteContext): MaxUnpoolingData {
  return {
    padding: allocatePaddingValues(context),
    batches: 0,
    inHeight: 0,
    inWidth: 0,
    depth: 0,
    outHeight: 0,
    outWidth: 0,
    strideHeight: 1,
    strideWidth: 1,
    filterWidth: 1,
  };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<MaxUnpoolingData>(OP, node);
  checkFloat32Node(OP, context, node, 2, 1);
  const input = context.getTensor(node.inputs[INPUT]!);
  const indices = context.getTensor(node.inputs[INDICES]!);
  const output = context.getTensor(node.outputs[0]!);
  expectRank(OP, node, 'input', input, 4);
  checkShape(OP, node, 'indices', indices, input.dims);
  const p = readPoolParams(OP, node);
  d.batches = input.dims[0]!;
  d.inHeight = input.dims[1]!;
  d.inWidth = input.dims[2]!;
  d.depth = input.dims[3]!;
  d.outHeight = d.inHeight * p.filterHeight;
  d.outWidth = d.inWidth * p.filterWidth;
  checkShape(OP, node, 'output', output, [d.batches, d.outHeight, d.outWidth, d.depth]);
  // MediaPipe pads as if the output were pooled down to the input: ComputePadding(stride, 1, out, filter, in).
  d.padding[PAD_HEIGHT] = computePadding(p.strideHeight, 1, d.outHeight, p.filterHeight, d.inHeight);
  d.padding[PAD_WIDTH] = computePadding(p.strideWidth, 1, d.outWidth, p.filterWidth, d.inWidth);
  d.strideHeight = p.strideHeight;
  d.strideWidth = p.strideWidth;
  d.filterWidth = p.filterWidth;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<MaxUnpoolingData>(OP, node);
  const input = context.getEvalTensor(node.inputs[INPUT]!).data as Float32Array;
  const indices = context.getEvalTensor(node.inputs[INDICES]!).data as Float32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { batches, inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterWidth } = d;
  const padHeight = d.padding[PAD_HEIGHT]!;
  const padWidth = d.padding[PAD_WIDTH]!;
  output.fill(0);
  let i = 0;
  for (let b = 0; b < batches; b++) {
    const outBatch = b * outHeight * outWidth * depth;
    for (let iy = 0; iy < inHeight; iy++) {
      for (let ix = 0; ix < inWidth; ix++) {
        for (let c = 0; c < depth; c++, i++) {
          const v = indices[i]!;
          if (!(v > -INT32_LIMIT && v < INT32_LIMIT)) continue;
          const idx = Math.trunc(v);
          const maxX = idx % filterWidth;
          const maxY = Math.trunc(idx / filterWidth);
          const ox = ix * strideWidth - padWidth + maxX;
          const oy = iy * strideHeight - padHeight + maxY;
          if (ox >= 0 && ox < outWidth && oy >= 0 && oy < outHeight) output[outBatch + (oy * outWidth + ox) * depth + c] = input[i]!;
        }
      }
    }
  }
}

/** MaxUnpooling2D, version 1. */
export const MAX_UNPOOLING_2D: Registration<MaxUnpoolingData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports,
  init,
  prepare,
  invoke,
};
