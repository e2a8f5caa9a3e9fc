/**
 * What the ops-simd convolutions (CONV_2D, DEPTHWISE_CONV_2D) add to @micrort/kernel-support: moving
 * its geometry and output stage (TFLM's CalculateOpDataConv, which TFLM's CMSIS-NN kernels call too)
 * into CMSIS-NN's flattened `ConvParams`.
 */
import type { ActivationFunctionType, Node, TfLiteContext } from '@micrort/core';
import { int8ConvOutputStage, type ConvTensors, type Window2D } from '@micrort/kernel-support';
import type { ConvParams } from '../cmsis/types.js';

/** The spatial window of `p` (input, filter, strides, dilations), for kernel-support's padding. */
export function windowOf(p: ConvParams): Window2D {
  return {
    inHeight: p.inH,
    inWidth: p.inW,
    filterHeight: p.kH,
    filterWidth: p.kW,
    strideHeight: p.strideH,
    strideWidth: p.strideW,
    dilationHeight: p.dilH,
    dilationWidth: p.dilW,
  };
}

/**
 * The int8 output stage of a convolution into `p`: kernel-support's `int8ConvOutputStage` (the bias
 * check, the per-channel multipliers and shifts in two persistent arena arrays, the activation range,
 * the offsets), as TFLM's CMSIS-NN ConvPrepare / DepthwiseConvPrepare compute it.
 */
export function prepareOutputStage(
  op: string,
  context: TfLiteContext,
  node: Node,
  t: ConvTensors,
  p: ConvParams,
  quantizedDimension: number,
  activation: ActivationFunctionType,
): void {
  const stage = int8ConvOutputStage(op, context, node, t, p.outC, quantizedDimension, activation);
  p.multiplier = stage.multiplier;
  p.shift = stage.shift;
  p.inputOffset = stage.inputOffset;
  p.outputOffset = stage.outputOffset;
  p.actMin = stage.actMin;
  p.actMax = stage.actMax;
}
