/**
 * MaxPoolingWithArgmax2D (MediaPipe mediapipe/util/tflite/operations/max_pool_argmax.cc): 2-D max
 * pooling that also outputs where each maximum was, float32 only.
 *
 * Input: 0 [N, H, W, C]. Outputs: 0 pooled values, 1 indices, both [N, OH, OW, C] with OH =
 * ceil(H / stride_h) for SAME padding and (H - filter_h + stride_h) / stride_h for VALID (likewise OW).
 * Options: a `TfLitePoolParams` struct (see pooling-common.ts).
 *
 * Each index is the position of the (first) maximum inside its filter window, `y * filter_w + x`, stored
 * as a float plus 0.1 so that truncating it back to int is safe; windows are clamped to the input, so
 * padding never wins. The pooled value is clamped to the fused activation's range.
 */
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkFloat32Node, checkShape, float32Supports } from './mediapipe-common.js';
import { PAD_HEIGHT, PAD_WIDTH, activationRange, allocatePaddingValues, poolPadding, readPoolParams } from './pooling-common.js';
import { computeOutSize, computePadding, expectRank, FLT_MAX, opData } from '@micrort/kernel-support';

const OP = 'MaxPoolingWithArgmax2D';
/** 0.1f, the offset MediaPipe adds to every index. */
const INDEX_OFFSET = Math.fround(0.1);

interface MaxPoolArgmaxData {
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
  filterHeight: number;
  filterWidth: number;
  actMin: number;
  actMax: number;
}

const supports = float32Supports(1, 2);

function init(context: TfLiteContext): MaxPoolArgmaxData {
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
    filterHeight: 1,
    filterWidth: 1,
    actMin: -FLT_MAX,
    actMax: FLT_MAX,
  };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<MaxPoolArgmaxData>(OP, node);
  checkFloat32Node(OP, context, node, 1, 2);
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const indices = context.getTensor(node.outputs[1]!);
  expectRank(OP, node, 'input', input, 4);
  const p = readPoolParams(OP, node);
  d.batches = input.dims[0]!;
  d.inHeight = input.dims[1]!;
  d.inWidth = input.dims[2]!;
  d.depth = input.dims[3]!;
  d.outHeight = computeOutSize(poolPadding(p), d.inHeight, p.filterHeight, p.strideHeight);
  d.outWidth = computeOutSize(poolPadding(p), d.inWidth, p.filterWidth, p.strideWidth);
  const shape = [d.batches, d.outHeight, d.outWidth, d.depth];
  checkShape(OP, node, 'output', output, shape);
  checkShape(OP, node, 'indices output', indices, shape);
  d.padding[PAD_HEIGHT] = computePadding(p.strideHeight, 1, d.inHeight, p.filterHeight, d.outHeight);
  d.padding[PAD_WIDTH] = computePadding(p.strideWidth, 1, d.inWidth, p.filterWidth, d.outWidth);
  d.strideHeight = p.strideHeight;
  d.strideWidth = p.strideWidth;
  d.filterHeight = p.filterHeight;
  d.filterWidth = p.filterWidth;
  [d.actMin, d.actMax] = activationRange(p.activation);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<MaxPoolArgmaxData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const indices = context.getEvalTensor(node.outputs[1]!).data as Float32Array;
  const { batches, inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth, actMin, actMax } =
    d;
  const padHeight = d.padding[PAD_HEIGHT]!;
  const padWidth = d.padding[PAD_WIDTH]!;
  let out = 0;
  for (let b = 0; b < batches; b++) {
    const inBatch = b * inHeight * inWidth * depth;
    for (let oy = 0; oy < outHeight; oy++) {
      const inYOrigin = oy * strideHeight - padHeight;
      const fy0 = Math.max(0, -inYOrigin);
      const fy1 = Math.min(filterHeight, inHeight - inYOrigin);
      for (let ox = 0; ox < outWidth; ox++) {
        const inXOrigin = ox * strideWidth - padWidth;
        const fx0 = Math.max(0, -inXOrigin);
        const fx1 = Math.min(filterWidth, inWidth - inXOrigin);
        for (let c = 0; c < depth; c++, out++) {
          let max = -FLT_MAX;
          let maxX = 0;
          let maxY = 0;
          for (let fy = fy0; fy < fy1; fy++) {
            const row = inBatch + (inYOrigin + fy) * inWidth * depth;
            for (let fx = fx0; fx < fx1; fx++) {
              const v = input[row + (inXOrigin + fx) * depth + c]!;
              if (v > max) {
                max = v;
                maxX = fx;
                maxY = fy;
              }
            }
          }
          output[out] = max < actMin ? actMin : max > actMax ? actMax : max;
          indices[out] = Math.fround(maxY * filterWidth + maxX + INDEX_OFFSET);
        }
      }
    }
  }
}

/** MaxPoolingWithArgmax2D, version 1. */
export const MAX_POOLING_WITH_ARGMAX_2D: Registration<MaxPoolArgmaxData> = {
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
