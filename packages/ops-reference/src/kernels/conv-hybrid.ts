/**
 * Hybrid CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV (TFLite kernels/conv.cc EvalHybrid /
 * EvalHybridPerChannel, depthwise_conv.cc EvalHybridPerChannel, transpose_conv.cc EvalHybrid): float32
 * input and output, quantized weights (CONV_2D: int8, uint8 read as int8, int4; the others: int8), a
 * float32 bias, a clamp activation.
 *
 * Each batch's input is quantized to int8 at run time (kernel-support's hybrid module):
 * - CONV_2D with one weight scale (or all scales equal, or uint8 weights): symmetric, the scale folded
 *   into the batch's factor; out = float(acc) · factor (TFLite's HybridConv, whose im2col pads with 0);
 * - CONV_2D with per-channel scales (or grouped), and every DEPTHWISE_CONV_2D: asymmetric, with a zero
 *   point per batch; acc sums weight × (q − zero point) over the taps inside the image (TFLite pads its
 *   im2col with the zero point, so padding adds 0); CONV_2D out = float(acc) · (factor · channel scale),
 *   DEPTHWISE_CONV_2D out = (float(acc) · factor) · channel scale (the order of TFLite's optimized
 *   kernels, which is what runs).
 * - TRANSPOSE_CONV: asymmetric per batch as the depthwise kernel; every input element's
 *   (q − zero point) × weight is scattered into exact int32 accumulators, then
 *   out = (float(acc) · factor) · channel scale (TFLite's reference kernel scatters float products, so
 *   the two differ in the last bits of a sum).
 * Then the float bias and the activation clamp. acc is exact int32; the two float products and the sum
 * are rounded to float32 as TFLite's.
 */
import { ActivationFunctionType, KernelError, TensorType, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import {
  batchQuantizeFloats,
  calculateActivationRangeFloat,
  hybridWeightScales,
  hybridWeightsInt8,
  scaleFactors,
} from '@micrort/kernel-support';
import type { ConvGeometry } from './conv-common.js';
import { scatterInt8 } from './transpose-conv-eval.js';

const f = Math.fround;

/** What one hybrid convolution node keeps from prepare. */
export interface HybridConvPlan {
  filter: Int8Array;
  /** One scale per output channel (the asymmetric path), or null (symmetric, scale in the factors). */
  perChannel: Float32Array | null;
  scale: number;
  lo: number;
  hi: number;
  quantizedIndex: number;
  factorsIndex: number;
  zeroPointsIndex: number;
  /** TRANSPOSE_CONV's int32 accumulators, else -1. */
  accumulatorsIndex: number;
}

/** Which hybrid convolution a node is. */
export type HybridConvKind = 'conv' | 'depthwise' | 'transpose';

/**
 * Prepares a hybrid CONV_2D, DEPTHWISE_CONV_2D or TRANSPOSE_CONV node whose geometry `g` is set: checks
 * types, binds the int8 weights and per-channel scales, requests the scratch buffers.
 */
export function prepareHybridConv(
  op: string,
  context: TfLiteContext,
  node: Node,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  g: ConvGeometry,
  activation: ActivationFunctionType,
  kind: HybridConvKind,
): HybridConvPlan {
  const fail = (detail: string): never => {
    throw new KernelError(op, node.index, detail);
  };
  if (output.type !== TensorType.FLOAT32)
    fail(`hybrid output (tensor ${output.index}) must be float32, got ${tensorTypeName(output.type)}`);
  if (bias && bias.type !== TensorType.FLOAT32)
    fail(`hybrid bias (tensor ${bias.index}) must be float32, got ${tensorTypeName(bias.type)}`);
  if (kind !== 'conv' && filter.type !== TensorType.INT8)
    fail(`hybrid ${op} takes int8 weights (TFLite's kernel), got ${tensorTypeName(filter.type)} (tensor ${filter.index})`);
  const { scale, perChannel } = hybridWeightScales(op, node, 'filter', filter, kind === 'depthwise' ? 3 : 0, g.outDepth);
  const filterData = hybridWeightsInt8(op, context, node, 'filter', filter);
  if (filterData === null) fail(`hybrid filter (tensor ${filter.index}) must be a constant`);
  const groups = g.inDepth / g.filterDepth;
  const varying = perChannel !== null && filter.type !== TensorType.UINT8 && perChannel.some((s) => s !== perChannel[0]);
  let channelScales: Float32Array | null = null;
  if (kind !== 'conv' || varying || groups !== 1) {
    channelScales = perChannel ?? new Float32Array(g.outDepth).fill(scale);
  }
  const [lo, hi] = calculateActivationRangeFloat(activation);
  const inputSize = g.inHeight * g.inWidth * g.inDepth;
  return {
    filter: filterData!,
    perChannel: channelScales,
    scale,
    lo,
    hi,
    quantizedIndex: context.requestScratchBufferInArena(Math.max(1, g.batches * inputSize)),
    factorsIndex: context.requestScratchBufferInArena(Math.max(1, g.batches) * 4),
    zeroPointsIndex: context.requestScratchBufferInArena(Math.max(1, g.batches) * 4),
    accumulatorsIndex:
      kind === 'transpose' ? context.requestScratchBufferInArena(Math.max(1, g.batches * g.outHeight * g.outWidth * g.outDepth) * 4) : -1,
  };
}

/** Quantizes the input per batch; returns the views (no allocation after the first call). */
function quantizeInput(plan: HybridConvPlan, context: TfLiteContext, g: ConvGeometry, input: Float32Array) {
  const quantized = context.getScratchBuffer(plan.quantizedIndex).i8;
  const factors = context.getScratchBuffer(plan.factorsIndex).f32;
  const zeroPoints = context.getScratchBuffer(plan.zeroPointsIndex).i32;
  const size = g.inHeight * g.inWidth * g.inDepth;
  batchQuantizeFloats(input, 0, g.batches, size, quantized, 0, factors, zeroPoints, 0, plan.perChannel !== null);
  if (plan.perChannel === null) scaleFactors(factors, 0, g.batches, plan.scale);
  return { quantized, factors, zeroPoints };
}

/** Hybrid CONV_2D (grouped convolution included). */
export function evalHybridConv2d(
  plan: HybridConvPlan,
  context: TfLiteContext,
  g: ConvGeometry,
  input: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { quantized, factors, zeroPoints } = quantizeInput(plan, context, g, input);
  const { filter, perChannel, lo, hi } = plan;
  const { inHeight, inWidth, inDepth, filterHeight, filterWidth, filterDepth, outHeight, outWidth, outDepth } = g;
  const perGroup = outDepth / (inDepth / filterDepth);
  let o = 0;
  for (let b = 0; b < g.batches; b++) {
    const factor = factors[b]!;
    const zp = zeroPoints[b]!;
    const inBatch = b * inHeight * inWidth * inDepth;
    for (let oy = 0; oy < outHeight; oy++) {
      const yOrigin = oy * g.strideHeight - g.padHeight;
      for (let ox = 0; ox < outWidth; ox++) {
        const xOrigin = ox * g.strideWidth - g.padWidth;
        for (let oc = 0; oc < outDepth; oc++) {
          const icBase = Math.floor(oc / perGroup) * filterDepth;
          let acc = 0;
          for (let ky = 0; ky < filterHeight; ky++) {
            const iy = yOrigin + ky * g.dilationHeight;
            if (iy < 0 || iy >= inHeight) continue;
            for (let kx = 0; kx < filterWidth; kx++) {
              const ix = xOrigin + kx * g.dilationWidth;
              if (ix < 0 || ix >= inWidth) continue;
              const inBase = inBatch + (iy * inWidth + ix) * inDepth + icBase;
              const fBase = ((oc * filterHeight + ky) * filterWidth + kx) * filterDepth;
              for (let ic = 0; ic < filterDepth; ic++) acc += filter[fBase + ic]! * (quantized[inBase + ic]! - zp);
            }
          }
          const scale = perChannel === null ? factor : f(factor * perChannel[oc]!);
          let v = f(f(acc) * scale);
          if (bias !== null) v = f(v + bias[oc]!);
          output[o++] = v < lo ? lo : v > hi ? hi : v;
        }
      }
    }
  }
}

/** Hybrid DEPTHWISE_CONV_2D (optimized_integer_ops::DepthwiseConvHybridPerChannel's arithmetic). */
export function evalHybridDepthwise(
  plan: HybridConvPlan,
  context: TfLiteContext,
  g: ConvGeometry,
  input: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { quantized, factors, zeroPoints } = quantizeInput(plan, context, g, input);
  const { filter, lo, hi } = plan;
  const scales = plan.perChannel!;
  const { inHeight, inWidth, inDepth, filterHeight, filterWidth, outHeight, outWidth, outDepth, depthMultiplier } = g;
  for (let b = 0; b < g.batches; b++) {
    const factor = factors[b]!;
    const zp = zeroPoints[b]!;
    const inBatch = b * inHeight * inWidth * inDepth;
    for (let oy = 0; oy < outHeight; oy++) {
      const yOrigin = oy * g.strideHeight - g.padHeight;
      for (let ox = 0; ox < outWidth; ox++) {
        const xOrigin = ox * g.strideWidth - g.padWidth;
        const outBase = ((b * outHeight + oy) * outWidth + ox) * outDepth;
        for (let ic = 0; ic < inDepth; ic++) {
          for (let m = 0; m < depthMultiplier; m++) {
            const oc = ic * depthMultiplier + m;
            let acc = 0;
            for (let ky = 0; ky < filterHeight; ky++) {
              const iy = yOrigin + ky * g.dilationHeight;
              if (iy < 0 || iy >= inHeight) continue;
              for (let kx = 0; kx < filterWidth; kx++) {
                const ix = xOrigin + kx * g.dilationWidth;
                if (ix < 0 || ix >= inWidth) continue;
                acc += filter[(ky * filterWidth + kx) * outDepth + oc]! * (quantized[inBatch + (iy * inWidth + ix) * inDepth + ic]! - zp);
              }
            }
            let v = f(f(f(acc) * factor) * scales[oc]!);
            if (bias !== null) v = f(v + bias[oc]!);
            output[outBase + oc] = v < lo ? lo : v > hi ? hi : v;
          }
        }
      }
    }
  }
}

/** Hybrid TRANSPOSE_CONV: int32 scatter of (q − zero point) × weight, then (float(acc) · factor) · scale. */
export function evalHybridTransposeConv(
  plan: HybridConvPlan,
  context: TfLiteContext,
  g: ConvGeometry,
  input: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { quantized, factors, zeroPoints } = quantizeInput(plan, context, g, input);
  const { filter, lo, hi } = plan;
  const scales = plan.perChannel!;
  const perBatch = g.outHeight * g.outWidth * g.outDepth;
  const acc = context.getScratchBuffer(plan.accumulatorsIndex).i32;
  acc.fill(0, 0, g.batches * perBatch);
  scatterInt8(g, quantized, 0, filter, acc, zeroPoints);
  const outDepth = g.outDepth;
  for (let b = 0; b < g.batches; b++) {
    const factor = factors[b]!;
    for (let o = b * perBatch; o < (b + 1) * perBatch; o += outDepth) {
      for (let oc = 0; oc < outDepth; oc++) {
        let v = f(f(f(acc[o + oc]!) * factor) * scales[oc]!);
        if (bias !== null) v = f(v + bias[oc]!);
        output[o + oc] = v < lo ? lo : v > hi ? hi : v;
      }
    }
  }
}
