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
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  type DepthwiseConv2DOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  calculateActivationRangeFloat,
  convWindow,
  declineArity,
  expectConvRanks,
  expectConvStrides,
  expectPositive,
  expectWindowOutput,
  hybridWeightScales,
  hybridWeightsInt8,
} from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import { kernelsFor } from '../../wasm-arena.js';
import type { KernelExports } from '../../wasm-module.js';
import {
  GEMM_TILE_PIXELS,
  W,
  WINDOW_PARAMS_BYTES,
  constantInputCopies,
  extScratchBytes,
  inputOffset,
  writeWindowParams,
} from '../kernel-common.js';
import { parallelFor, threadsFor, type Parallel } from '../parallel.js';
import { packConvGemm, packDepthwise } from '../weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from '../window-scratch.js';
import {
  HybridMode,
  declineClampActivation,
  declineHybrid,
  hybridZeroPoint,
  prepareHybridEpilogue,
  quantizeHybridInput,
  requestHybridQuantScratch,
  weightSums,
  type HybridQuantScratch,
} from './hybrid-common.js';

const OP = 'DEPTHWISE_CONV_2D';
const FILTER_TYPES: readonly TensorType[] = [TensorType.INT8];
const NO_I32 = new Int32Array(0);

interface HybridDepthwiseData {
  k: KernelExports | null;
  params: number;
  hp: number;
  p: Int32Array;
  hy: Int32Array;
  scratch: number;
  quant: HybridQuantScratch | null;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** One input channel: served by the CONV_2D GEMM. */
  conv: boolean;
  batches: number;
  perBatch: number;
  inImage: number;
  outBatchBytes: number;
  par: Parallel | null;
  /** Chunk alignment of a threaded job (GEMM tiles or pixel pairs). */
  align: number;
}

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
  const data = node.userData as HybridDepthwiseData;
  const opts = node.builtinData as DepthwiseConv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing DepthwiseConv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, OP);
  expectConvRanks(OP, node, { input, filter, output });
  expectConvStrides(OP, node, opts);
  expectPositive(OP, node, 'depth_multiplier', opts.depthMultiplier);
  const [batches, inH, inW, inC] = input.dims as unknown as number[];
  const [one, kH, kW, fC] = filter.dims as unknown as number[];
  const channels = output.dims[3]!;
  if (one !== 1)
    throw new KernelError(
      OP,
      node.index,
      `filter (tensor ${filter.index}) must have shape [1, kH, kW, channels], got [${Array.from(filter.dims).join(', ')}]`,
    );
  if (fC !== channels) throw new KernelError(OP, node.index, `filter (tensor ${filter.index}) has ${fC} channels, the output ${channels}`);
  if (inC! * opts.depthMultiplier !== channels)
    throw new KernelError(
      OP,
      node.index,
      `output channels ${channels} != input channels ${inC} * depth_multiplier ${opts.depthMultiplier}`,
    );
  if (output.dims[0] !== batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${batches}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  const { scale, perChannel } = hybridWeightScales(OP, node, 'filter', filter, 3, channels);
  const weights = hybridWeightsInt8(OP, context, node, 'filter', filter);
  if (!weights) throw new KernelError(OP, node.index, `hybrid filter (tensor ${filter.index}) must be a constant`);
  const taps = kH! * kW!;
  const perBatch = pad.outHeight * pad.outWidth;
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
    padH: pad.height,
    padW: pad.width,
    actMin: 0,
    actMax: 0,
  });
  data.conv = inC === 1 && channels > 1;
  let threads: number;
  if (data.conv) {
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
  p[W.Raw] = 1;
  p[W.ExpandRq] = 0; // no requantization: hybrid_epilogue scales the int32 accumulators
  data.quant = requestHybridQuantScratch(context, batches!, inH! * inW! * inC!, true, 0);
  data.fixed = constantInputCopies(context, node, [0])[0]!;
  data.params = paramsRegion.offset;
  data.p = p;
  data.hp = hyRegion.offset;
  data.hy = hyRegion.i32;
  data.batches = batches!;
  data.perBatch = perBatch;
  data.inImage = inH! * inW! * inC!;
  data.outBatchBytes = perBatch * channels * 4;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridDepthwiseData;
  const quant = data.quant!;
  const k = data.k!;
  const q = quantizeHybridInput(context, quant, data.hy, k, inputOffset(context, node, 0, data.fixed));
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  bindWindowScratch(context, data.p, data.scratch);
  const par = data.par;
  for (let b = 0; b < data.batches; b++) {
    data.p[W.ZpIn] = hybridZeroPoint(context, quant, b);
    const input = q + b * data.inImage;
    const out = output + b * data.outBatchBytes;
    if (par) {
      k.window_begin(data.params);
      par.pool.run(k, par.instance, data.conv ? Fn.Conv : Fn.Dwconv, data.params, input, out, 0, data.perBatch, data.align, par.chunks);
    } else if (data.conv) k.qs8_conv(data.params, input, out);
    else k.qs8_dwconv(data.params, input, out);
  }
  const pixels = data.batches * data.perBatch;
  // the epilogue splits by output pixels on the node's threads too
  if (par) par.pool.run(k, par.instance, Fn.HybridEpilogue, data.hp, output, 0, 0, pixels, 1, par.chunks);
  else k.hybrid_epilogue(data.hp, output, 0, pixels);
}

/** The hybrid DEPTHWISE_CONV_2D registration (float32 nodes with int8 weights only). */
export function createDepthwiseConv2DHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridDepthwiseData> {
  return {
    builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 7,
    provider: PROVIDER,
    name: 'DEPTHWISE_CONV_2D/wasm-hybrid-dw8',
    supports,
    init: (): HybridDepthwiseData => ({
      k: null,
      params: 0,
      hp: 0,
      p: new Int32Array(0),
      hy: new Int32Array(0),
      scratch: -1,
      quant: null,
      fixed: -1,
      conv: false,
      batches: 0,
      perBatch: 0,
      inImage: 0,
      outBatchBytes: 0,
      par: null,
      align: 1,
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
