/**
 * MAX_POOL_2D (TFLM kernels/pooling.cc; reference_ops::MaxPool for float32 and TFLite's uint8,
 * reference_integer_ops::MaxPool for int8/int16). NHWC; only the part of each window inside the input
 * is considered; the result is clamped to the fused activation range. In-place variant: one channel at a
 * time through a one-channel scratch buffer (pooling-in-place.ts).
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { type PoolingOpData, initPooling, preparePooling } from './pooling-common.js';
import type { NumberArray } from './transpose-common.js';
import { maxPoolChannel, poolInPlace, poolInPlaceVariant, poolScratch, usePoolInPlaceVariant } from './pooling-in-place.js';
import { FLT_MAX, opData } from '@micrort/kernel-support';

const OP = 'MAX_POOL_2D';

function prepare(context: TfLiteContext, node: Node): void {
  preparePooling(OP, context, node);
}

/**
 * Max over each window, starting from `initial` (the type's lowest value), then clamped to [lo, hi].
 * Comparison `v > max` keeps the current maximum when v is NaN, as std::max does. The float bounds are
 * read here from `d`, not passed in: a double passed to a call V8 did not inline is boxed.
 */
function maxPool(d: PoolingOpData, input: NumberArray, output: NumberArray, initial: number): void {
  const float = d.type === TensorType.FLOAT32;
  const lo = float ? d.actMinF : d.actMin;
  const hi = float ? d.actMaxF : d.actMax;
  const { batches, inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth } = d;
  let o = 0;
  for (let b = 0; b < batches; b++) {
    const batchBase = b * inHeight;
    for (let oy = 0; oy < outHeight; oy++) {
      const inY0 = oy * strideHeight - d.padding.height;
      const fyStart = inY0 < 0 ? -inY0 : 0;
      const fyEnd = Math.min(filterHeight, inHeight - inY0);
      for (let ox = 0; ox < outWidth; ox++) {
        const inX0 = ox * strideWidth - d.padding.width;
        const fxStart = inX0 < 0 ? -inX0 : 0;
        const fxEnd = Math.min(filterWidth, inWidth - inX0);
        for (let c = 0; c < depth; c++) {
          let max = initial;
          for (let fy = fyStart; fy < fyEnd; fy++) {
            let p = ((batchBase + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
            for (let fx = fxStart; fx < fxEnd; fx++, p += depth) {
              const v = input[p]!;
              if (v > max) max = v;
            }
          }
          output[o++] = max < lo ? lo : max > hi ? hi : max;
        }
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<PoolingOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data as unknown as NumberArray;
  const output = context.getEvalTensor(node.outputs[0]!).data as unknown as NumberArray;
  if (d.inPlaceScratch >= 0) {
    poolInPlace(d, input, output, poolScratch(context, d), maxPoolChannel);
    return;
  }
  switch (d.type) {
    case TensorType.FLOAT32:
      maxPool(d, input, output, -FLT_MAX);
      break;
    case TensorType.INT8:
      maxPool(d, input, output, -128);
      break;
    case TensorType.UINT8:
      maxPool(d, input, output, 0);
      break;
    default:
      maxPool(d, input, output, -32768);
      break;
  }
}

/** MAX_POOL_2D registration: float32, int8, int16, uint8 (op versions 1..3). */
export const MAX_POOL_2D: Registration<PoolingOpData> = {
  builtinCode: BuiltinOperator.MAX_POOL_2D,
  version: 3,
  provider: PROVIDER,
  name: OP,
  init: initPooling,
  prepare,
  invoke,
  inPlaceVariant: poolInPlaceVariant,
  useInPlaceVariant: usePoolInPlaceVariant,
};
