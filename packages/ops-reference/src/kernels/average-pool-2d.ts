/**
 * AVERAGE_POOL_2D (TFLM kernels/pooling.cc; reference_ops::AveragePool for float32 and TFLite's uint8,
 * reference_integer_ops::AveragePool for int8/int16). NHWC; only the part of each window inside the input
 * is averaged. Integer results round half away from zero: (sum ± count/2) / count with C truncation (for
 * uint8 the sum is never negative: TFLite's (sum + count/2) / count). In-place variant: one channel at a
 * time through a one-channel scratch buffer (pooling-in-place.ts).
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { type PoolingOpData, initPooling, preparePooling } from './pooling-common.js';
import type { NumberArray } from './transpose-common.js';
import {
  averagePoolChannelFloat,
  averagePoolChannelInt,
  poolInPlace,
  poolInPlaceVariant,
  poolScratch,
  usePoolInPlaceVariant,
} from './pooling-in-place.js';
import { opData } from '@micrort/kernel-support';

const OP = 'AVERAGE_POOL_2D';

function prepare(context: TfLiteContext, node: Node): void {
  preparePooling(OP, context, node);
}

/** Float32 average pool; sums and the division are rounded to float32 as in C. */
function averagePoolFloat(d: PoolingOpData, input: Float32Array, output: Float32Array): void {
  const { batches, inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth } = d;
  const lo = d.actMinF;
  const hi = d.actMaxF;
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
        const count = (fyEnd - fyStart) * (fxEnd - fxStart);
        for (let c = 0; c < depth; c++) {
          let total = 0;
          for (let fy = fyStart; fy < fyEnd; fy++) {
            let p = ((batchBase + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
            for (let fx = fxStart; fx < fxEnd; fx++, p += depth) total = Math.fround(total + input[p]!);
          }
          const average = Math.fround(total / count);
          output[o++] = average < lo ? lo : average > hi ? hi : average;
        }
      }
    }
  }
}

/** int8/int16/uint8 average pool (reference_integer_ops::AveragePool; reference_ops::AveragePool for uint8). */
function averagePoolInt(d: PoolingOpData, input: NumberArray, output: NumberArray): void {
  const { batches, inHeight, inWidth, depth, outHeight, outWidth, strideHeight, strideWidth, filterHeight, filterWidth } = d;
  const lo = d.actMin;
  const hi = d.actMax;
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
        const count = (fyEnd - fyStart) * (fxEnd - fxStart);
        const half = count >> 1;
        for (let c = 0; c < depth; c++) {
          let acc = 0;
          for (let fy = fyStart; fy < fyEnd; fy++) {
            let p = ((batchBase + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
            for (let fx = fxStart; fx < fxEnd; fx++, p += depth) acc = (acc + input[p]!) | 0;
          }
          // Round to the closest integer, ties away from zero; `| 0` is C's truncating division.
          acc = acc > 0 ? ((acc + half) / count) | 0 : ((acc - half) / count) | 0;
          output[o++] = acc < lo ? lo : acc > hi ? hi : acc;
        }
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<PoolingOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  if (d.inPlaceScratch >= 0) {
    const pool = d.type === TensorType.FLOAT32 ? averagePoolChannelFloat : averagePoolChannelInt;
    poolInPlace(d, input.data as unknown as NumberArray, output.data as unknown as NumberArray, poolScratch(context, d), pool);
    return;
  }
  if (d.type === TensorType.FLOAT32) averagePoolFloat(d, input.data as Float32Array, output.data as Float32Array);
  else averagePoolInt(d, input.data as unknown as NumberArray, output.data as unknown as NumberArray);
}

/** AVERAGE_POOL_2D registration: float32, int8, int16, uint8 (op versions 1..3). */
export const AVERAGE_POOL_2D: Registration<PoolingOpData> = {
  builtinCode: BuiltinOperator.AVERAGE_POOL_2D,
  version: 3,
  provider: PROVIDER,
  name: OP,
  init: initPooling,
  prepare,
  invoke,
  inPlaceVariant: poolInPlaceVariant,
  useInPlaceVariant: usePoolInPlaceVariant,
};
