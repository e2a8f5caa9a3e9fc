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
import { W, inputOffset } from '../kernel-common.js';
import { bindWindowScratch } from '../window-scratch.js';
import { emptyHybridKernelData, finishHybridKernel, hybridZeroPoint, quantizeHybridInput, type HybridKernelData } from './hybrid-common.js';

/** Op data of a hybrid window kernel (init: {@link emptyHybridWindowData}; prepare: {@link finishHybridWindow}). */
export interface HybridWindowData extends HybridKernelData {
  /** Output pixels per batch, bytes of one quantized input image and of one batch's outputs. */
  perBatch: number;
  inImage: number;
  outBatchBytes: number;
  /** The tile: Fn.Conv (qs8_conv) or Fn.Dwconv (qs8_dwconv). */
  tile: Fn;
  /** Chunk alignment of a threaded job (GEMM tiles or pixel pairs). */
  align: number;
}

/** Op data before prepare. */
export function emptyHybridWindowData(): HybridWindowData {
  return { ...emptyHybridKernelData(), perBatch: 0, inImage: 0, outBatchBytes: 0, tile: Fn.Conv, align: 1 };
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
 * `data.par`, `data.tile`, `data.align` set) and the epilogue's (`epilogue`) are written: hybrid-common's
 * finishHybridKernel, and the geometry invoke walks by.
 */
export function finishHybridWindow(
  context: TfLiteContext,
  node: Node,
  data: HybridWindowData,
  params: ArenaRegion,
  epilogue: ArenaRegion,
  s: HybridWindowSpec,
): void {
  finishHybridKernel(context, node, data, params, epilogue, {
    batches: s.batches,
    rowSize: s.inImage,
    asymmetric: s.asymmetric,
    foldScale: s.asymmetric ? 0 : s.foldScale,
  });
  data.perBatch = s.perBatch;
  data.inImage = s.inImage;
  data.outBatchBytes = s.perBatch * s.outC * 4;
}

/** Invoke of a hybrid window kernel (see the module's comment). */
export function invokeHybridWindow(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridWindowData;
  // an empty output (a zero-sized dimension): nothing to compute, and the epilogue divides by perBatch
  if (data.perBatch === 0) return;
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
