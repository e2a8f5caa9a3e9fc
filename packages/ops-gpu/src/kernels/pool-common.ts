/**
 * Shared plan of AVERAGE_POOL_2D and MAX_POOL_2D (float32): kernel-support's `calculateOpDataPooling`
 * (TFLM's PoolingPrepare: NHWC input and output of the same depth, padding from the options, output size
 * from the output tensor, the fused activation's bounds) as the shader's constants.
 */
import type { Node, TfLiteContext } from '@micrort/core';
import { FLOAT32_ONLY, calculateOpDataPooling } from '@micrort/kernel-support';
import { type KernelPlan, type KernelSource } from './kernel-plan.js';
import { geometryKey, type WindowGeometry } from './window-common.js';

/** The plan of a float pooling node running `source`. */
export function planPooling(op: string, source: KernelSource, context: TfLiteContext, node: Node): KernelPlan {
  const d = calculateOpDataPooling(op, context, node, FLOAT32_ONLY);
  const g: WindowGeometry = {
    batches: d.batches,
    inHeight: d.inHeight,
    inWidth: d.inWidth,
    inDepth: d.depth,
    outHeight: d.outHeight,
    outWidth: d.outWidth,
    outDepth: d.depth,
    filterHeight: d.filterHeight,
    filterWidth: d.filterWidth,
    strideH: d.strideHeight,
    strideW: d.strideWidth,
    dilationH: 1,
    dilationW: 1,
    padH: d.padding.height,
    padW: d.padding.width,
  };
  const actMin = d.actMinF;
  const actMax = d.actMaxF;
  return {
    op,
    key: `${op}|${geometryKey(g)}|act=${actMin},${actMax}`,
    source,
    constants: { ...g, actMin, actMax },
    floatConstants: ['actMin', 'actMax'],
    outputSize: d.batches * d.outHeight * d.outWidth * d.depth,
    output: node.outputs[0]!,
    args: [{ tensor: node.inputs[0]! }],
  };
}
