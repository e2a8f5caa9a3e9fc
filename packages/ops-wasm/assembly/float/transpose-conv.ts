// float32 transposed convolution (TRANSPOSE_CONV, MediaPipe's Convolution2DTransposeBias) as a GEMM and
// a scatter (col2im): the input pixels of a few input rows [P x inC] times the packed weights
// [inC x (KH*KW*OutC)] (f32_conv's 4x8 register tile over the input rows in place) give each pixel's
// column of KH x KW taps of OutC values; each tap is added to the output pixel it reaches. The output
// starts at the bias (or 0) and is clamped once at the end when there is a fused activation.
//
// A call covers the output rows [oh0, oh1) of every batch: it computes the columns of the input rows
// whose windows reach those rows (a row near a band's edge is computed by both bands) and adds only the
// taps that land inside them. Every output element so takes its contributions in the same order (input
// row, then input column) whatever the bands, and the threads' results equal one thread's.
import { threadSlot } from '../thread-slot';
import { bandEndInputRow, bandFirstInputRow } from '../layout/tconv-rows';
import { clamp } from './common';
import { f32_conv_run } from './gemm';
import {
  TC_ACT_MAX,
  TC_ACT_MIN,
  TC_BATCHES,
  TC_BIAS,
  TC_CHUNK_ROWS,
  TC_CLAMP,
  TC_COL,
  TC_COL_BYTES,
  TC_GEMM,
  TC_IN_H,
  TC_IN_ROW_BYTES,
  TC_IN_W,
  TC_KH,
  TC_KW,
  TC_OUT_C,
  TC_OUT_H,
  TC_OUT_W,
  TC_PAD_H,
  TC_PAD_W,
  TC_STRIDE_H,
  TC_STRIDE_W,
} from '../generated/abi';

/** Adds `n` floats at `src` to those at `dst`: four at a time, then one by one. */
@inline function addRun(dst: usize, src: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    v128.store(dst, f32x4.add(v128.load(dst), v128.load(src)));
    dst += 16;
    src += 16;
  }
  for (; i < n; i++) {
    store<f32>(dst, load<f32>(dst) + load<f32>(src));
    dst += 4;
    src += 4;
  }
}

/** Sets the `pixels` pixels of `outC` floats at `dst` to the bias at `bias` (0 without one): one pixel, then copies doubling what is set. */
function fillBias(dst: usize, pixels: i32, outC: i32, bias: usize): void {
  const total = <usize>(pixels * outC) << 2;
  if (bias == 0 || total == 0) {
    memory.fill(dst, 0, total);
    return;
  }
  let set = <usize>(outC << 2);
  memory.copy(dst, bias, set);
  while (set < total) {
    const n = min(set, total - set);
    memory.copy(dst + set, dst, n);
    set += n;
  }
}

/** Clamps `n` floats at `p` to [lo, hi] in place. */
function clampRun(p: usize, n: i32, lo: v128, hi: v128): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    v128.store(p, clamp(v128.load(p), lo, hi));
    p += 16;
  }
  const l = f32x4.extract_lane(lo, 0);
  const h = f32x4.extract_lane(hi, 0);
  for (; i < n; i++) {
    store<f32>(p, min(max(load<f32>(p), l), h));
    p += 4;
  }
}

/** f32_tconv over every output row. */
export function f32_tconv(pp: usize, input: usize, output: usize): void {
  f32_tconv_run(pp, input, output, 0, load<i32>(pp, TC_OUT_H), 0);
}

/** f32_tconv over the output rows [oh0, oh1) of every batch, with thread `tid`'s columns. */
export function f32_tconv_run(pp: usize, input: usize, output: usize, oh0: i32, oh1: i32, tid: i32): void {
  const gemm = <usize>load<u32>(pp, TC_GEMM);
  const batches = load<i32>(pp, TC_BATCHES);
  const inH = load<i32>(pp, TC_IN_H);
  const inW = load<i32>(pp, TC_IN_W);
  const inRowBytes = <usize>load<i32>(pp, TC_IN_ROW_BYTES);
  const outH = load<i32>(pp, TC_OUT_H);
  const outW = load<i32>(pp, TC_OUT_W);
  const outC = load<i32>(pp, TC_OUT_C);
  const kH = load<i32>(pp, TC_KH);
  const kW = load<i32>(pp, TC_KW);
  const sH = load<i32>(pp, TC_STRIDE_H);
  const sW = load<i32>(pp, TC_STRIDE_W);
  const padH = load<i32>(pp, TC_PAD_H);
  const padW = load<i32>(pp, TC_PAD_W);
  const chunkRows = load<i32>(pp, TC_CHUNK_ROWS);
  const col = threadSlot(<usize>load<u32>(pp, TC_COL), tid, <usize>load<i32>(pp, TC_COL_BYTES));
  const bias = <usize>load<u32>(pp, TC_BIAS);
  const pixelBytes = <usize>(outC << 2);
  const outRowBytes = <usize>outW * pixelBytes;
  const tapRun = kW * outC;
  const colPixelBytes = <usize>(kH * tapRun) << 2;
  // input rows whose window reaches [oh0, oh1)
  const ih0 = bandFirstInputRow(oh0, padH, kH, sH);
  const ih1 = bandEndInputRow(oh1, padH, sH, inH);
  for (let b = 0; b < batches; b++) {
    const image = output + <usize>(b * outH) * outRowBytes;
    fillBias(image + <usize>oh0 * outRowBytes, (oh1 - oh0) * outW, outC, bias);
    for (let ih = ih0; ih < ih1; ih += chunkRows) {
      const rows = min(chunkRows, ih1 - ih);
      f32_conv_run(gemm, input + <usize>(b * inH + ih) * inRowBytes, col, 0, rows * inW, 0);
      let src = col;
      for (let r = 0; r < rows; r++) {
        const oy = (ih + r) * sH - padH;
        const kh0 = max(0, oh0 - oy);
        const kh1 = min(kH, oh1 - oy);
        for (let iw = 0; iw < inW; iw++) {
          const ox = iw * sW - padW;
          const kw0 = max(0, -ox);
          const kw1 = min(kW, outW - ox);
          if (kw1 > kw0) {
            const n = (kw1 - kw0) * outC;
            let dst = image + <usize>(oy + kh0) * outRowBytes + <usize>(ox + kw0) * pixelBytes;
            let s = src + (<usize>(kh0 * tapRun + kw0 * outC) << 2);
            for (let kh = kh0; kh < kh1; kh++) {
              addRun(dst, s, n);
              dst += outRowBytes;
              s += <usize>(tapRun << 2);
            }
          }
          src += colPixelBytes;
        }
      }
    }
    if (load<i32>(pp, TC_CLAMP)) {
      const lo = v128.load32_splat(pp, TC_ACT_MIN);
      const hi = v128.load32_splat(pp, TC_ACT_MAX);
      clampRun(image + <usize>oh0 * outRowBytes, (oh1 - oh0) * outW * outC, lo, hi);
    }
  }
}
