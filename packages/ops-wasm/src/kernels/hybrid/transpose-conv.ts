/**
 * Hybrid TRANSPOSE_CONV (TFLite's hybrid transpose_conv.cc, as ops-reference's conv-hybrid.ts
 * evalHybridTransposeConv): float32 input and output, a constant int8 filter with one scale or one per
 * output channel, a constant float32 bias or none, a clamp activation. Each batch of the input is
 * quantized at invoke (hybrid_quantize, asymmetric as TFLite's kernel: a zero point per batch), the int8
 * TRANSPOSE_CONV scatter (qs8_tconv_run with TQ.Raw, one call per batch with that batch's zero point)
 * adds every (q − zp) × w product into int32 accumulators that are the output tensor itself (wrapping as
 * ops-reference's Int32Array), and hybrid_epilogue turns them into float32 in place: `(f32(acc) · factor)
 * · scale[c]` (TFLite's order), `+ bias[c]`, the clamp. So the outputs equal ops-reference's bit for bit.
 * Output rows split across the pool's threads as the int8 kernel's, the epilogue by pixels. Declines
 * (the next provider serves the node): a filter that is not a constant int8 tensor, a non-constant or
 * non-float32 bias, TANH / SIGN_BIT activations, fewer than `minMacs` multiply-accumulates.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  type Node,
  type Registration,
  type TfLiteContext,
  type TransposeConvOptions,
} from '@micrort/core';
import {
  calculateActivationRangeFloat,
  declineArity,
  expectKnownPadding,
  hybridWeightScales,
  hybridWeightsInt8,
  transposeConvShape,
  transposeConvTensors,
} from '@micrort/kernel-support';
import { TQ, TQ_BYTES } from '../../generated/abi.js';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { Fn } from '../../threads/control.js';
import { kernelsFor } from '../../wasm-arena.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { parallelFor, threadsFor, requestThreadScratch, threadScratchOffset, type ThreadScratch } from '../parallel.js';
import { packTransposeConvFilter, writeTransposeConvShape } from '../transpose-conv.js';
import {
  HybridMode,
  declineClampActivation,
  declineHybrid,
  emptyHybridKernelData,
  hybridZeroPoint,
  prepareHybridEpilogue,
  quantizeHybridInput,
  requestHybridQuantScratch,
  type HybridKernelData,
} from './hybrid-common.js';

const OP = 'TRANSPOSE_CONV';
const FILTER_TYPES: readonly TensorType[] = [TensorType.INT8];

interface HybridTconvData extends HybridKernelData {
  /** Bytes of one batch's input (int8, quantized) and output (float32 / int32 accumulators). */
  inBytes: number;
  outBytes: number;
  outH: number;
  /** Output pixels of every batch (the epilogue's range). */
  pixels: number;
  /** Per thread, 64 bytes for a partial block (bound into TQ.Tmp at invoke). */
  tmp: ThreadScratch | null;
}

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, [3, 4], 1);
  if (arity) return arity;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.inputs[2]! < 0) return 'output_shape, filter and input are required';
  const filter = context.getTensor(node.inputs[1]!);
  const input = context.getTensor(node.inputs[2]!);
  const bias = node.inputs.length > 3 && node.inputs[3]! >= 0 ? context.getTensor(node.inputs[3]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.FLOAT32 || filter.type === TensorType.FLOAT32) return 'not hybrid (float32 input, quantized filter)';
  const why = declineHybrid(input, filter, bias, output, FILTER_TYPES, 0, filter.dims[0] ?? 0);
  if (why) return why;
  const opts = node.builtinData as TransposeConvOptions | null;
  if (!opts) return 'missing TransposeConvOptions';
  const act = declineClampActivation(opts.fusedActivationFunction);
  if (act) return act;
  // each input value meets every tap of its filter: input elements x taps x output channels
  return declineSmall(filter.elementCount, input.elementCount, filter.dims[3] ?? 0, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
  const data = node.userData as HybridTconvData;
  const opts = node.builtinData as TransposeConvOptions | null;
  if (!opts) throw new KernelError(OP, node.index, 'missing TransposeConvOptions');
  checkArity(OP, node, [3, 4], 1);
  const { filter, input, bias, output } = transposeConvTensors(OP, context, node);
  expectKnownPadding(OP, node, opts.padding);
  const s = transposeConvShape(OP, node, opts, input, filter, output);
  const outC = s.outDepth;
  const { scale, perChannel } = hybridWeightScales(OP, node, 'filter', filter, 0, outC);
  const weights = hybridWeightsInt8(OP, context, node, 'filter', filter);
  if (!weights) throw new KernelError(OP, node.index, `hybrid filter (tensor ${filter.index}) must be a constant`);
  const [lo, hi] = calculateActivationRangeFloat(opts.fusedActivationFunction);
  // TFLite: the per-channel order (acc · factor) · scale, one scale repeated per channel
  const hyRegion = prepareHybridEpilogue(context, {
    perBatch: s.outHeight * s.outWidth,
    outC,
    mode: HybridMode.Depthwise,
    sums: null,
    scales: perChannel ?? new Float32Array(outC).fill(scale),
    bias: bias ? (bias.data as Float32Array) : null,
    clamp: true,
    lo,
    hi,
  });
  const region = context.allocatePersistentBuffer(TQ_BYTES);
  data.k = kernelsFor(OP, node, region);
  const packed = packTransposeConvFilter(context, weights, 0, s);
  const taps = s.filterHeight * s.filterWidth;
  const macs = s.batches * s.inHeight * s.inWidth * taps * s.inDepth * outC;
  const threads = threadsFor(options, macs, s.outHeight);
  data.par = parallelFor(region, threads, s.outHeight);
  data.tmp = requestThreadScratch(context, 64, threads);
  const p = region.i32;
  writeTransposeConvShape(p, s, packed);
  // one batch per call (its own zero point); the accumulators are the output tensor, scaled in place
  p[TQ.Batches] = 1;
  p[TQ.ActMin] = -128;
  p[TQ.ActMax] = 127;
  p[TQ.Raw] = 1;
  const inSize = s.inHeight * s.inWidth * s.inDepth;
  data.quant = requestHybridQuantScratch(context, s.batches, inSize, true, 0);
  data.fixed = constantInputCopies(context, node, [2])[0]!;
  data.params = region.offset;
  data.p = p;
  data.hp = hyRegion.offset;
  data.hy = hyRegion.i32;
  data.batches = s.batches;
  data.inBytes = inSize;
  data.outBytes = s.outHeight * s.outWidth * outC * 4;
  data.outH = s.outHeight;
  data.pixels = s.batches * s.outHeight * s.outWidth;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridTconvData;
  const k = data.k!;
  const quant = data.quant!;
  const q = quantizeHybridInput(context, quant, data.hy, k, inputOffset(context, node, 2, data.fixed));
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const { p, par, outH } = data;
  p[TQ.Tmp] = threadScratchOffset(context, data.tmp!);
  for (let b = 0; b < data.batches; b++) {
    const acc = output + b * data.outBytes;
    const x = q + b * data.inBytes;
    p[TQ.ZpIn] = hybridZeroPoint(context, quant, b);
    p[TQ.Acc] = acc;
    if (par) par.pool.run(k, par.instance, Fn.Tconv8, data.params, x, acc, 0, outH, 1, par.chunks);
    else k.qs8_tconv_run(data.params, x, acc, 0, outH, 0);
  }
  if (par) par.pool.run(k, par.instance, Fn.HybridEpilogue, data.hp, output, 0, 0, data.pixels, 1, par.chunks);
  else k.hybrid_epilogue(data.hp, output, 0, data.pixels);
}

/** The hybrid TRANSPOSE_CONV registration (float32 nodes with an int8 filter only). */
export function createTransposeConvHybrid(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<HybridTconvData> {
  return {
    builtinCode: BuiltinOperator.TRANSPOSE_CONV,
    version: 5,
    provider: PROVIDER,
    name: 'TRANSPOSE_CONV/wasm-hybrid-scatter',
    supports: (context, node) => supports(context, node, options),
    init: (): HybridTconvData => ({ ...emptyHybridKernelData(), inBytes: 0, outBytes: 0, outH: 0, pixels: 0, tmp: null }),
    prepare: (context, node) => prepare(context, node, options),
    invoke,
  };
}
