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
  type Conv2DOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  calculateActivationRangeFloat,
  convWindow,
  declineArity,
  expectWindowOutput,
  setConvOutputShape,
  hybridWeightScales,
  hybridWeightsInt8,
  reductionSumVector,
} from '@micrort/kernel-support';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import { kernelsFor } from '../../wasm-arena.js';
import { GEMM_TILE_PIXELS, W, WINDOW_PARAMS_BYTES, extScratchBytes, writeWindowParams } from '../kernel-common.js';
import { parallelFor, threadsFor } from '../parallel.js';
import { packConvGemm } from '../weight-pack.js';
import { requestWindowScratch } from '../window-scratch.js';
import { absorbInputPad, inputWindow } from '../pad-absorb.js';
import { HYBRID_MAX_K, HybridMode, declineClampActivation, declineHybrid, prepareHybridEpilogue } from './hybrid-common.js';
import { emptyHybridWindowData, finishHybridWindow, invokeHybridWindow, type HybridWindowData } from './hybrid-window.js';

const OP = 'CONV_2D';
const FILTER_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];
const NO_I32 = new Int32Array(0);

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
  const data = node.userData as HybridWindowData;
  const opts = node.builtinData as Conv2DOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = setConvOutputShape(OP, context, node, { input, filter }, opts, filter.dims[0]!);
  const [batches, , , inC] = input.dims as unknown as number[];
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
  const perBatch = pad.outHeight * pad.outWidth;
  const onePixel = perBatch === 1 && taps === 1;
  // the one-pixel path reads the input in place: no absorbed padding there
  const { inH, inW, padH, padW } = onePixel ? inputWindow(input, pad) : absorbInputPad(context, node, opts.padding, input, pad);

  // TFLite (and ops-reference): per-channel scales that differ quantize the input asymmetrically and
  // scale per channel; one scale (or all equal, or uint8 weights) symmetrically, the scale in the factor
  const varying = perChannel !== null && filter.type !== TensorType.UINT8 && perChannel.some((s) => s !== perChannel[0]);
  let sums: Int32Array | null = null;
  if (varying) {
    sums = new Int32Array(outC!);
    reductionSumVector(weights, 0, outC!, K, sums);
  }
  const [lo, hi] = calculateActivationRangeFloat(opts.fusedActivationFunction);
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
    padH,
    padW,
    actMin: 0,
    actMax: 0,
  });
  const layout = packConvGemm(context, p, weights, outC!, taps, inC!, null, 0, 0, onePixel);
  p[W.Direct] =
    taps === 1 && opts.strideH === 1 && opts.strideW === 1 && padH === 0 && padW === 0 && pad.outHeight === inH && pad.outWidth === inW
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
  data.par = parallelFor(paramsRegion, threads, tiles);
  data.tile = Fn.Conv;
  data.align = GEMM_TILE_PIXELS;
  finishHybridWindow(context, node, data, paramsRegion, hyRegion, {
    batches: batches!,
    inImage: inH! * inW! * inC!,
    perBatch,
    outC: outC!,
    asymmetric: varying,
    foldScale: scale,
  });
}

/** The hybrid CONV_2D registration (float32 nodes with quantized weights only). */
export function createConv2DHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridWindowData> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/wasm-hybrid-gemm',
    supports: (context, node) => supports(context, node, options),
    init: emptyHybridWindowData,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeHybridWindow,
  };
}
