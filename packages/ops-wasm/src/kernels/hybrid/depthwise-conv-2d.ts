/**
 * Hybrid DEPTHWISE_CONV_2D (TFLite depthwise_conv.cc EvalHybridPerChannel, as ops-reference's
 * conv-hybrid.ts): float32 input and output, constant int8 weights (one scale or one per channel), a
 * float32 bias, a clamp activation, any depth multiplier, stride, dilation and padding. The input is
 * quantized asymmetrically per batch at invoke; qs8_dwconv (or, with one input channel, the CONV_2D
 * GEMM) with W.Raw accumulates in int32 and hybrid_epilogue scales as TFLite's optimized kernel,
 * (acc · factor) · channel scale (see hybrid-common.ts). Declines (ops-reference serves the node): other
 * weight types, TANH / SIGN_BIT activations.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  type DepthwiseConv2DOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { calculateActivationRangeFloat, declineArity, hybridWeightScales, hybridWeightsInt8 } from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import { kernelsFor } from '../../wasm-arena.js';
import { GEMM_TILE_PIXELS, W, WINDOW_PARAMS_BYTES, extScratchBytes, writeWindowParams } from '../kernel-common.js';
import { parallelFor, threadsFor } from '../parallel.js';
import { packConvGemm, packDepthwise } from '../weight-pack.js';
import { requestWindowScratch } from '../window-scratch.js';
import { absorbInputPad } from '../pad-absorb.js';
import { HybridMode, declineClampActivation, declineHybrid, prepareHybridEpilogue, weightSums } from './hybrid-common.js';
import { emptyHybridWindowData, finishHybridWindow, invokeHybridWindow, type HybridWindowData } from './hybrid-window.js';
import { prepareDepthwiseNode } from '../depthwise-common.js';

const OP = 'DEPTHWISE_CONV_2D';
const FILTER_TYPES: readonly TensorType[] = [TensorType.INT8];
const NO_I32 = new Int32Array(0);

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.FLOAT32 || filter.type === TensorType.FLOAT32) return 'not hybrid (float32 input, quantized filter)';
  const why = declineHybrid(input, filter, bias, output, FILTER_TYPES, 3, filter.dims[3] ?? 0);
  if (why) return why;
  const opts = node.builtinData as DepthwiseConv2DOptions | null;
  if (!opts) return 'missing DepthwiseConv2DOptions';
  return declineClampActivation(opts.fusedActivationFunction) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as HybridWindowData;
  const { opts, input, filter, bias, batches, inC, kH, kW, channels, pad } = prepareDepthwiseNode(context, node);
  const { scale, perChannel } = hybridWeightScales(OP, node, 'filter', filter, 3, channels);
  const weights = hybridWeightsInt8(OP, context, node, 'filter', filter);
  if (!weights) throw new KernelError(OP, node.index, `hybrid filter (tensor ${filter.index}) must be a constant`);
  const taps = kH! * kW!;
  const perBatch = pad.outHeight * pad.outWidth;
  const { inH, inW, padH, padW } = absorbInputPad(context, node, opts.padding, input, pad);
  const [lo, hi] = calculateActivationRangeFloat(opts.fusedActivationFunction);
  // TFLite: always asymmetric per batch, (acc · factor) · channel scale
  const hyRegion = prepareHybridEpilogue(context, {
    perBatch,
    outC: channels,
    mode: HybridMode.Depthwise,
    sums: weightSums(weights, channels, taps, 1, channels),
    scales: perChannel ?? new Float32Array(channels).fill(scale),
    bias: bias ? (bias.data as Float32Array) : null,
    clamp: true,
    lo,
    hi,
  });

  const paramsRegion = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, paramsRegion);
  const p = paramsRegion.i32;
  writeWindowParams(p, {
    batches: 1,
    inH: inH!,
    inW: inW!,
    inC: inC!,
    outH: pad.outHeight,
    outW: pad.outWidth,
    outC: channels,
    kH: kH!,
    kW: kW!,
    strideH: opts.strideH,
    strideW: opts.strideW,
    dilH: opts.dilationHFactor,
    dilW: opts.dilationWFactor,
    padH,
    padW,
    actMin: 0,
    actMax: 0,
  });
  const conv = inC === 1 && channels > 1;
  let threads: number;
  if (conv) {
    // one input channel: a convolution with K = taps on the CONV_2D GEMM, filter [1, kH, kW, out] as [out, kH, kW, 1]
    const t = new Int8Array(weights.length);
    for (let c = 0; c < channels; c++) for (let k = 0; k < taps; k++) t[c * taps + k] = weights[k * channels + c]!;
    const layout = packConvGemm(context, p, t, channels, taps, 1, null, 0, 0, false);
    const tiles = Math.ceil(perBatch / GEMM_TILE_PIXELS);
    threads = threadsFor(options, perBatch * channels * taps, tiles);
    data.scratch = requestWindowScratch(context, p, NO_I32, NO_I32, {
      channels: 0,
      zeroBytes: layout.zeroBytes,
      ptrBytes: layout.gather && opts.dilationWFactor === 1 ? 0 : taps * 4,
      rowBytes: layout.rowBytes,
      extBytes: extScratchBytes(layout.units),
      threads,
    });
    data.par = parallelFor(paramsRegion, threads, tiles);
    data.tile = Fn.Conv;
    data.align = GEMM_TILE_PIXELS;
  } else {
    const groups = (channels + 7) >> 3;
    packDepthwise(context, p, weights, channels, taps, null, 0);
    threads = threadsFor(options, perBatch * channels * taps, perBatch >> 1);
    data.scratch = requestWindowScratch(context, p, NO_I32, NO_I32, {
      channels: 0,
      zeroBytes: groups * 8 + 8,
      ptrBytes: 2 * (taps + 1) * 4,
      threads,
    });
    data.par = parallelFor(paramsRegion, threads, perBatch >> 1);
    data.tile = Fn.Dwconv;
    data.align = 2;
    if (opts.depthMultiplier > 1) {
      // as the int8 kernel: per group of eight output channels the swizzle of their input channels
      const table = context.allocatePersistentBuffer(groups * 32);
      for (let g = 0; g < groups; g++) {
        const start = Math.floor((8 * g) / opts.depthMultiplier);
        for (let j = 0; j < 8; j++) {
          const oc = 8 * g + j;
          const rel = oc < channels ? Math.floor(oc / opts.depthMultiplier) - start : 0;
          table.u8[g * 32 + 2 * j] = 2 * rel;
          table.u8[g * 32 + 2 * j + 1] = 2 * rel + 1;
        }
        table.i32[g * 8 + 4] = start;
      }
      p[W.DmTable] = table.offset;
    }
    p[W.Kb8] = groups;
  }
  finishHybridWindow(context, node, data, paramsRegion, hyRegion, {
    batches: batches!,
    inImage: inH! * inW! * inC!,
    perBatch,
    outC: channels,
    asymmetric: true,
    foldScale: 0,
  });
}

/** The hybrid DEPTHWISE_CONV_2D registration (float32 nodes with int8 weights only). */
export function createDepthwiseConv2DHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridWindowData> {
  return {
    builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 7,
    provider: PROVIDER,
    name: 'DEPTHWISE_CONV_2D/wasm-hybrid-dw8',
    supports,
    init: emptyHybridWindowData,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeHybridWindow,
  };
}
