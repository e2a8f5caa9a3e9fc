/**
 * Shared prepare of AVERAGE_POOL_2D and MAX_POOL_2D: kernel-support's `calculateOpDataPooling` (TFLM's
 * PoolingPrepare, which TFLM's CMSIS-NN pooling calls too) for int8 input and output, moved into
 * CMSIS-NN's flattened `PoolParams`. No rescaling, as TFLM: the converter gives both the same
 * quantization.
 */
import type { Node, TfLiteContext } from '@micrort/core';
import { calculateOpDataPooling, declineArity, declineTypes, INT8_ONLY } from '@micrort/kernel-support';
import type { PoolParams } from '../cmsis/types-pool.js';

/** Whether a pooling node is int8 in and out (what the ops-simd pooling kernels serve). */
export function poolingSupported(context: TfLiteContext, node: Node): true | string {
  return declineArity(node, 1, 1) ?? declineTypes(context, node, [0], INT8_ONLY) ?? true;
}

/** Validates the node and fills `p`. */
export function preparePooling(op: string, context: TfLiteContext, node: Node, p: PoolParams): void {
  const d = calculateOpDataPooling(op, context, node, INT8_ONLY);
  p.batches = d.batches;
  p.inH = d.inHeight;
  p.inW = d.inWidth;
  p.ch = d.depth;
  p.kH = d.filterHeight;
  p.kW = d.filterWidth;
  p.strideH = d.strideHeight;
  p.strideW = d.strideWidth;
  p.outH = d.outHeight;
  p.outW = d.outWidth;
  p.padH = d.padding.height;
  p.padW = d.padding.width;
  p.actMin = d.actMin;
  p.actMax = d.actMax;
}
