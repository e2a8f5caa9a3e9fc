/**
 * Sparse packing of float32 1x1 convolution weights for assembly/float/sparse-gemm.ts: per output channel
 * its bias, the count of its non-zero weights, then (byte offset of the input channel in the kernel's
 * transposed 16-pixel block, weight) for each of them in input-channel order. Done once at prepare
 * (the weights must be fixed then: model constants, or DENSIFY / DEQUANTIZE outputs computed at prepare).
 */

/** Bytes per input channel in the kernel's transposed block (16 pixels of float32). */
export const SPARSE_BLOCK_CHANNEL_BYTES = 64;

/** Weights of `outC` rows of `K` floats that are not zero (+0 and -0 are zero). */
export function countNonZero(filter: Float32Array, outC: number, K: number): number {
  let nonZero = 0;
  for (let i = 0, n = outC * K; i < n; i++) if (filter[i] !== 0) nonZero++;
  return nonZero;
}

/** 32-bit words of the sparse packing of `outC` channels with `nonZero` non-zero weights. */
export function sparseWords(outC: number, nonZero: number): number {
  return 2 * outC + 2 * nonZero;
}

/**
 * Packs `filter` (`outC` rows of `K` floats) and `bias` (or zeros) into `words` / `floats` (two views of
 * {@link sparseWords} words).
 */
export function packSparseF32(
  words: Int32Array,
  floats: Float32Array,
  filter: Float32Array,
  bias: Float32Array | null,
  outC: number,
  K: number,
): void {
  let at = 0;
  for (let c = 0; c < outC; c++) {
    floats[at] = bias ? bias[c]! : 0;
    const countAt = at + 1;
    at += 2;
    let n = 0;
    const row = c * K;
    for (let k = 0; k < K; k++) {
      const w = filter[row + k]!;
      if (w === 0) continue;
      words[at] = k * SPARSE_BLOCK_CHANNEL_BYTES;
      floats[at + 1] = w;
      at += 2;
      n++;
    }
    words[countAt] = n;
  }
}
