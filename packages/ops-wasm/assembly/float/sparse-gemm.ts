// float32 1x1 CONV_2D with sparse constant weights (MediaPipe's pruned models, whose weights come through
// DENSIFY with three zeros in four): only the non-zero weights are multiplied, as XNNPACK's SpMM kernels
// do. The NHWC input is read in blocks of 16 pixels, transposed into the thread's scratch (per input
// channel, its 16 pixel values: 64 bytes), then each output channel adds weight x those 16 values for each
// of its non-zero weights into four f32x4 accumulators that start from the bias, and stores them to the
// 16 pixels' rows. The additions happen in the dense tile's order (gemm.ts: bias, then input channel 0, 1,
// ...) with the zero products left out, so for finite inputs the outputs equal the dense kernel's bit
// for bit (x + 0 * w = x); an infinite or NaN input value that only meets zero weights gives no NaN here.
//
// Sparse weights (src/kernels/float/weight-pack-sparse.ts), per output channel:
//   [bias f32][n i32][n x (byte offset of the input channel in the block = channel * 64, i32; weight f32)]
import { threadSlot } from '../thread-slot';
import { clamp, madd } from './common';
import { G_ACT_MAX, G_ACT_MIN, G_K, G_OUT_C, G_ROW_BYTES, G_SPARSE, G_SPARSE_SCRATCH } from '../generated/abi';

/** Pixels per block. */
const BLOCK = 16;

/**
 * Transposes pixels [q, q + n) (n <= 16; the last one repeated up to 16) of K channels, `rowBytes` apart,
 * into `t`: channel k's 16 values at t + k * 64.
 */
@inline function transposeBlock(input: usize, rowBytes: usize, q: i32, n: i32, K: i32, t: usize): void {
  for (let i = 0; i < BLOCK; i += 4) {
    const r0 = input + <usize>(q + min(i, n - 1)) * rowBytes;
    const r1 = input + <usize>(q + min(i + 1, n - 1)) * rowBytes;
    const r2 = input + <usize>(q + min(i + 2, n - 1)) * rowBytes;
    const r3 = input + <usize>(q + min(i + 3, n - 1)) * rowBytes;
    const col = t + <usize>(i << 2);
    let k = 0;
    for (; k + 4 <= K; k += 4) {
      const o = <usize>(k << 2);
      const a = v128.load(r0 + o);
      const b = v128.load(r1 + o);
      const c = v128.load(r2 + o);
      const d = v128.load(r3 + o);
      // 4x4 transpose: rows (pixels) to columns (channels)
      const ab0 = v128.shuffle<f32>(a, b, 0, 4, 1, 5);
      const ab1 = v128.shuffle<f32>(a, b, 2, 6, 3, 7);
      const cd0 = v128.shuffle<f32>(c, d, 0, 4, 1, 5);
      const cd1 = v128.shuffle<f32>(c, d, 2, 6, 3, 7);
      const dst = col + <usize>(k << 6);
      v128.store(dst, v128.shuffle<f32>(ab0, cd0, 0, 1, 4, 5));
      v128.store(dst, v128.shuffle<f32>(ab0, cd0, 2, 3, 6, 7), 64);
      v128.store(dst, v128.shuffle<f32>(ab1, cd1, 0, 1, 4, 5), 128);
      v128.store(dst, v128.shuffle<f32>(ab1, cd1, 2, 3, 6, 7), 192);
    }
    for (; k < K; k++) {
      const o = <usize>(k << 2);
      const dst = col + <usize>(k << 6);
      store<f32>(dst, load<f32>(r0 + o));
      store<f32>(dst, load<f32>(r1 + o), 4);
      store<f32>(dst, load<f32>(r2 + o), 8);
      store<f32>(dst, load<f32>(r3 + o), 12);
    }
  }
}

/** Stores lane `j` of `v` to pixel row `i0 + j`'s channel at `o` (rows `cStride` apart) for the first `n` lanes. */
@inline function storeColumn(o: usize, cStride: usize, v: v128, n: i32): void {
  if (n >= 4) {
    v128.store32_lane(o, v, 0);
    v128.store32_lane(o + cStride, v, 1);
    v128.store32_lane(o + 2 * cStride, v, 2);
    v128.store32_lane(o + 3 * cStride, v, 3);
    return;
  }
  if (n > 0) v128.store32_lane(o, v, 0);
  if (n > 1) v128.store32_lane(o + cStride, v, 1);
  if (n > 2) v128.store32_lane(o + 2 * cStride, v, 2);
}

/**
 * f32_conv_run for a layer with sparse weights (G_SPARSE set): output pixels [q0, q1) in blocks of 16,
 * thread `tid`'s block in G_SPARSE_SCRATCH (K x 64 bytes per thread).
 */
export function sparseConvRun(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  const outC = load<i32>(pp, G_OUT_C);
  const K = load<i32>(pp, G_K);
  const sparse = <usize>load<u32>(pp, G_SPARSE);
  const t = threadSlot(<usize>load<u32>(pp, G_SPARSE_SCRATCH), tid, <usize>K * 64);
  const rowBytes = <usize>load<u32>(pp, G_ROW_BYTES);
  const lo = v128.load32_splat(pp, G_ACT_MIN);
  const hi = v128.load32_splat(pp, G_ACT_MAX);
  const cStride = <usize>(outC << 2);
  for (let q = q0; q < q1; q += BLOCK) {
    const n = min(BLOCK, q1 - q);
    transposeBlock(input, rowBytes, q, n, K, t);
    let w = sparse;
    let o = output + <usize>q * cStride;
    for (let c = 0; c < outC; c++) {
      let a0 = v128.load32_splat(w);
      let a1 = a0, a2 = a0, a3 = a0;
      const end = w + 8 + (<usize>load<i32>(w, 4) << 3);
      w += 8;
      for (; w < end; w += 8) {
        const x = t + <usize>load<i32>(w);
        const v = v128.load32_splat(w, 4);
        a0 = madd(v128.load(x), v, a0);
        a1 = madd(v128.load(x, 16), v, a1);
        a2 = madd(v128.load(x, 32), v, a2);
        a3 = madd(v128.load(x, 48), v, a3);
      }
      storeColumn(o, cStride, clamp(a0, lo, hi), n);
      storeColumn(o + 4 * cStride, cStride, clamp(a1, lo, hi), n - 4);
      storeColumn(o + 8 * cStride, cStride, clamp(a2, lo, hi), n - 8);
      storeColumn(o + 12 * cStride, cStride, clamp(a3, lo, hi), n - 12);
      o += 4;
    }
  }
}
