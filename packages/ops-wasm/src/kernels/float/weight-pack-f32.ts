/**
 * Packing float32 weights into the layouts the wasm microkernels read (assembly/float/gemm.ts and
 * depthwise-conv.ts), bias folded in as the accumulators' start. Done once at prepare into persistent
 * arena memory; for weights that are not fixed at prepare, again before every invoke (these functions
 * allocate nothing).
 */

/** Output channels per GEMM block (the register tile's width). */
export const GEMM_NR = 8;

/**
 * Floats of the GEMM packing of `outC` channels over a reduction of length `K`: the weights and biases
 * themselves (the last block is only as wide as its channels) and eight floats of slack, which the
 * kernel's eight-wide loads of a narrow last block read past its end.
 */
export function gemmPackedFloats(outC: number, K: number): number {
  return outC * (K + 1) + GEMM_NR;
}

/** packGemmF32's default `rowOf`: output channel c is filter row c. One function for every call, so a call
 * that leaves `rowOf` out (BATCH_MATMUL's runtime RHS, packed at each invoke) creates no closure. */
const sameRow = (c: number): number => c;

/**
 * Packs `filter` (`outC` rows of `K` floats: [outC, kH, kW, inC] or FULLY_CONNECTED's [units, depth])
 * for f32_conv: per block of eight channels, their eight biases (0 without bias), then for each of the K
 * steps their eight weights; the last block, when `outC` is not a multiple of eight, holds its r channels
 * r wide (r biases, then K steps of r weights), and the slack after it is zeroed. Weight (c, k) is read at
 * `filter[srcAt + c * cStep + k * kStep]` and the packing written from `dst[dstAt]` (BATCH_MATMUL packs
 * [K, C] matrices, one after the other, with cStep 1 and kStep C). Channel `c` is read as channel
 * `rowOf(c)` (the transposed convolution's columns order a [OC, KH, KW, IC] filter's rows tap-major).
 */
export function packGemmF32(
  dst: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  outC: number,
  K: number,
  srcAt = 0,
  cStep = K,
  kStep = 1,
  dstAt = 0,
  rowOf: (c: number) => number = sameRow,
): void {
  for (let n = 0; n < outC; n += GEMM_NR) {
    const width = Math.min(GEMM_NR, outC - n);
    const at = dstAt + n * (K + 1);
    for (let j = 0; j < width; j++) {
      const c = n + j;
      dst[at + j] = bias ? bias[c]! : 0;
      const src = srcAt + rowOf(c) * cStep;
      for (let k = 0; k < K; k++) dst[at + (k + 1) * width + j] = filter[src + k * kStep]!;
    }
  }
  dst.fill(0, dstAt + outC * (K + 1), dstAt + outC * (K + 1) + GEMM_NR);
}

/** Channels per depthwise group (two f32x4 accumulators). */
export const DW_CT = 8;

/** Floats of the depthwise packing of `channels` channels over `taps` taps. */
export function depthwisePackedFloats(channels: number, taps: number): number {
  return Math.ceil(channels / DW_CT) * DW_CT * (taps + 1);
}

/**
 * Packs a depthwise filter [1, kH, kW, channels] (`taps` = kH * kW) for f32_dwconv: per group of eight
 * channels their eight biases, then for each tap their eight weights; channels past the depth are zeros.
 */
export function packDepthwiseF32(dst: Float32Array, filter: Float32Array, bias: Float32Array | null, channels: number, taps: number): void {
  const groups = Math.ceil(channels / DW_CT);
  const stride = DW_CT * (taps + 1);
  for (let g = 0; g < groups; g++) {
    const at = g * stride;
    for (let j = 0; j < DW_CT; j++) {
      const c = g * DW_CT + j;
      const ok = c < channels;
      dst[at + j] = ok && bias ? bias[c]! : 0;
      for (let t = 0; t < taps; t++) dst[at + (t + 1) * DW_CT + j] = ok ? filter[t * channels + c]! : 0;
    }
  }
}
