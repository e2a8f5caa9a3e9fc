/**
 * What the hybrid window kernels (CONV_2D and DEPTHWISE_CONV_2D) share: their op data, the end of
 * prepare that fills it, and invoke. At invoke the float32 input is quantized per batch
 * (quantizeHybridInput), the int8 tile (qs8_conv, the GEMM, or qs8_dwconv) runs batch by batch with that
 * batch's zero point in its zero row and stores raw int32 accumulators (W.Raw), and hybrid_epilogue
 * scales every output pixel to float32 — tile and epilogue split over the node's threads when it has a
 * pool. Allocates nothing in invoke.
 */
import type { ArenaRegion, Node, TfLiteContext } from '@micrort/core';
import { Fn } from '../../threads/control.js';
import type { KernelExports } from '../../wasm-module.js';
import { W, constantInputCopies, inputOffset } from '../kernel-common.js';
import type { Parallel } from '../parallel.js';
import { bindWindowScratch } from '../window-scratch.js';
import { hybridZeroPoint, quantizeHybridInput, requestHybridQuantScratch, type HybridQuantScratch } from './hybrid-common.js';

/** Op data of a hybrid window kernel (init: {@link emptyHybridWindowData}; prepare: {@link finishHybridWindow}). */
export interface HybridWindowData {
  k: KernelExports | null;
  /** Offsets of the tile's parameter block (W) and of the epilogue's (HY), and views of them. */
  params: number;
  hp: number;
  p: Int32Array;
  hy: Int32Array;
  /** The window scratch buffer (requestWindowScratch), -1 before prepare. */
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
  /** The tile: Fn.Conv (qs8_conv) or Fn.Dwconv (qs8_dwconv). */
  tile: Fn;
  /** Chunk alignment of a threaded job (GEMM tiles or pixel pairs). */
  align: number;
}

/** Op data before prepare. */
export function emptyHybridWindowData(): HybridWindowData {
  return {
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
    tile: Fn.Conv,
    align: 1,
  };
}

/** The layer's geometry and input quantization, for {@link finishHybridWindow}. */
export interface HybridWindowSpec {
  batches: number;
  /** Values of one input image (H × W × C) and output pixels per batch. */
  inImage: number;
  perBatch: number;
  outC: number;
  /** Asymmetric per-batch input quantization, else symmetric with `foldScale` folded into the factors. */
  asymmetric: boolean;
  foldScale: number;
}

/**
 * The end of prepare, once the tile's parameters (`params`, weights packed, window scratch requested,
 * `data.par`, `data.tile`, `data.align` set) and the epilogue's (`epilogue`) are written: raw int32
 * accumulators, no requantization, the quantization's scratch buffers and the constant input's copy.
 */
export function finishHybridWindow(
  context: TfLiteContext,
  node: Node,
  data: HybridWindowData,
  params: ArenaRegion,
  epilogue: ArenaRegion,
  s: HybridWindowSpec,
): void {
  const p = params.i32;
  p[W.Raw] = 1;
  p[W.ExpandRq] = 0; // no requantization: hybrid_epilogue scales the int32 accumulators
  data.quant = requestHybridQuantScratch(context, s.batches, s.inImage, s.asymmetric, s.asymmetric ? 0 : s.foldScale);
  data.fixed = constantInputCopies(context, node, [0])[0]!;
  data.params = params.offset;
  data.p = p;
  data.hp = epilogue.offset;
  data.hy = epilogue.i32;
  data.batches = s.batches;
  data.perBatch = s.perBatch;
  data.inImage = s.inImage;
  data.outBatchBytes = s.perBatch * s.outC * 4;
}

/** Invoke of a hybrid window kernel (see the module's comment). */
export function invokeHybridWindow(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridWindowData;
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
      par.pool.run(k, par.instance, data.tile, data.params, input, out, 0, data.perBatch, data.align, par.chunks);
    } else if (data.tile === Fn.Conv) k.qs8_conv(data.params, input, out);
    else k.qs8_dwconv(data.params, input, out);
  }
  const pixels = data.batches * data.perBatch;
  // the epilogue splits by output pixels on the node's threads too
  if (par) par.pool.run(k, par.instance, Fn.HybridEpilogue, data.hp, output, 0, 0, pixels, 1, par.chunks);
  else k.hybrid_epilogue(data.hp, output, 0, pixels);
}
