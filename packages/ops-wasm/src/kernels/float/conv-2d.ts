/**
 * CONV_2D, float32, in WebAssembly: f32_conv (assembly/float/gemm.ts), a 4-pixel x 8-channel GEMM tile
 * over the input itself (1x1, stride 1, no padding) or over compact rows gathered per block of four
 * output pixels, weights and bias packed at prepare into the arena, the fused activation clamped in the
 * tile. Direct layers whose fixed weights are mostly zeros (`sparseMinZeros`; pruned models, through DENSIFY) run
 * assembly/float/sparse-gemm.ts instead, which multiplies only the non-zero weights (the same outputs for
 * finite inputs). Declines other types, grouped convolution, and fused activations other than
 * RELU, RELU6 and RELU_N1_TO_1 (the next provider serves the node).
 */
import {
  BuiltinOperator,
  KernelError,
  checkArity,
  getInput,
  getOptionalInput,
  type Conv2DOptions,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, declineSmall, type KernelOptions } from '../../options.js';
import { PROVIDER } from '../../provider.js';
import { declineNonFloat, hasFixedData } from './float-common.js';
import { SPARSE_BLOCK_CHANNEL_BYTES, countNonZero, packSparseF32, sparseWords } from './weight-pack-sparse.js';
import { parallelFor, threadsFor, requestThreadScratch } from '../parallel.js';
import { absorbInputPad } from '../pad-absorb.js';
import { G, initGemmData, invokeGemm, prepareGemm, type GemmData } from './gemm-common.js';
import {
  activationRangeFloat,
  convWindow,
  declineActivation,
  declineArity,
  expectWindowOutput,
  setConvOutputShape,
} from '@micrort/kernel-support';

const OP = 'CONV_2D';

function supports(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): true | string {
  const arity = declineArity(node, [2, 3], 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const bias = node.inputs.length > 2 && node.inputs[2]! >= 0 ? context.getTensor(node.inputs[2]!) : null;
  const output = context.getTensor(node.outputs[0]!);
  const why = declineNonFloat([input, filter, bias, output]);
  if (why) return why;
  const opts = node.builtinData as Conv2DOptions | null;
  const act = opts ? declineActivation(opts.fusedActivationFunction) : null;
  if (act) return act;
  if (input.dims.length === 4 && filter.dims.length === 4 && input.dims[3] !== filter.dims[3])
    return `grouped convolution (input depth ${input.dims[3]}, filter depth ${filter.dims[3]})`;
  return declineSmall(filter.elementCount, output.elementCount, filter.dims[0] ?? 0, options) ?? true;
}

function prepare(context: TfLiteContext, node: Node, options: Readonly<KernelOptions>): void {
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
  if (bias && bias.elementCount !== outC)
    throw new KernelError(OP, node.index, `bias (tensor ${bias.index}) has ${bias.elementCount} elements, expected ${outC}`);
  const pad = expectWindowOutput(OP, node, convWindow(input, filter, opts), opts.padding, output);
  const [actMin, actMax] = activationRangeFloat(OP, node, opts.fusedActivationFunction);
  const { inH, inW, padH, padW } = absorbInputPad(context, node, opts.padding, input, pad);
  const g = { outH: pad.outHeight, outW: pad.outWidth, padH, padW };

  const taps = kH! * kW!;
  const direct = taps === 1 && opts.strideH === 1 && opts.strideW === 1 && g.padH === 0 && g.padW === 0 && g.outH === inH && g.outW === inW;
  const K = taps * inC!;
  // direct layers with fixed, mostly zero weights (pruned models) multiply only the non-zero ones
  const nonZero =
    direct && hasFixedData(filter) && (!bias || hasFixedData(bias)) ? countNonZero(filter.data as Float32Array, outC!, K) : -1;
  const weights = outC! * K;
  const sparse = nonZero >= 0 && (weights === 0 ? 0 : (weights - nonZero) / weights) >= options.sparseMinZeros;
  const { p, region } = prepareGemm(OP, context, node, filter, bias, outC!, K, actMin, actMax, !sparse);
  const total = batches! * g.outH * g.outW;
  const tiles = Math.ceil(total / 4);
  // float work weighs about four int8 multiply-accumulates
  const threads = threadsFor(options, 4 * total * outC! * K, tiles);
  if (sparse) prepareSparse(context, node, p, filter, bias, outC!, K, nonZero, threads);
  // gathered rows: K floats rounded up to 4, plus 16 bytes a tap's last copy may spill into; four per thread
  const rowBytes = direct ? inC! * 4 : (((K + 3) & ~3) + 4) * 4;
  const data = node.userData as GemmData;
  data.rows = direct ? null : requestThreadScratch(context, 4 * rowBytes, threads);
  data.total = total;
  data.par = parallelFor(region, threads, tiles);
  p[G.Total] = total;
  p[G.OutHW] = g.outH * g.outW;
  p[G.OutW] = g.outW;
  p[G.InH] = inH!;
  p[G.InW] = inW!;
  p[G.InC] = inC!;
  p[G.InImageBytes] = inH! * inW! * inC! * 4;
  p[G.KH] = kH!;
  p[G.KW] = kW!;
  p[G.StrideH] = opts.strideH;
  p[G.StrideW] = opts.strideW;
  p[G.DilH] = opts.dilationHFactor;
  p[G.DilW] = opts.dilationWFactor;
  p[G.PadH] = g.padH;
  p[G.PadW] = g.padW;
  p[G.Gather] = direct ? 0 : 1; // G.Rows: bound at invoke
  p[G.RowBytes] = rowBytes;
}

/**
 * Packs the non-zero weights of a sparse direct layer (assembly/float/sparse-gemm.ts) into G.Sparse and
 * requests the scratch of its transposed 16-pixel blocks, one per thread.
 */
function prepareSparse(
  context: TfLiteContext,
  node: Node,
  p: Int32Array,
  filter: Tensor,
  bias: Tensor | null,
  outC: number,
  K: number,
  nonZero: number,
  threads: number,
): void {
  const w = filter.data as Float32Array;
  const region = context.allocatePersistentBuffer(sparseWords(outC, nonZero) * 4);
  packSparseF32(region.i32, region.f32, w, bias ? (bias.data as Float32Array) : null, outC, K);
  p[G.Sparse] = region.offset;
  (node.userData as GemmData).sparseScratch = requestThreadScratch(context, K * SPARSE_BLOCK_CHANNEL_BYTES, threads);
}

/** The float32 CONV_2D registration. */
export function createConv2DF32(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration<GemmData> {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    version: 8,
    provider: PROVIDER,
    name: 'CONV_2D/wasm-f32-gemm4x8',
    supports: (context, node) => supports(context, node, options),
    init: initGemmData,
    prepare: (context, node) => prepare(context, node, options),
    invoke: invokeGemm,
  };
}
