/**
 * Hybrid CONV_2D (TFLite conv.cc EvalHybrid / EvalHybridPerChannel, as ops-reference's conv-hybrid.ts):
 * float32 input and output, constant int8 weights (or TFLite's legacy uint8 hybrid weights, read as
 * int8), a float32 bias, a clamp activation. The input is quantized per batch at invoke (symmetric with
 * one weight scale, or all scales equal, or uint8 weights; asymmetric with a zero point per batch when
 * the per-channel scales differ), the int8 GEMM tile (qs8_conv with W.Raw) accumulates in int32 and
 * hybrid_epilogue scales to float32 (see hybrid-common.ts). Declines (ops-reference serves the node):
 * int4 weights, grouped convolution, TANH / SIGN_BIT activations, K above HYBRID_MAX_K, fewer than
 * `minMacs` multiply-accumulates.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  type Conv2DOptions,
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
  expectWindowOutput,
  hybridWeightScales,
  hybridWeightsInt8,
  reductionSumVector,
} from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
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
import { packConvGemm } from '../weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from '../window-scratch.js';
import {
  HYBRID_MAX_K,
  HybridMode,
  declineClampActivation,
  declineHybrid,
  hybridZeroPoint,
  prepareHybridEpilogue,
  quantizeHybridInput,
  requestHybridQuantScratch,
  type HybridQuantScratch,
} from './hybrid-common.js';

const OP = 'CONV_2D';
const FILTER_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];
const NO_I32 = new Int32Array(0);

interface HybridConvData {
  k: KernelExports | null;
  /** Offsets of the GEMM's parameter block (W) and of the epilogue's (HY). */
  params: number;
  hp: number;
  p: Int32Array;
  hy: Int32Array;
  scratch: number;
  quant: HybridQuantScratch | null;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  batches: number;
  /** Output pixels per batch, bytes of one quantized input image and of one batch's outputs. */
  perBatch: number;
  inImage: number;
  outBatchBytes: number;
  par: Parallel | null;
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.FLOAT32 || filter.type === TensorType.FLOAT32) return 'not hybrid (float32 input, quantized filter)';
  const why = declineHybrid(input, filter, bias, output, FILTER_TYPES, 0, filter.dims[0] ?? 0);
  if (why) return why;
  const opts = node.builtinData as Conv2DOptions | null;
  if (!opts) return 'missing Conv2DOptions';
  const act = declineClampActivation(opts.fusedActivationFunction);
  if (act) return act;
  if (input.dims.length !== 4 || filter.dims.length !== 4) return 'input and filter must be 4-D';
  if (input.dims[3] !== filter.dims[3]) return `grouped convolution (input depth ${input.dims[3]}, filter depth ${filter.dims[3]})`;
  const k = filter.dims[1]! * filter.dims[2]! * filter.dims[3]!;
  if (k > HYBRID_MAX_K) return `K = ${k} taps x depth could overflow the int32 accumulators (handles up to ${HYBRID_MAX_K})`;
  return declineSmall(filter.elementCount, output.elementCount, filter.dims[0] ?? 0, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as HybridConvData;
  const opts = node.builtinData as Conv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, OP);
  expectConvRanks(OP, node, { input, filter, output });
  expectConvStrides(OP, node, opts);
  const [batches, inH, inW, inC] = input.dims as unknown as number[];
  const [outC, kH, kW, kC] = filter.dims as unknown as number[];
  if (kC !== inC) throw new KernelError(OP, node.index, `filter depth ${kC} differs from input depth ${inC} (grouped convolution)`);
  if (output.dims[0] !== batches)
    throw new KernelError(OP, node.index, `output batch ${output.dims[0]} differs from input batch ${batches}`);
  if (output.dims[3] !== outC)
    throw new KernelError(OP, node.index, `output has ${output.dims[3]} channels, filter (tensor ${filter.index}) has ${outC}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  const { scale, perChannel } = hybridWeightScales(OP, node, 'filter', filter, 0, outC!);
  const weights = hybridWeightsInt8(OP, context, node, 'filter', filter);
  if (!weights) throw new KernelError(OP, node.index, `hybrid filter (tensor ${filter.index}) must be a constant`);
  const taps = kH! * kW!;
  const K = taps * inC!;

  // TFLite (and ops-reference): per-channel scales that differ quantize the input asymmetrically and
  // scale per channel; one scale (or all equal, or uint8 weights) symmetrically, the scale in the factor
  const varying = perChannel !== null && filter.type !== TensorType.UINT8 && perChannel.some((s) => s !== perChannel[0]);
  let sums: Int32Array | null = null;
  if (varying) {
    sums = new Int32Array(outC!);
    reductionSumVector(weights, 0, outC!, K, sums);
  }
  const [lo, hi] = calculateActivationRangeFloat(opts.fusedActivationFunction);
  const perBatch = pad.outHeight * pad.outWidth;
  const hyRegion = prepareHybridEpilogue(context, {
    perBatch,
    outC: outC!,
    mode: varying ? HybridMode.PerChannel : HybridMode.Folded,
    sums,
    scales: varying ? perChannel : null,
    bias: bias ? (bias.data as Float32Array) : null,
    clamp: true,
    lo,
    hi,
  });

  // the GEMM runs one batch at a time (the zero row holds that batch's zero point)
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
    outC: outC!,
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
  const onePixel = perBatch === 1 && taps === 1;
  const layout = packConvGemm(context, p, weights, outC!, taps, inC!, null, 0, 0, onePixel);
  p[W.Raw] = 1;
  p[W.Direct] =
    taps === 1 &&
    opts.strideH === 1 &&
    opts.strideW === 1 &&
    pad.height === 0 &&
    pad.width === 0 &&
    pad.outHeight === inH &&
    pad.outWidth === inW
      ? 1
      : 0;
  const tiles = Math.ceil(perBatch / GEMM_TILE_PIXELS);
  const threads = onePixel ? 1 : threadsFor(options, perBatch * outC! * K, tiles);
  data.scratch = requestWindowScratch(context, p, NO_I32, NO_I32, {
    channels: 0,
    zeroBytes: layout.zeroBytes,
    ptrBytes: layout.gather && opts.dilationWFactor === 1 ? 0 : taps * 4,
    rowBytes: layout.rowBytes,
    extBytes: onePixel ? 0 : extScratchBytes(layout.units),
    threads,
  });
  p[W.ExpandRq] = 0; // no requantization: hybrid_epilogue scales the int32 accumulators
  data.par = parallelFor(paramsRegion, threads, tiles);
  data.quant = requestHybridQuantScratch(context, batches!, inH! * inW! * inC!, varying, varying ? 0 : scale);
  data.fixed = constantInputCopies(context, node, [0])[0]!;
  data.params = paramsRegion.offset;
  data.p = p;
  data.hp = hyRegion.offset;
  data.hy = hyRegion.i32;
  data.batches = batches!;
  data.perBatch = perBatch;
  data.inImage = inH! * inW! * inC!;
  data.outBatchBytes = perBatch * outC! * 4;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridConvData;
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
      par.pool.run(k, par.instance, Fn.Conv, data.params, input, out, 0, data.perBatch, GEMM_TILE_PIXELS, par.chunks);
    } else k.qs8_conv(data.params, input, out);
  }
  const pixels = data.batches * data.perBatch;
  // the epilogue splits by output pixels on the node's threads too
  if (par) par.pool.run(k, par.instance, Fn.HybridEpilogue, data.hp, output, 0, 0, pixels, 1, par.chunks);
  else k.hybrid_epilogue(data.hp, output, 0, pixels);
}

/** The hybrid CONV_2D registration (float32 nodes with quantized weights only). */
export function createConv2DHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridConvData> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/wasm-hybrid-gemm',
    supports: (context, node) => supports(context, node, options),
    init: (): HybridConvData => ({
      k: null,
      params: 0,
      hp: 0,
      p: new Int32Array(0),
      hy: new Int32Array(0),
      scratch: -1,
      quant: null,
      fixed: -1,
      batches: 0,
      perBatch: 0,
      inImage: 0,
      outBatchBytes: 0,
      par: null,
    }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
