/**
 * What the float32 transposed convolutions (TRANSPOSE_CONV, MediaPipe's Convolution2DTransposeBias)
 * share: f32_tconv's parameter block (TC, assembly/float/transpose-conv.ts) and the parameter block of
 * its GEMM (f32_conv's G, direct over the input rows), the weights packed once at prepare as that GEMM's
 * [inC x (KH*KW*OC)] right-hand side (columns tap-major: tap t, channel oc is column t * OC + oc),
 * the columns in the node's scratch buffer, and the invoke (the output rows split across the pool's
 * threads when the node is large enough; each output element sums in the same order either way).
 */
import type { Node, TfLiteContext } from '@micrort/core';
import type { TransposeConvShape } from '@micrort/kernel-support';
import { G, G_BYTES, TC, TC_BYTES } from '../../generated/abi.js';
import type { KernelOptions } from '../../options.js';
import { Fn } from '../../threads/control.js';
import type { JobExports } from '../../threads/pool.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { parallelFor, threadsFor, type Parallel, requestThreadScratch, threadScratchOffset, type ThreadScratch } from '../parallel.js';
import { floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';
import { gemmPackedFloats, packGemmF32 } from './weight-pack-f32.js';

/** Bytes of columns one GEMM call fills at most (a few input rows; at least one). */
export const TCONV_COLUMN_BYTES = 64 * 1024;

/** Input positions of a transposed convolution's tensors (bias -1 when it has none). */
export interface TransposeConvInputs {
  input: number;
  filter: number;
  bias: number;
}

/** Op data of a float32 transposed convolution. */
export interface TransposeConvF32Data {
  k: FloatKernelExports | null;
  /** Arena offset of the TC block. */
  params: number;
  /** The TC block's words (Bias and Col are set at invoke). */
  p: Int32Array;
  pos: TransposeConvInputs;
  /** Arena offsets of the constant input's and bias's copies, or -1. */
  input: number;
  bias: number;
  /** Per thread, the columns (bound into TC.Col at invoke). */
  cols: ThreadScratch | null;
  packed: Float32Array;
  /** The filter is not fixed at prepare: packed again before every invoke. */
  dynamic: boolean;
  outC: number;
  inC: number;
  taps: number;
  rowOf: (c: number) => number;
  outH: number;
  par: Parallel | null;
}

export function initTransposeConvF32(): TransposeConvF32Data {
  return {
    k: null,
    params: 0,
    p: new Int32Array(0),
    pos: { input: 0, filter: 1, bias: -1 },
    input: -1,
    bias: -1,
    cols: null,
    packed: new Float32Array(0),
    dynamic: false,
    outC: 0,
    inC: 0,
    taps: 0,
    rowOf: (c) => c,
    outH: 0,
    par: null,
  };
}

/**
 * Prepares the node of geometry `s`: parameter blocks, packed weights (now when the filter is fixed),
 * the columns' scratch buffer (one share per thread); `act` the fused activation's range, null for none.
 */
export function prepareTransposeConvF32(
  op: string,
  context: TfLiteContext,
  node: Node,
  options: Readonly<KernelOptions>,
  s: TransposeConvShape,
  pos: TransposeConvInputs,
  act: readonly [number, number] | null,
): void {
  const data = node.userData as TransposeConvF32Data;
  const region = context.allocatePersistentBuffer(TC_BYTES);
  const gemm = context.allocatePersistentBuffer(G_BYTES);
  data.k = floatKernelsFor(op, node, region);
  const taps = s.filterHeight * s.filterWidth;
  const outC = s.outDepth;
  const N = taps * outC;
  const K = s.inDepth;
  data.pos = pos;
  data.outC = outC;
  data.inC = K;
  data.taps = taps;
  // column t * outC + oc is filter row oc * taps + t
  data.rowOf = (c) => (c % outC) * taps + Math.floor(c / outC);
  const copies = constantInputCopies(context, node, pos.bias >= 0 ? [pos.input, pos.bias] : [pos.input]);
  data.input = copies[0]!;
  data.bias = pos.bias >= 0 ? copies[1]! : -1;
  const packed = context.allocatePersistentBuffer(gemmPackedFloats(N, K) * 4);
  data.packed = packed.f32;
  const filter = context.getTensor(node.inputs[pos.filter]!);
  data.dynamic = !hasFixedData(filter);
  if (!data.dynamic) packGemmF32(data.packed, filter.data as Float32Array, null, N, K, 0, K, 1, 0, data.rowOf);

  const g = gemm.i32;
  g.fill(0, 0, G.Words);
  g[G.OutC] = N;
  g[G.K] = K;
  g[G.Packed] = packed.offset;
  g[G.RowBytes] = K * 4;
  gemm.f32[G.ActMin] = -Infinity;
  gemm.f32[G.ActMax] = Infinity;

  const pixels = s.batches * s.inHeight * s.inWidth;
  const threads = threadsFor(options, 4 * pixels * N * K, s.outHeight);
  const rowColumnBytes = s.inWidth * N * 4;
  const chunkRows = Math.max(1, Math.min(s.inHeight, Math.floor(TCONV_COLUMN_BYTES / rowColumnBytes)));
  const colBytes = chunkRows * rowColumnBytes;
  data.cols = requestThreadScratch(context, colBytes, threads);
  data.outH = s.outHeight;
  data.par = parallelFor(region, threads, s.outHeight);

  const p = region.i32;
  p.fill(0, 0, TC.Words);
  p[TC.Gemm] = gemm.offset;
  p[TC.Batches] = s.batches;
  p[TC.InH] = s.inHeight;
  p[TC.InW] = s.inWidth;
  p[TC.InRowBytes] = s.inWidth * K * 4;
  p[TC.OutH] = s.outHeight;
  p[TC.OutW] = s.outWidth;
  p[TC.OutC] = outC;
  p[TC.KH] = s.filterHeight;
  p[TC.KW] = s.filterWidth;
  p[TC.StrideH] = s.strideHeight;
  p[TC.StrideW] = s.strideWidth;
  p[TC.PadH] = s.padHeight;
  p[TC.PadW] = s.padWidth;
  p[TC.ChunkRows] = chunkRows;
  p[TC.ColBytes] = colBytes;
  p[TC.Clamp] = act ? 1 : 0;
  region.f32[TC.ActMin] = act ? act[0] : -Infinity;
  region.f32[TC.ActMax] = act ? act[1] : Infinity;
  data.p = p;
  data.params = region.offset;
}

/** Invoke: repacks a dynamic filter, binds the columns and the bias, then runs f32_tconv (or its output rows on the pool's threads). */
export function invokeTransposeConvF32(context: TfLiteContext, node: Node): void {
  const data = node.userData as TransposeConvF32Data;
  const pos = data.pos;
  if (data.dynamic) {
    const filter = context.getEvalTensor(node.inputs[pos.filter]!).data as Float32Array;
    packGemmF32(data.packed, filter, null, data.taps * data.outC, data.inC, 0, data.inC, 1, 0, data.rowOf);
  }
  const p = data.p;
  p[TC.Col] = threadScratchOffset(context, data.cols!);
  p[TC.Bias] = pos.bias >= 0 ? inputOffset(context, node, pos.bias, data.bias) : 0;
  const input = inputOffset(context, node, pos.input, data.input);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const par = data.par;
  if (par)
    par.pool.run(data.k as unknown as JobExports, par.instance, Fn.F32Tconv, data.params, input, output, 0, data.outH, 1, par.chunks);
  else data.k!.f32_tconv(data.params, input, output);
}
