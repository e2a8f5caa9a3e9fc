/**
 * Packing constant weights, once at prepare, into the layouts the wasm microkernels read (see
 * assembly/int8/conv.ts and depthwise-conv.ts). The input zero point is folded into the bias:
 * Σ w·(x − zp) + b = Σ w·x + (b − zp·Σ w), in int32 arithmetic that wraps as TFLM's does.
 */
import type { ArenaRegion } from '@micrort/core';
import { RQ_BYTES, RQ_WORDS, writeRequantBlock, type Int8OutputRange } from './kernel-common.js';

/** Bias with `-zp * sum(weights of the channel)` added; `sums[c]` is the channel's weight sum. */
function foldedBias(bias: Int32Array | null, sums: Int32Array, zpIn: number): Int32Array {
  const out = new Int32Array(sums.length);
  for (let c = 0; c < sums.length; c++) out[c] = ((bias ? bias[c]! : 0) - Math.imul(zpIn, sums[c]!)) | 0;
  return out;
}

/** Bytes of one 8-channel group's weights per 8-value slice: four rotations x two int16 vectors. */
const GEMM_SLICE_BYTES = 128;

/** Bytes of the GEMM packing of `outC` channels over `taps` taps of `kb8` 8-channel slices. */
export function gemmPackedBytes(outC: number, taps: number, kb8: number): number {
  return ((outC + 7) >> 3) * (2 * RQ_BYTES + taps * kb8 * GEMM_SLICE_BYTES);
}

/**
 * Packs filter `[outC, taps, inC]` (int8, row-major) for qs8_conv: per group of eight output channels
 * two requantization blocks (channels 0-3, 4-7; bias with the input zero point folded in), then per tap
 * and 8-value slice, for each rotation j = 0..3, the int16 weights of channels 0-3 and then 4-7, lane l
 * (channel l of the half) holding the pair (w[2p], w[2p+1]) with p = (l + j) mod 4 (zero past inC and
 * outC). `fast` (rightOnlyRange): requantization blocks for requantLanesRight.
 */
export function packGemm(
  dst: ArenaRegion,
  filter: Int8Array,
  outC: number,
  taps: number,
  inC: number,
  kb8: number,
  bias: Int32Array | null,
  multiplier: Int32Array,
  shift: Int32Array,
  zpIn: number,
  fast: Int8OutputRange | null = null,
): void {
  const sums = new Int32Array(outC);
  for (let c = 0; c < outC; c++) {
    let s = 0;
    for (let i = 0, n = taps * inC, base = c * n; i < n; i++) s += filter[base + i]!;
    sums[c] = s;
  }
  const b = foldedBias(bias, sums, zpIn);
  const words = dst.i32;
  const halves = dst.i16;
  const groupBytes = 2 * RQ_BYTES + taps * kb8 * GEMM_SLICE_BYTES;
  dst.u8.fill(0, 0, gemmPackedBytes(outC, taps, kb8));
  for (let g = 0; g * 8 < outC; g++) {
    const at = g * groupBytes;
    writeRequantBlock(words, at >> 2, g * 8, outC, b, multiplier, shift, fast);
    writeRequantBlock(words, (at >> 2) + RQ_WORDS, g * 8 + 4, outC, b, multiplier, shift, fast);
    const w0 = (at + 2 * RQ_BYTES) >> 1;
    for (let j = 0; j < 8; j++) {
      const c = g * 8 + j;
      if (c >= outC) break;
      const half = j >> 2;
      const l = j & 3;
      for (let t = 0; t < taps; t++) {
        const src = (c * taps + t) * inC;
        for (let i = 0; i < inC; i++) {
          const slice = t * kb8 + (i >> 3);
          const pair = (i & 7) >> 1;
          const rot = (pair - l + 4) & 3; // rotation j where lane l holds pair (l + j) mod 4
          halves[w0 + (slice * GEMM_SLICE_BYTES) / 2 + rot * 16 + half * 8 + l * 2 + (i & 1)] = filter[src + i]!;
        }
      }
    }
  }
}

/** Bytes of the depthwise packing of `channels` channels over `taps` taps. */
export function depthwisePackedBytes(channels: number, taps: number): number {
  return ((channels + 7) >> 3) * (2 * RQ_BYTES + ((taps + 1) >> 1) * 32);
}

/**
 * Packs a depthwise filter `[1, taps, channels]` (int8) for qs8_dwconv: per group of eight channels two
 * requantization blocks, then per pair of taps (t, t+1) the int16 pairs (w[t][c], w[t+1][c]) of
 * channels 0-3 and then 4-7 (zero past the depth, and for the missing tap of an odd count). `fast`
 * (rightOnlyRange): requantization blocks for requantLanesRight.
 */
export function packDepthwise(
  dst: ArenaRegion,
  filter: Int8Array,
  channels: number,
  taps: number,
  bias: Int32Array | null,
  multiplier: Int32Array,
  shift: Int32Array,
  zpIn: number,
  fast: Int8OutputRange | null = null,
): void {
  const sums = new Int32Array(channels);
  for (let t = 0; t < taps; t++) for (let c = 0; c < channels; c++) sums[c] = (sums[c]! + filter[t * channels + c]!) | 0;
  const b = foldedBias(bias, sums, zpIn);
  const words = dst.i32;
  const halves = dst.i16;
  const groupBytes = 2 * RQ_BYTES + ((taps + 1) >> 1) * 32;
  dst.u8.fill(0, 0, depthwisePackedBytes(channels, taps));
  for (let g = 0; g * 8 < channels; g++) {
    const at = g * groupBytes;
    writeRequantBlock(words, at >> 2, g * 8, channels, b, multiplier, shift, fast);
    writeRequantBlock(words, (at >> 2) + RQ_WORDS, g * 8 + 4, channels, b, multiplier, shift, fast);
    const w0 = (at + 2 * RQ_BYTES) >> 1;
    for (let t = 0; t < taps; t++) {
      for (let j = 0; j < 8; j++) {
        const c = g * 8 + j;
        // pair t >> 1, half j >> 2 (channels 0-3 | 4-7), lane pair j & 3, element t & 1
        if (c < channels) halves[w0 + (t >> 1) * 16 + (j >> 2) * 8 + (j & 3) * 2 + (t & 1)] = filter[t * channels + c]!;
      }
    }
  }
}
