/**
 * Packing constant weights, once at prepare, into the layouts the wasm microkernels read (see
 * assembly/int8/conv.ts and depthwise-conv.ts). Weights stay int8 (the kernels sign-extend them with
 * `v128.load8x8_s`), so they cost their model bytes plus the folded biases (the requantization reads
 * TFLM's own per-channel multipliers and shifts, see window-scratch.ts). The input zero point is folded
 * into the bias: Σ w·(x − zp) + b = Σ w·x + (b − zp·Σ w), in int32 arithmetic that wraps as TFLM's does.
 */
import type { TfLiteContext } from '@micrort/core';
import { W } from './kernel-common.js';

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

/** Bytes of the GEMM packing of `outC` channels over `taps` taps of `kb8` 8-value slices (biases and int8 weights). */
export function gemmPackedBytes(outC: number, taps: number, kb8: number): number {
  const { full, half } = gemmGroups(outC);
  const slices = taps * kb8;
  return full * (32 + slices * 64) + (half ? 16 + slices * 32 : 0);
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
  filter: Int8Array,
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
  const dst = context.allocatePersistentBuffer(gemmPackedBytes(outC, taps, kb8));
  const bytes = dst.i8;
  const words = dst.i32;
  const slices = taps * kb8;
  dst.u8.fill(0);
  const { full, half } = gemmGroups(outC);
  let at = 0;
  for (let g = 0; g < full + (half ? 1 : 0); g++) {
    const width = g < full ? 8 : 4;
    for (let j = 0; j < width; j++) if (g * 8 + j < outC) words[(at >> 2) + j] = b[g * 8 + j]!;
    const w0 = at + 4 * width;
    const sliceBytes = 8 * width; // four rotations x (width / 4) halves x 8 bytes
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
          bytes[w0 + slice * sliceBytes + rot * (2 * width) + h * 8 + l * 2 + (i & 1)] = filter[src + i]!;
        }
      }
    }
    at = w0 + slices * sliceBytes;
  }
  p[W.Packed] = dst.offset;
}

/** Bytes of the depthwise packing of `channels` channels over `taps` taps (biases and int8 weights). */
export function depthwisePackedBytes(channels: number, taps: number): number {
  return ((channels + 7) >> 3) * (32 + ((taps + 1) >> 1) * 16);
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
  filter: Int8Array,
  channels: number,
  taps: number,
  bias: Int32Array | null,
  zpIn: number,
): void {
  const sums = new Int32Array(channels);
  for (let t = 0; t < taps; t++) for (let c = 0; c < channels; c++) sums[c] = (sums[c]! + filter[t * channels + c]!) | 0;
  const b = foldedBias(bias, sums, zpIn);
  const dst = context.allocatePersistentBuffer(depthwisePackedBytes(channels, taps));
  const bytes = dst.i8;
  const words = dst.i32;
  const groupBytes = 32 + ((taps + 1) >> 1) * 16;
  dst.u8.fill(0);
  for (let g = 0; g * 8 < channels; g++) {
    const at = g * groupBytes;
    for (let j = 0; j < 8; j++) if (g * 8 + j < channels) words[(at >> 2) + j] = b[g * 8 + j]!;
    const w0 = at + 32;
    for (let t = 0; t < taps; t++) {
      for (let j = 0; j < 8; j++) {
        const c = g * 8 + j;
        // pair t >> 1, channel j (two bytes per channel: taps t and t+1)
        if (c < channels) bytes[w0 + (t >> 1) * 16 + j * 2 + (t & 1)] = filter[t * channels + c]!;
      }
    }
  }
  p[W.Packed] = dst.offset;
}
