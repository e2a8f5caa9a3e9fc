/**
 * What the 16x8 CONV_2D, FULLY_CONNECTED and DEPTHWISE_CONV_2D registrations (conv-2d-16x8.ts,
 * fully-connected-16x8.ts, depthwise-conv-2d-16x8.ts) share: the supports() checks, the C16 block's
 * output stage (bias and requantization words) and weight packing for qs16_conv_run
 * (assembly/int8/conv-16x8.ts).
 */
import { TensorType, type ArenaRegion, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { INT8_ONLY, declineAsymmetric, declineType } from '@micrort/kernel-support';
import { C16 } from '../generated/abi.js';
import { Fn } from '../threads/control.js';
import type { KernelExports } from '../wasm-module.js';
import { RQ_WORDS, inputOffset, writeRequantBlock } from './kernel-common.js';
import { threadScratchOffset, type Parallel, type ThreadScratch } from './parallel.js';

const INT16_ONLY: readonly TensorType[] = [TensorType.INT16];

/**
 * The largest accumulation depth (values summed per output) taken: every product of an int16 and an
 * int8 value is at most 2^22 in magnitude, so with fewer than 2^25 of them and an int64 bias below 2^47
 * (TFLM's own limit) the int64 sum stays below 2^48 and its product with the 16-bit reduced multiplier
 * (< 2^15) plus the rounding term below 2^63: requant64 is exact.
 */
export const MAX_DEPTH_16X8 = 2 ** 25 - 1;

/**
 * The largest output multiplier (input scale x filter scale / output scale) taken with an int64 bias:
 * TFLM's shift is then at most 14, so requant64's total right shift 15 - shift is at least 1.
 */
const MAX_WIDE_MULTIPLIER = 2 ** 13;

/**
 * Why a 16x8 node is not handled, or null: int16 input and output with zero point 0, a constant
 * symmetric int8 filter, no bias or a constant one of `biasTypes` (int64 values in [-2^47, 2^47), as
 * TFLM requires), at most MAX_DEPTH_16X8 products per output (`depth`), and with an int64 accumulator
 * (`wide`) an output multiplier below 2^13.
 */
export function decline16x8(
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  biasTypes: readonly TensorType[],
  depth: number,
  wide: boolean,
): string | null {
  const why =
    declineType('input', input, INT16_ONLY) ?? declineType('output', output, INT16_ONLY) ?? declineType('filter', filter, INT8_ONLY);
  if (why) return why;
  if (input.params.zeroPoint !== 0) return `input zero point ${input.params.zeroPoint} (16x8 handles 0)`;
  if (output.params.zeroPoint !== 0) return `output zero point ${output.params.zeroPoint} (16x8 handles 0)`;
  if (!filter.isConstant) return 'filter is not a constant (weights are packed at prepare)';
  const asym = declineAsymmetric('filter', filter);
  if (asym) return asym;
  if (bias) {
    if (!biasTypes.includes(bias.type) || !bias.isConstant)
      return `bias is not a constant ${biasTypes.map((t) => TensorType[t]!.toLowerCase()).join(' or ')} tensor`;
    if (bias.type === TensorType.INT64) {
      const words = new Int32Array(bias.bytes.buffer, bias.bytes.byteOffset, bias.bytes.byteLength >> 2);
      for (let i = 1; i < words.length; i += 2)
        if (words[i]! >= 32768 || words[i]! < -32768) return `int64 bias element ${i >> 1} outside [-2^47, 2^47)`;
    }
  }
  if (depth > MAX_DEPTH_16X8)
    return `${depth} products per output (handles at most ${MAX_DEPTH_16X8}, the bound of exact int64 requantization)`;
  if (wide) {
    const scales = filter.quantization?.scale ?? [];
    let m = 0;
    for (let i = 0; i < scales.length; i++) m = Math.max(m, (input.params.scale * scales[i]!) / output.params.scale);
    if (m >= MAX_WIDE_MULTIPLIER) return `output multiplier ${m} (handles below 2^13 with an int64 accumulator)`;
  }
  return null;
}

/**
 * Writes the C16 output stage: Wide, Bias (padded to a multiple of 8 channels, int64 when `wide`, else
 * int32; zeros without a bias), Rq (Wide: per channel TFLM's reduced 16-bit multiplier and the total
 * shift 15 - shift; else the RQ blocks of requantLanes), ActMin and ActMax.
 */
export function writeOutputStage16(
  context: TfLiteContext,
  p: Int32Array,
  wide: boolean,
  bias: Tensor | null,
  multiplier: ArrayLike<number>,
  shift: ArrayLike<number>,
  channels: number,
  actMin: number,
  actMax: number,
): void {
  const padded = Math.ceil(channels / 8) * 8;
  const biasRegion = context.allocatePersistentBuffer(padded * (wide ? 8 : 4));
  biasRegion.u8.fill(0);
  if (bias) biasRegion.u8.set(bias.bytes);
  const m = Int32Array.from({ length: channels }, (_, c) => multiplier[c]!);
  const s = Int32Array.from({ length: channels }, (_, c) => shift[c]!);
  let rq: ArenaRegion;
  if (wide) {
    rq = context.allocatePersistentBuffer(channels * 8);
    for (let c = 0; c < channels; c++) {
      rq.i32[2 * c] = m[c]! < 0x7fff0000 ? (m[c]! + 32768) >> 16 : 0x7fff;
      rq.i32[2 * c + 1] = 15 - s[c]!;
    }
  } else {
    const blocks = Math.ceil(channels / 4);
    rq = context.allocatePersistentBuffer(blocks * RQ_WORDS * 4);
    for (let b = 0; b < blocks; b++) writeRequantBlock(rq.i32, b * RQ_WORDS, b * 4, channels, m, s);
  }
  p[C16.Wide] = wide ? 1 : 0;
  p[C16.Bias] = biasRegion.offset;
  p[C16.Rq] = rq.offset;
  p[C16.ActMin] = actMin;
  p[C16.ActMax] = actMax;
}

/**
 * The int8 weights `w` ([channels][depth], depth = K values a row) as int16 in a new persistent buffer,
 * as qs16_conv_run reads them (C16.Packed): per output channel `k8` values (zeros past `depth`), zero
 * channels up to a multiple of 4.
 */
export function packGemm16(context: TfLiteContext, w: Int8Array, channels: number, depth: number, k8: number): ArenaRegion {
  const cols = Math.ceil(channels / 4) * 4;
  const packed = context.allocatePersistentBuffer(cols * k8 * 2);
  const w16 = packed.i16;
  w16.fill(0, 0, cols * k8);
  for (let c = 0; c < channels; c++) for (let k = 0; k < depth; k++) w16[c * k8 + k] = w[c * depth + k]!;
  return packed;
}

/** What the 16x8 CONV_2D and FULLY_CONNECTED kernels keep per node: both run qs16_conv_run over `total` GEMM rows. */
export interface Gemm16Data {
  k: KernelExports | null;
  params: number;
  p: Int32Array;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
  /** Per thread, two im2col rows (bound into C16.Scratch at invoke), null when the input holds the rows. */
  rows: ThreadScratch | null;
  /** GEMM rows: CONV_2D's output pixels, FULLY_CONNECTED's batches. */
  total: number;
  par: Parallel | null;
}

/** A node's Gemm16Data before prepare. */
export function initGemm16(): Gemm16Data {
  return { k: null, params: 0, p: new Int32Array(0), fixed: -1, rows: null, total: 0, par: null };
}

/** The invoke of the 16x8 CONV_2D and FULLY_CONNECTED kernels: qs16_conv_run over the rows, on the pool when the node has a share of it. */
export function invokeGemm16(context: TfLiteContext, node: Node): void {
  const data = node.userData as Gemm16Data;
  if (data.rows) data.p[C16.Scratch] = threadScratchOffset(context, data.rows);
  const input = inputOffset(context, node, 0, data.fixed);
  const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
  const k = data.k!;
  const par = data.par;
  if (par) par.pool.run(k, par.instance, Fn.Conv16, data.params, input, output, 0, data.total, 2, par.chunks);
  else k.qs16_conv_run(data.params, input, output, 0, data.total, 0);
}
