/**
 * Packing constant weights, once at prepare, into the layouts the wasm microkernels read (see
 * assembly/int8/conv.ts and depthwise-conv.ts). Weights stay int8 (the kernels sign-extend them with
 * `v128.load8x8_s`), so they cost their model bytes plus the folded biases (the requantization reads
 * TFLM's own per-channel multipliers and shifts, see window-scratch.ts). The input zero point is folded
 * into the bias: Σ w·(x − zp) + b = Σ w·x + (b − zp·Σ w), in int32 arithmetic that wraps as TFLM's does.
 */
import type { TfLiteContext } from '@micrort/core';
import { W, extScratchBytes } from './kernel-common.js';

/** Bias with `-zp * sum(weights of the channel)` added; `sums[c]` is the channel's weight sum. */
function foldedBias(bias: Int32Array | null, sums: Int32Array, zpIn: number): Int32Array {
  const out = new Int32Array(sums.length);
  for (let c = 0; c < sums.length; c++) out[c] = ((bias ? bias[c]! : 0) - Math.imul(zpIn, sums[c]!)) | 0;
  return out;
}

/** The GEMM's channel groups: full groups of eight, and a last group of four when at most four channels are left. */
export function gemmGroups(outC: number): { full: number; half: boolean } {
  const rest = outC & 7;
  return rest >= 1 && rest <= 4 ? { full: outC >> 3, half: true } : { full: (outC + 7) >> 3, half: false };
}

/**
 * Bytes of the GEMM packing of `outC` channels over `taps` taps of `kb8` 8-value slices (biases and int8
 * weights, or with `size` 2 the int16 weights of a uint8 layer).
 */
export function gemmPackedBytes(outC: number, taps: number, kb8: number, size = 1): number {
  const { full, half } = gemmGroups(outC);
  const slices = taps * kb8;
  return full * (32 + slices * 64 * size) + (half ? 16 + slices * 32 * size : 0);
}

/**
 * The weights the GEMM and depthwise packings take: an int8 filter as it is; a uint8 filter (TFLite's
 * asymmetric quantization) as int16 `w - filter zero point`, in [-255, 255] (the kernels read them as
 * int16 and zero-extend the uint8 activations: every dot_i16x8_s product and pair sum stays exact).
 */
export function packableWeights(filter: { type: number; data: ArrayBufferView; params: { zeroPoint: number } }): Int8Array | Int16Array {
  if (!(filter.data instanceof Uint8Array)) return filter.data as Int8Array;
  const u = filter.data;
  const zp = filter.params.zeroPoint;
  const w = new Int16Array(u.length);
  for (let i = 0; i < u.length; i++) w[i] = u[i]! - zp;
  return w;
}

/**
 * Packs filter `[outC, taps, inC]` (int8, row-major) for qs8_conv into a new persistent buffer and sets
 * W.Packed. Per group of eight output channels: the eight folded biases (int32),
 * then per tap and 8-value slice, for each rotation j = 0..3, the int8 weights of channels 0-3 and then
 * 4-7, lane l (channel l of the half) holding the pair (w[2p], w[2p+1]) with p = (l + j) mod 4 (zero
 * past inC and outC): 64 bytes per slice, each half sign-extended in the loop by `v128.load8x8_s`. A
 * last group of at most four channels has four biases and only the first half (32 bytes per slice).
 */
export function packGemm(
  context: TfLiteContext,
  p: Int32Array,
  filter: Int8Array | Int16Array,
  outC: number,
  taps: number,
  inC: number,
  kb8: number,
  bias: Int32Array | null,
  zpIn: number,
): void {
  const sums = new Int32Array(outC);
  for (let c = 0; c < outC; c++) {
    let s = 0;
    for (let i = 0, n = taps * inC, base = c * n; i < n; i++) s += filter[base + i]!;
    sums[c] = s;
  }
  const b = foldedBias(bias, sums, zpIn);
  const size = filter instanceof Int16Array ? 2 : 1;
  const dst = context.allocatePersistentBuffer(gemmPackedBytes(outC, taps, kb8, size));
  // int16 weights (uint8 layers) at twice the int8 layout's byte offsets
  const elems = size === 2 ? dst.i16 : dst.i8;
  const words = dst.i32;
  const slices = taps * kb8;
  dst.u8.fill(0);
  const { full, half } = gemmGroups(outC);
  let at = 0;
  for (let g = 0; g < full + (half ? 1 : 0); g++) {
    const width = g < full ? 8 : 4;
    for (let j = 0; j < width; j++) if (g * 8 + j < outC) words[(at >> 2) + j] = b[g * 8 + j]!;
    const w0 = (at + 4 * width) / size; // in elements
    const sliceBytes = 8 * width; // four rotations x (width / 4) halves x 8 weights
    for (let j = 0; j < width; j++) {
      const c = g * 8 + j;
      if (c >= outC) break;
      const h = j >> 2;
      const l = j & 3;
      for (let t = 0; t < taps; t++) {
        const src = (c * taps + t) * inC;
        for (let i = 0; i < inC; i++) {
          const slice = t * kb8 + (i >> 3);
          const pair = (i & 7) >> 1;
          const rot = (pair - l + 4) & 3; // rotation j where lane l holds pair (l + j) mod 4
          elems[w0 + slice * sliceBytes + rot * (2 * width) + h * 8 + l * 2 + (i & 1)] = filter[src + i]!;
        }
      }
    }
    at = (w0 + slices * sliceBytes) * size;
  }
  p[W.Packed] = dst.offset;
}

/** The GEMV layout's pieces: full groups of eight channels, a group of four, then 0-3 single channels; whole slices, then pairs. */
export function gemvShape(outC: number, K: number): { full: number; half: boolean; narrow: number; slices: number; pairs: number } {
  return { full: outC >> 3, half: (outC & 4) !== 0, narrow: outC & 3, slices: K >> 3, pairs: ((K & 7) + 1) >> 1 };
}

/**
 * Bytes of the GEMV packing of `outC` channels over `K` values (biases and int8 weights, or with `size` 2
 * the int16 weights of a uint8 layer): the model's weights and biases, plus one byte per channel of an odd
 * depth's last pair.
 */
export function gemvPackedBytes(outC: number, K: number, size = 1): number {
  const { full, half, narrow, slices, pairs } = gemvShape(outC, K);
  return full * (32 + (slices * 64 + pairs * 16) * size) + (half ? 16 + (slices * 32 + pairs * 8) * size : 0) + narrow * (4 + K * size);
}

/**
 * Packs filter `[outC, K]` (int8 row-major, or int16 for uint8 layers) for qs8_conv's one-pixel GEMM (gemv in
 * assembly/int8/conv.ts) into a new persistent buffer and returns its offset. Nothing is padded, so the
 * packing costs the model's weights (and folded biases):
 * - per group of eight channels: the eight folded biases (int32); per whole 8-value slice of K, for each
 *   rotation j = 0..3, channels 0-3 then 4-7, lane l holding the pair (w[2p], w[2p+1]) with p = (l + j) mod 4
 *   (as packGemm); then per pair p of the last K mod 8 values (rounded up to pairs), channels 0-3 then 4-7,
 *   lane l holding channel l's pair p (the kernel broadcasts the input's pair p to every lane);
 * - a group of four channels when outC mod 8 >= 4: the same with channels 0-3 only;
 * - the last outC mod 4 channels: their folded biases, then each channel's K weights as they are (the
 *   kernel reads them eight at a time against the input, its last slice masked past K).
 */
export function packGemv(
  context: TfLiteContext,
  filter: Int8Array | Int16Array,
  outC: number,
  K: number,
  bias: Int32Array | null,
  zpIn: number,
): number {
  const sums = new Int32Array(outC);
  for (let c = 0; c < outC; c++) {
    let s = 0;
    for (let i = 0, base = c * K; i < K; i++) s += filter[base + i]!;
    sums[c] = s;
  }
  const b = foldedBias(bias, sums, zpIn);
  const size = filter instanceof Int16Array ? 2 : 1;
  const dst = context.allocatePersistentBuffer(gemvPackedBytes(outC, K, size));
  const elems = size === 2 ? dst.i16 : dst.i8;
  const bytes = dst.u8;
  dst.u8.fill(0);
  const { full, half, narrow, slices, pairs } = gemvShape(outC, K);
  let at = 0; // bytes
  for (let g = 0; g < full + (half ? 1 : 0); g++) {
    const width = g < full ? 8 : 4;
    for (let j = 0; j < width; j++) new DataView(bytes.buffer, bytes.byteOffset + at + 4 * j, 4).setInt32(0, b[g * 8 + j]!, true);
    const w0 = (at + 4 * width) / size; // in elements
    const sliceElems = 8 * width; // four rotations x (width / 4) halves x 8 weights
    const tail = w0 + slices * sliceElems; // the pairs after the whole slices
    for (let j = 0; j < width; j++) {
      const c = g * 8 + j;
      const h = j >> 2;
      const l = j & 3;
      for (let i = 0; i < K; i++) {
        const v = filter[c * K + i]!;
        const slice = i >> 3;
        const pair = (i & 7) >> 1;
        if (slice < slices) {
          const rot = (pair - l + 4) & 3; // rotation j where lane l holds pair (l + j) mod 4
          elems[w0 + slice * sliceElems + rot * (2 * width) + h * 8 + l * 2 + (i & 1)] = v;
        } else {
          elems[tail + pair * 2 * width + h * 8 + l * 2 + (i & 1)] = v;
        }
      }
    }
    at = (tail + pairs * 2 * width) * size;
  }
  if (narrow > 0) {
    const c0 = full * 8 + (half ? 4 : 0);
    const view = new DataView(bytes.buffer, bytes.byteOffset + at, 4 * narrow);
    for (let j = 0; j < narrow; j++) view.setInt32(4 * j, b[c0 + j]!, true);
    const w0 = (at + 4 * narrow) / size;
    for (let j = 0; j < narrow; j++) for (let i = 0; i < K; i++) elems[w0 + j * K + i] = filter[(c0 + j) * K + i]!;
  }
  return dst.offset;
}

/** Bytes of the depthwise packing of `channels` channels over `taps` taps (biases and int8 weights; `size` 2: int16). */
export function depthwisePackedBytes(channels: number, taps: number, size = 1): number {
  return ((channels + 7) >> 3) * (32 + ((taps + 1) >> 1) * 16 * size);
}

/**
 * Packs a depthwise filter `[1, taps, channels]` (int8) for qs8_dwconv into a new persistent buffer and
 * sets W.Packed. Per group of eight channels: the eight folded biases (int32), then per pair of taps
 * (t, t+1) the int8 pairs (w[t][c], w[t+1][c]) of channels 0-3 and then 4-7, 16 bytes (zero past the
 * depth, and for the missing tap of an odd count).
 */
export function packDepthwise(
  context: TfLiteContext,
  p: Int32Array,
  filter: Int8Array | Int16Array,
  channels: number,
  taps: number,
  bias: Int32Array | null,
  zpIn: number,
): void {
  const sums = new Int32Array(channels);
  for (let t = 0; t < taps; t++) for (let c = 0; c < channels; c++) sums[c] = (sums[c]! + filter[t * channels + c]!) | 0;
  const b = foldedBias(bias, sums, zpIn);
  const size = filter instanceof Int16Array ? 2 : 1;
  const dst = context.allocatePersistentBuffer(depthwisePackedBytes(channels, taps, size));
  // int16 weights (uint8 layers) at twice the int8 layout's byte offsets
  const elems = size === 2 ? dst.i16 : dst.i8;
  const words = dst.i32;
  const groupBytes = 32 + ((taps + 1) >> 1) * 16 * size;
  dst.u8.fill(0);
  for (let g = 0; g * 8 < channels; g++) {
    const at = g * groupBytes;
    for (let j = 0; j < 8; j++) if (g * 8 + j < channels) words[(at >> 2) + j] = b[g * 8 + j]!;
    const w0 = (at + 32) / size; // in elements
    for (let t = 0; t < taps; t++) {
      for (let j = 0; j < 8; j++) {
        const c = g * 8 + j;
        // pair t >> 1, channel j (two weights per channel: taps t and t+1)
        if (c < channels) elems[w0 + (t >> 1) * 16 + j * 2 + (t & 1)] = filter[t * channels + c]!;
      }
    }
  }
  p[W.Packed] = dst.offset;
}

/** Bytes of the relaxed-dot GEMM packing of `outC` channels over `blocks` 16-value blocks (biases and int8 weights). */
export function gemmRelaxedPackedBytes(outC: number, blocks: number): number {
  const { full, half } = gemmGroups(outC);
  return full * (32 + blocks * 128) + (half ? 16 + blocks * 64 : 0);
}

/**
 * Packs filter `[outC, K]` (int8, row-major; K = taps x depth, already compact) for qs8_conv's relaxed-dot
 * tile (assembly/int8/conv-relaxed.ts) into a new persistent buffer and sets W.Packed: per group of
 * eight output channels the eight folded biases, then per 16-value block and rotation r = 0..3 the
 * channels 0-3 then 4-7, lane j holding the block's bytes 4g..4g+3 with g = (j + r) mod 4 (zero past K
 * and outC); a last group of at most four channels only its four. `unsignedActivations` (usdot): the
 * kernel reads x + 128, so the bias also takes -128 * sum(w).
 */
export function packGemmRelaxed(
  context: TfLiteContext,
  p: Int32Array,
  filter: Int8Array,
  outC: number,
  K: number,
  blocks: number,
  bias: Int32Array | null,
  zpIn: number,
  unsignedActivations: boolean,
): void {
  const sums = new Int32Array(outC);
  for (let c = 0; c < outC; c++) {
    let s = 0;
    for (let i = 0, base = c * K; i < K; i++) s += filter[base + i]!;
    sums[c] = s;
  }
  const b = foldedBias(bias, sums, zpIn + (unsignedActivations ? 128 : 0));
  const dst = context.allocatePersistentBuffer(gemmRelaxedPackedBytes(outC, blocks));
  const bytes = dst.i8;
  const words = dst.i32;
  dst.u8.fill(0);
  const { full, half } = gemmGroups(outC);
  let at = 0;
  for (let g = 0; g < full + (half ? 1 : 0); g++) {
    const width = g < full ? 8 : 4;
    for (let j = 0; j < width; j++) if (g * 8 + j < outC) words[(at >> 2) + j] = b[g * 8 + j]!;
    const w0 = at + 4 * width;
    const blockBytes = 16 * width; // four rotations x (width / 4) vectors x 16 bytes
    for (let j = 0; j < width; j++) {
      const c = g * 8 + j;
      if (c >= outC) break;
      const h = j >> 2;
      const l = j & 3;
      for (let i = 0; i < K; i++) {
        const block = i >> 4;
        const grp = (i & 15) >> 2;
        const rot = (grp - l + 4) & 3; // rotation r where lane l holds group (l + r) mod 4
        bytes[w0 + block * blockBytes + rot * (4 * width) + h * 16 + l * 4 + (i & 3)] = filter[c * K + i]!;
      }
    }
    at = w0 + blocks * blockBytes;
  }
  p[W.Packed] = dst.offset;
}

/** The window of a convolution whose filter packConvGemm packs (for the rows layout, see {@link rowsLayout}). */
export interface ConvWindow {
  /** Filter height. */
  kH: number;
  /** Filter width. */
  kW: number;
  /** Horizontal dilation. */
  dilW: number;
}

/**
 * Whether qs8_conv reads a gathered layer's window rows in place (W.Gather 2): dilation_w 1, window rows of
 * kW x inC = 8a + 1 values and at most eight of them (the 3x3 stem over three channels: 9 = 8 + 1). Each row's
 * first 8a values are a slices of their own, sign-extended straight from the input; the last value of every
 * row goes into one slice after them, so K is padded once, as in a compact row (kH x a + 1 slices).
 */
export function rowsLayout(window: ConvWindow, taps: number, inC: number): boolean {
  return window.dilW === 1 && window.kH * window.kW === taps && window.kH <= 8 && (window.kW * inC) % 8 === 1;
}

/**
 * The filter `[outC, kH, kW x inC]` in the rows layout's order of K: per output channel, the first 8a values of
 * each window row, then the last value of each row.
 */
export function rowsOrder<T extends Int8Array | Int16Array>(filter: T, outC: number, kH: number, run: number): T {
  const K = kH * run;
  const body = run - 1;
  const out = filter.slice() as T;
  for (let c = 0; c < outC; c++)
    for (let kh = 0; kh < kH; kh++) {
      for (let j = 0; j < body; j++) out[c * K + kh * body + j] = filter[c * K + kh * run + j]!;
      out[c * K + kH * body + kh] = filter[c * K + kh * run + body]!;
    }
  return out;
}

/** What packConvGemm chose, for the node's scratch buffer. */
export interface ConvGemmLayout {
  /** Taps gathered into one compact row first. */
  gather: boolean;
  /** 8-value slices (or 16-value blocks, relaxed) per tap or compact row: W.Kb8. */
  kb: number;
  /** Slices or blocks per pixel row: the tile's scratch takes 32 bytes of each per pixel. */
  units: number;
  /** Bytes of one gathered row (with slack). */
  rowBytes: number;
  /** Bytes of the zero row (a tap's depth rounded up, with slack). */
  zeroBytes: number;
  /**
   * The GEMV layout (W.Gemv): every pixel runs the one-pixel GEMM on its input row or gathered row, so the
   * node's scratch needs no sign-extended rows (extBytes 0).
   */
  gemv: boolean;
}

/**
 * Most output channels of a gathered layer that runs the one-pixel GEMM pixel by pixel (W.Gemv) instead of
 * the 4-pixel tile: with one channel group the tile shares nothing across groups, and its sign-extended
 * rows (GEMM_TILE_PIXELS x K x 4 bytes of scratch) would cost more memory than the layer's weights.
 */
export const GEMV_MAX_CHANNELS = 8;

/** Bytes of the sign-extended rows a packed layer's scratch needs per thread (0 with the GEMV layout). */
export function layoutExtBytes(layout: ConvGemmLayout): number {
  return layout.gemv ? 0 : extScratchBytes(layout.units);
}

/**
 * Packs filter `[outC, taps, inC]` for qs8_conv and sets W.Kb8, W.DotMode, W.Gather, W.Gemv and W.Packed:
 * the one-pixel GEMM's layout (packGemv, W.Gemv) for a node of one output pixel (`onePixel`: one pixel and
 * one tap) and for gathered layers of at most GEMV_MAX_CHANNELS channels (each pixel's compact row is
 * gathered and multiplied in turn, not in the rows layout); else the relaxed-dot tile when `dotMode` is 1
 * (usdot) or 2 (sdot), else the dot_i16x8 tile. Depths that are not a multiple of the tile's step over
 * several taps are gathered into compact rows first.
 */
export function packConvGemm(
  context: TfLiteContext,
  p: Int32Array,
  filter: Int8Array | Int16Array,
  outC: number,
  taps: number,
  inC: number,
  bias: Int32Array | null,
  zpIn: number,
  dotMode: number,
  onePixel: boolean,
  window?: ConvWindow,
): ConvGemmLayout {
  p[W.U8] = filter instanceof Int16Array ? 1 : 0;
  const gemv = onePixel || (taps > 1 && inC % 8 !== 0 && outC <= GEMV_MAX_CHANNELS);
  if (gemv) {
    // one pixel (one tap), or every pixel's compact row
    const K = taps * inC;
    p[W.Gemv] = 1;
    p[W.Kb8] = Math.ceil(K / 8);
    p[W.Gather] = taps > 1 ? 1 : 0;
    p[W.DotMode] = 0;
    p[W.Packed] = packGemv(context, filter, outC, K, bias, zpIn);
    const kb = Math.ceil(K / 8);
    return { gather: taps > 1, kb, units: kb, rowBytes: taps > 1 ? kb * 8 + 16 : 0, zeroBytes: ((inC + 7) & ~7) + 8, gemv: true };
  }
  p[W.Gemv] = 0;
  // uint8 layers (int16 weights) take the dot_i16x8 tile
  const relaxed = dotMode !== 0 && filter instanceof Int8Array;
  const step = relaxed ? 16 : 8;
  const gather = taps > 1 && inC % step !== 0;
  const kb = gather ? Math.ceil((taps * inC) / step) : Math.ceil(inC / step);
  const packTaps = gather ? 1 : taps;
  // int8 layers given their window (CONV_2D) may take the rows layout, with as many slices as a compact row:
  // kH x a + 1 = ceil(kH x (8a + 1) / 8) for kH <= 8
  const rows = gather && !relaxed && filter instanceof Int8Array && window !== undefined && rowsLayout(window, taps, inC);
  if (rows) filter = rowsOrder(filter, outC, window.kH, window.kW * inC);
  p[W.Kb8] = kb;
  p[W.Gather] = rows ? 2 : gather ? 1 : 0;
  p[W.DotMode] = relaxed ? dotMode : 0;
  if (relaxed) {
    // [outC, taps, inC] with each tap's depth padded to the blocks (or the compact row's)
    const depth = gather ? taps * inC : inC;
    const K = packTaps * kb * 16;
    const rows = new Int8Array(outC * K);
    const f = filter as Int8Array;
    for (let c = 0; c < outC; c++)
      for (let t = 0; t < packTaps; t++)
        rows.set(f.subarray((c * packTaps + t) * depth, (c * packTaps + t + 1) * depth), c * K + t * kb * 16);
    packGemmRelaxed(context, p, rows, outC, K, packTaps * kb, bias, zpIn, dotMode === 1);
  } else {
    packGemm(context, p, filter, outC, packTaps, gather ? taps * inC : inC, kb, bias, zpIn);
  }
  return {
    gather,
    kb,
    units: packTaps * kb,
    rowBytes: gather ? kb * step + 16 : 0,
    zeroBytes: ((inC + step - 1) & ~(step - 1)) + step,
    gemv: false,
  };
}
