/**
 * What the hybrid kernels (float32 activations × int8 weights, the converter's dynamic-range
 * quantization: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL, SVDF) share: what `supports()` declines, the
 * epilogue's parameter block (HY, read by assembly/hybrid/epilogue.ts), and the run-time quantization of
 * the input into planned scratch buffers.
 *
 * The arithmetic is TFLite's, as ops-reference's hybrid kernels compute it: each batch of the float
 * input is quantized to int8 at invoke by hybrid_quantize (assembly/hybrid/quantize.ts: TFLite's
 * symmetric or asymmetric per-row quantization, the operations of kernel-support's `batchQuantizeFloats`
 * that ops-reference runs, in the same float32 and float64 steps); the int8 GEMM and depthwise tiles
 * of ops-wasm (W.Raw) accumulate it against the int8 weights packed once at prepare, exactly in int32;
 * `hybrid_epilogue` subtracts zero point × weight sum, scales by the batch's factor and the weight scale
 * with TFLite's float32 operations in TFLite's order, adds the bias and clamps. So the outputs equal
 * ops-reference's bit for bit.
 */
import { ActivationFunctionType, TensorType, type ArenaRegion, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { declineType } from '@micrort/kernel-support';
import type { KernelExports } from '../../wasm-module.js';
import { HY, HY_BYTES } from '../../generated/abi.js';
import { W, constantInputCopies } from '../kernel-common.js';
import type { Parallel } from '../parallel.js';

export { HY };

/** The float32 types of a hybrid kernel's input, output and bias. */
const FLOAT32: readonly TensorType[] = [TensorType.FLOAT32];

/**
 * The largest K (taps × input depth) of a hybrid convolution whose int32 accumulation cannot overflow:
 * |w| ≤ 128 and |q − zero point| ≤ 255, so K · 128 · 255 < 2^31. ops-reference sums exactly beyond it
 * (TFLite would wrap); such layers are declined.
 */
export const HYBRID_MAX_K = Math.floor((2 ** 31 - 1) / (128 * 255));

/**
 * Why a hybrid node's tensors are not handled, or null: float32 input and output, a constant filter of
 * one of `filterTypes`, a constant float32 bias or none, and positive finite weight scales, one or one per
 * output channel along `dimension` (`channels` of them).
 */
export function declineHybrid(
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  filterTypes: readonly TensorType[],
  dimension: number,
  channels: number,
): string | null {
  const why = declineType('input', input, FLOAT32) ?? declineType('output', output, FLOAT32) ?? declineType('filter', filter, filterTypes);
  if (why) return why;
  if (!filter.isConstant) return 'hybrid filter is not a constant (weights are packed at prepare)';
  if (bias && (bias.type !== TensorType.FLOAT32 || !bias.isConstant)) return 'hybrid bias is not a constant float32 tensor';
  const q = filter.quantization;
  if (!q || q.scale.length === 0 || !q.scale.every((s) => s > 0 && s < Infinity)) return 'hybrid filter without positive finite scales';
  if (q.scale.length > 1 && (q.quantizedDimension !== dimension || q.scale.length !== channels))
    return `hybrid filter with ${q.scale.length} scales along dimension ${q.quantizedDimension} (handles one, or ${channels} along ${dimension})`;
  return null;
}

/** Why a hybrid convolution's fused activation is declined (TFLite's hybrid convolutions clamp: NONE, RELU, RELU6, RELU_N1_TO_1), or null. */
export function declineClampActivation(activation: ActivationFunctionType): string | null {
  return activation === ActivationFunctionType.NONE ||
    activation === ActivationFunctionType.RELU ||
    activation === ActivationFunctionType.RELU6 ||
    activation === ActivationFunctionType.RELU_N1_TO_1
    ? null
    : `fused activation ${ActivationFunctionType[activation] ?? activation} (hybrid convolutions take NONE, RELU, RELU6, RELU_N1_TO_1)`;
}

/** How hybrid_epilogue scales (HY.Mode). */
export enum HybridMode {
  /** acc · factor, the per-tensor weight scale folded into the factor (scaleFactors). */
  Folded = 0,
  /** acc · (factor · channel scale): CONV_2D and FULLY_CONNECTED with per-channel scales. */
  PerChannel = 1,
  /** (acc · factor) · channel scale: DEPTHWISE_CONV_2D. */
  Depthwise = 2,
}

/** What a hybrid node's epilogue takes, at prepare. */
export interface HybridEpilogueSpec {
  perBatch: number;
  outC: number;
  mode: HybridMode;
  /** Per output channel, the sum of its weights (asymmetric inputs), else null. */
  sums: Int32Array | null;
  /** Per output channel, the weight scale (modes PerChannel and Depthwise), else null. */
  scales: Float32Array | null;
  /** The float32 bias (model bytes: copied into the arena), or null. */
  bias: Float32Array | null;
  /** Clamp to [lo, hi] (CONV_2D, DEPTHWISE_CONV_2D); FULLY_CONNECTED applies its activation afterwards. */
  clamp: boolean;
  lo: number;
  hi: number;
}

/** Copies `data` into a new persistent arena buffer; returns its offset (counted in the arena report). */
function persistentCopy(context: TfLiteContext, data: Int32Array | Float32Array): number {
  const region = context.allocatePersistentBuffer(Math.max(4, data.byteLength));
  region.u8.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return region.offset;
}

/** Allocates and writes the epilogue's parameter block HY (and its per-channel arrays); returns the block. */
export function prepareHybridEpilogue(context: TfLiteContext, s: HybridEpilogueSpec): ArenaRegion {
  const region = context.allocatePersistentBuffer(HY_BYTES);
  const h = region.i32;
  h.fill(0);
  h[HY.PerBatch] = s.perBatch;
  h[HY.OutC] = s.outC;
  h[HY.Mode] = s.mode;
  h[HY.Sums] = s.sums ? persistentCopy(context, s.sums) : 0;
  h[HY.Scales] = s.scales ? persistentCopy(context, Float32Array.from(s.scales)) : 0;
  h[HY.Bias] = s.bias ? persistentCopy(context, s.bias) : 0;
  h[HY.Clamp] = s.clamp ? 1 : 0;
  region.f32[HY.Lo] = s.lo;
  region.f32[HY.Hi] = s.hi;
  return region;
}

/** The scratch buffers of the run-time quantization (planned memory): int8 rows, factors, zero points. */
export interface HybridQuantScratch {
  quantized: number;
  factors: number;
  zeroPoints: number;
  batches: number;
  rowSize: number;
  asymmetric: boolean;
  /** Arena offset of the per-tensor weight scale folded into the factors (HybridMode.Folded: HY.Fold), else 0. */
  foldAt: number;
}

/** Requests the quantization's scratch buffers for `batches` rows of `rowSize` values. */
export function requestHybridQuantScratch(
  context: TfLiteContext,
  batches: number,
  rowSize: number,
  asymmetric: boolean,
  foldAt: number,
): HybridQuantScratch {
  return {
    quantized: context.requestScratchBufferInArena(Math.max(16, batches * rowSize + 16)),
    factors: context.requestScratchBufferInArena(Math.max(1, batches) * 4),
    zeroPoints: context.requestScratchBufferInArena(Math.max(1, batches) * 4),
    batches,
    rowSize,
    asymmetric,
    foldAt,
  };
}

/**
 * At invoke: quantizes the input (batches × rowSize float32 values at arena offset `input`) into the
 * int8 scratch rows with hybrid_quantize (TFLite's BatchQuantizeFloats, the operations of
 * kernel-support's batchQuantizeFloats in WebAssembly, the per-tensor weight scale folded into the
 * factors as scaleFactors does), points HY.Factors / HY.ZeroPoints at them; returns the quantized rows'
 * arena offset. Allocates nothing.
 */
export function quantizeHybridInput(
  context: TfLiteContext,
  s: HybridQuantScratch,
  hy: Int32Array,
  k: KernelExports,
  input: number,
): number {
  const q = context.getScratchBuffer(s.quantized).offset;
  const f = context.getScratchBuffer(s.factors).offset;
  const z = context.getScratchBuffer(s.zeroPoints).offset;
  k.hybrid_quantize(input, s.batches, s.rowSize, q, f, z, s.asymmetric ? 1 : 0, s.foldAt);
  hy[HY.Factors] = f;
  hy[HY.ZeroPoints] = z;
  return q;
}

/** The zero point of batch `b` after quantizeHybridInput (the zero row of a padded convolution holds it). */
export function hybridZeroPoint(context: TfLiteContext, s: HybridQuantScratch, b: number): number {
  return context.getScratchBuffer(s.zeroPoints).i32[b]!;
}

/** Per output channel `c` of `count`, the sum of the int8 weights at `w[c * stride0 + t * stride1]` for t < taps. */
export function weightSums(w: Int8Array, count: number, taps: number, stride0: number, stride1: number): Int32Array {
  const sums = new Int32Array(count);
  for (let c = 0; c < count; c++) {
    let s = 0;
    for (let t = 0; t < taps; t++) s += w[c * stride0 + t * stride1]!;
    sums[c] = s;
  }
  return sums;
}

/**
 * Op data every hybrid kernel here has (the window kernels' HybridWindowData and FULLY_CONNECTED's extend
 * it). Init: {@link emptyHybridKernelData}; the end of prepare: {@link finishHybridKernel}.
 */
export interface HybridKernelData {
  k: KernelExports | null;
  /** Offsets of the GEMM or depthwise tile's parameter block (W) and of the epilogue's (HY), and views of them. */
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
  par: Parallel | null;
}

/** Hybrid op data before prepare. */
export function emptyHybridKernelData(): HybridKernelData {
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
    par: null,
  };
}

/** The run-time quantization a hybrid kernel asks for: `batches` rows of `rowSize` values. */
export interface HybridQuantSpec {
  batches: number;
  rowSize: number;
  asymmetric: boolean;
  /** The per-tensor weight scale folded into the factors, else 0. */
  foldScale: number;
}

/**
 * The end of every hybrid kernel's prepare, once the tile's parameters (`params`: weights packed, window
 * scratch requested, `data.k`, `data.scratch`, `data.par` set) and the epilogue's (`epilogue`) are
 * written: the tile stores raw int32 accumulators and requantizes nothing (hybrid_epilogue scales them),
 * the quantization's scratch buffers are requested and a constant input is copied into the arena (unless
 * `copyInput` is false: a kernel that reads input 0 otherwise, as BATCH_MATMUL's adj_x LHS, transposed first).
 */
export function finishHybridKernel(
  context: TfLiteContext,
  node: Node,
  data: HybridKernelData,
  params: ArenaRegion,
  epilogue: ArenaRegion,
  q: HybridQuantSpec,
  copyInput = true,
): void {
  const p = params.i32;
  p[W.Raw] = 1;
  p[W.ExpandRq] = 0; // after requestWindowScratch, which sets it
  epilogue.f32[HY.Fold] = q.foldScale;
  const foldAt = q.foldScale !== 0 ? epilogue.offset + HY.Fold * 4 : 0;
  data.quant = requestHybridQuantScratch(context, q.batches, q.rowSize, q.asymmetric, foldAt);
  data.fixed = copyInput ? constantInputCopies(context, node, [0])[0]! : -1;
  data.params = params.offset;
  data.p = p;
  data.hp = epilogue.offset;
  data.hy = epilogue.i32;
  data.batches = q.batches;
}
