// float32 CONV_2D and FULLY_CONNECTED as a GEMM in the style of XNNPACK's f32 GEMM microkernels: a
// 4-pixel x 8-channel register tile (eight f32x4 accumulators) that starts from the bias, takes one
// input value per pixel per step (v128.load32_splat) against eight packed weights, and clamps once to
// the fused activation's range after the reduction.
//
// The four rows of the tile are either the input itself (`direct`: 1x1 stride-1 unpadded convolution,
// fully connected: pixel q's row is input + q * rowBytes) or compact rows gathered for each block of
// four output pixels (every other convolution: the taps' input pixels one after the other, zeros for
// taps in the padding), so K = taps x depth is reduced in one loop, whatever the depth. A convolution's
// block of four pixels on one output row whose windows lie inside the input is not gathered but read
// from the input itself, window row by window row (windowTile): gathering cost the 3-channel stems
// (K = 27 or 75) about a third of their time.
//
// Packed weights (src/kernels/float/weight-pack-f32.ts), per block of eight output channels:
//   [8 biases][K steps of 8 weights]
// except the last block when the depth is not a multiple of eight: its r channels are packed r wide,
//   [r biases][K steps of r weights]
// and read eight wide all the same (a step's load takes the next step's first weights into the lanes
// past r, which compute values that are never stored; the packing ends with eight floats of slack).
// So the weights cost their own size, not the depth rounded up to eight. A last block of one to four
// channels runs four wide (narrowBlock4: half the arithmetic of eight wide).
import { threadSlot } from '../thread-slot';
import { clamp, madd, store8, storeLanes } from './common';
import { sparseConvRun } from './sparse-gemm';
import { G_ACT_MAX, G_ACT_MIN, G_DIL_H, G_DIL_W, G_IN_C, G_IN_H, G_IN_IMAGE_BYTES, G_IN_W, G_K, G_KH, G_KW, G_OUT_C, G_OUT_HW, G_OUT_W, G_PACKED, G_PAD_H, G_PAD_W, G_GATHER, G_ROWS, G_ROW_BYTES, G_SPARSE, G_STRIDE_H, G_STRIDE_W, G_TOTAL } from '../generated/abi';

// Parameter block G (scripts/abi.mjs), written by src/kernels/float/conv-2d.ts and fully-connected.ts.

/** Copies `n` floats from `src` to `dst` four at a time (up to three more floats are written past the end). */
@inline function copyRun(dst: usize, src: usize, n: i32): void {
  for (let c = 0; c < n; c += 4) {
    v128.store(dst, v128.load(src));
    src += 16;
    dst += 16;
  }
}

/** Writes `n` zero floats at `dst` four at a time (up to three more past the end). */
@inline function zeroRun(dst: usize, n: i32): void {
  const zero = f32x4.splat(0);
  for (let c = 0; c < n; c += 4) {
    v128.store(dst, zero);
    dst += 16;
  }
}

/**
 * Copies the taps of the output pixel whose window starts at input row `ih0`, column `iw0` of `image`
 * one after the other into `dst` (zeros for taps in the padding): a window row inside the input whose
 * taps are adjacent (dilation 1) is one run of kW x depth floats; otherwise tap by tap. Copies go four
 * floats at a time, so a run's last copy may spill up to three floats into the next run's place, which
 * that run then overwrites (the row has 16 bytes of slack).
 */
@inline function gatherRow(image: usize, ih0: i32, iw0: i32, inH: i32, inW: i32, inC: i32, kH: i32, kW: i32, dH: i32, dW: i32, dst: usize): void {
  const tapBytes = <usize>(inC << 2);
  const rowRun = kW * inC;
  const runs = dW == 1 && iw0 >= 0 && iw0 + kW <= inW;
  for (let kh = 0; kh < kH; kh++) {
    const ih = ih0 + kh * dH;
    if (ih < 0 || ih >= inH) {
      zeroRun(dst, rowRun);
      dst += <usize>(rowRun << 2);
      continue;
    }
    const rowBase = image + <usize>(ih * inW) * tapBytes;
    if (runs) {
      copyRun(dst, rowBase + <usize>iw0 * tapBytes, rowRun);
      dst += <usize>(rowRun << 2);
      continue;
    }
    for (let kw = 0; kw < kW; kw++) {
      const iw = iw0 + kw * dW;
      if (iw >= 0 && iw < inW) copyRun(dst, rowBase + <usize>iw * tapBytes, inC);
      else zeroRun(dst, inC);
      dst += tapBytes;
    }
  }
}

/**
 * Gathers the rows of the `count` output pixels from (image `b`, row `oh`, column `ow`) on into `rows`
 * (`rowBytes` apart), counting the next pixels' positions.
 */
function gatherRows(pp: usize, input: usize, b: i32, oh: i32, ow: i32, count: i32, rows: usize, rowBytes: usize): void {
  const outHW = load<i32>(pp, G_OUT_HW);
  const outW = load<i32>(pp, G_OUT_W);
  const inH = load<i32>(pp, G_IN_H);
  const inW = load<i32>(pp, G_IN_W);
  const inC = load<i32>(pp, G_IN_C);
  const kH = load<i32>(pp, G_KH);
  const kW = load<i32>(pp, G_KW);
  const dH = load<i32>(pp, G_DIL_H);
  const dW = load<i32>(pp, G_DIL_W);
  const sH = load<i32>(pp, G_STRIDE_H);
  const sW = load<i32>(pp, G_STRIDE_W);
  const padH = load<i32>(pp, G_PAD_H);
  const padW = load<i32>(pp, G_PAD_W);
  const imageBytes = <usize>load<u32>(pp, G_IN_IMAGE_BYTES);
  let image = input + <usize>b * imageBytes;
  for (let i = 0; i < count; i++) {
    gatherRow(image, oh * sH - padH, ow * sW - padW, inH, inW, inC, kH, kW, dH, dW, rows + <usize>i * rowBytes);
    if (++ow == outW) {
      ow = 0;
      if (++oh * outW == outHW) {
        oh = 0;
        image += imageBytes;
      }
    }
  }
}

/**
 * The four output pixels from (image `b`, row `oh`, column `ow`) on, when they lie on one output row and
 * their windows inside the input with adjacent taps along the width (dilation 1): every block of
 * channels read straight from the input, window row after window row (kW x depth adjacent floats each,
 * pixel i's starting i x strideW pixels after pixel 0's), into output rows c0.. c0 + 3 x cStride. The
 * steps are the gathered rows' in the same order (so the same sums), without copying them. Returns
 * false, computing nothing, for any other block.
 */
function windowTile(pp: usize, input: usize, b: i32, oh: i32, ow: i32, c0: usize, cStride: usize, lo: v128, hi: v128): bool {
  const sW = load<i32>(pp, G_STRIDE_W);
  const inW = load<i32>(pp, G_IN_W);
  const kW = load<i32>(pp, G_KW);
  const ih0 = oh * load<i32>(pp, G_STRIDE_H) - load<i32>(pp, G_PAD_H);
  const iw0 = ow * sW - load<i32>(pp, G_PAD_W);
  const kH = load<i32>(pp, G_KH);
  const dH = load<i32>(pp, G_DIL_H);
  if (
    load<i32>(pp, G_DIL_W) != 1 ||
    ow + 3 >= load<i32>(pp, G_OUT_W) ||
    ih0 < 0 ||
    ih0 + (kH - 1) * dH >= load<i32>(pp, G_IN_H) ||
    iw0 < 0 ||
    iw0 + 3 * sW + kW > inW
  )
    return false;
  const inC = load<i32>(pp, G_IN_C);
  const outC = load<i32>(pp, G_OUT_C);
  const segLen = kW * inC;
  const rowStride = <usize>(dH * inW * inC) << 2;
  const pixBytes = <usize>(sW * inC) << 2;
  const first = input + <usize>b * <usize>load<u32>(pp, G_IN_IMAGE_BYTES) + (<usize>((ih0 * inW + iw0) * inC) << 2);
  let w = <usize>load<u32>(pp, G_PACKED);
  for (let n = 0; n < outC; n += 8) {
    const step = <usize>(min(8, outC - n) << 2);
    let acc00 = v128.load(w);
    let acc01 = v128.load(w, 16);
    let acc10 = acc00, acc11 = acc01, acc20 = acc00, acc21 = acc01, acc30 = acc00, acc31 = acc01;
    w += step;
    let row = first;
    for (let s = 0; s < kH; s++) {
      let x0 = row;
      let x1 = row + pixBytes;
      let x2 = x1 + pixBytes;
      let x3 = x2 + pixBytes;
      for (let k = 0; k < segLen; k++) {
        const b0 = v128.load(w);
        const b1 = v128.load(w, 16);
        w += step;
        const v0 = v128.load32_splat(x0);
        acc00 = madd(v0, b0, acc00);
        acc01 = madd(v0, b1, acc01);
        const v1 = v128.load32_splat(x1);
        acc10 = madd(v1, b0, acc10);
        acc11 = madd(v1, b1, acc11);
        const v2 = v128.load32_splat(x2);
        acc20 = madd(v2, b0, acc20);
        acc21 = madd(v2, b1, acc21);
        const v3 = v128.load32_splat(x3);
        acc30 = madd(v3, b0, acc30);
        acc31 = madd(v3, b1, acc31);
        x0 += 4;
        x1 += 4;
        x2 += 4;
        x3 += 4;
      }
      row += rowStride;
    }
    const nc = outC - n;
    const off = c0 + (<usize>n << 2);
    store8(off + 3 * cStride, clamp(acc30, lo, hi), clamp(acc31, lo, hi), nc);
    store8(off + 2 * cStride, clamp(acc20, lo, hi), clamp(acc21, lo, hi), nc);
    store8(off + cStride, clamp(acc10, lo, hi), clamp(acc11, lo, hi), nc);
    store8(off, clamp(acc00, lo, hi), clamp(acc01, lo, hi), nc);
  }
  return true;
}

/**
 * One GEMM row `a` into output row `c` (a last row left alone, e.g. FULLY_CONNECTED with one batch): the
 * tile's arithmetic on one row instead of four copies of it, so each block of eight channels costs two
 * f32x4 multiply-adds per step instead of eight.
 */
function f32_gemm_row(w: usize, a: usize, c: usize, outC: i32, K: i32, lo: v128, hi: v128): void {
  for (let n = 0; n < outC; n += 8) {
    const step = <usize>(min(8, outC - n) << 2);
    let acc0 = v128.load(w);
    let acc1 = v128.load(w, 16);
    w += step;
    let x = a;
    for (let k = 0; k < K; k++) {
      const v = v128.load32_splat(x);
      acc0 = madd(v, v128.load(w), acc0);
      acc1 = madd(v, v128.load(w, 16), acc1);
      w += step;
      x += 4;
    }
    store8(c + (<usize>n << 2), clamp(acc0, lo, hi), clamp(acc1, lo, hi), outC - n);
  }
}

/**
 * The tile's last block when it holds `nc` (1-4) channels: one f32x4 accumulator per row, half the
 * arithmetic of the eight-wide block (a step's load takes the next step's first weights into the lanes
 * past `nc`, which are never stored), rows stored last to first as in f32_conv_run.
 */
function narrowBlock4(w: usize, a0: usize, a1: usize, a2: usize, a3: usize, c0: usize, c1: usize, c2: usize, c3: usize, K: i32, lo: v128, hi: v128, nc: i32): void {
  const step = <usize>(nc << 2);
  let acc0 = v128.load(w);
  let acc1 = acc0, acc2 = acc0, acc3 = acc0;
  w += step;
  for (let k = 0; k < K; k++) {
    const b = v128.load(w);
    w += step;
    acc0 = madd(v128.load32_splat(a0), b, acc0);
    acc1 = madd(v128.load32_splat(a1), b, acc1);
    acc2 = madd(v128.load32_splat(a2), b, acc2);
    acc3 = madd(v128.load32_splat(a3), b, acc3);
    a0 += 4;
    a1 += 4;
    a2 += 4;
    a3 += 4;
  }
  storeLanes4(c3, clamp(acc3, lo, hi), nc);
  storeLanes4(c2, clamp(acc2, lo, hi), nc);
  storeLanes4(c1, clamp(acc1, lo, hi), nc);
  storeLanes4(c0, clamp(acc0, lo, hi), nc);
}

/** Stores the first `n` (1-4) lanes of `v` at `p`. */
@inline function storeLanes4(p: usize, v: v128, n: i32): void {
  if (n == 4) v128.store(p, v);
  else storeLanes(p, v, n);
}

/**
 * float32 convolution (or fully connected) with the parameter block at `pp`: output rows q..q+3 take
 * rows a0..a3 of the GEMM; two or three remaining rows repeat the last one (its stores write the same
 * values twice), a single remaining row runs alone (f32_gemm_row).
 */
export function f32_conv(pp: usize, input: usize, output: usize): void {
  f32_conv_run(pp, input, output, 0, load<i32>(pp, G_TOTAL), 0);
}

/**
 * f32_conv over output pixels [q0, q1) (q0 a multiple of four), gathering into thread `tid`'s four
 * rows (G_ROWS holds one set of four rows per thread); layers with sparse weights (G_SPARSE) go to
 * sparse-gemm.ts.
 */
export function f32_conv_run(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  // no output pixels (a window larger than its VALID input leaves an empty image): nothing to do, and
  // the pixel position below would divide by the empty image's size
  if (q0 >= q1) return;
  if (load<u32>(pp, G_SPARSE) != 0) {
    sparseConvRun(pp, input, output, q0, q1, tid);
    return;
  }
  const outC = load<i32>(pp, G_OUT_C);
  const K = load<i32>(pp, G_K);
  const packed = <usize>load<u32>(pp, G_PACKED);
  const rowBytes = <usize>load<u32>(pp, G_ROW_BYTES);
  const gather = load<i32>(pp, G_GATHER) != 0;
  const rows = gather ? threadSlot(<usize>load<u32>(pp, G_ROWS), tid, 4 * rowBytes) : 0;
  const lo = v128.load32_splat(pp, G_ACT_MIN);
  const hi = v128.load32_splat(pp, G_ACT_MAX);
  const cStride = <usize>(outC << 2);
  // a last block of 1-4 channels runs four wide (narrowBlock4), the others eight wide here
  const wide = (outC & 7) - 1 < 4 ? outC & ~7 : outC;
  // a convolution's position (b, oh, ow) of pixel q, counted along
  let outW = 1, outH = 1, b = 0, oh = 0, ow = 0;
  if (gather) {
    const outHW = load<i32>(pp, G_OUT_HW);
    outW = load<i32>(pp, G_OUT_W);
    outH = outHW / outW;
    b = q0 / outHW;
    const r = q0 - b * outHW;
    oh = r / outW;
    ow = r - oh * outW;
  }
  for (let q = q0; q < q1; q += 4) {
    const last = min(3, q1 - q - 1);
    let a0: usize, a1: usize, a2: usize, a3: usize;
    if (!gather) {
      a0 = input + <usize>q * rowBytes;
      a1 = a0 + <usize>min(1, last) * rowBytes;
      a2 = a0 + <usize>min(2, last) * rowBytes;
      a3 = a0 + <usize>last * rowBytes;
    } else {
      const pb = b, poh = oh, pow = ow;
      ow += 4;
      while (ow >= outW) {
        ow -= outW;
        if (++oh == outH) {
          oh = 0;
          b++;
        }
      }
      if (last == 3 && windowTile(pp, input, pb, poh, pow, output + <usize>q * cStride, cStride, lo, hi)) continue;
      gatherRows(pp, input, pb, poh, pow, last + 1, rows, rowBytes);
      a0 = rows;
      a1 = rows + <usize>min(1, last) * rowBytes;
      a2 = rows + <usize>min(2, last) * rowBytes;
      a3 = rows + <usize>last * rowBytes;
    }
    const c0 = output + <usize>q * cStride;
    if (last == 0) {
      f32_gemm_row(packed, a0, c0, outC, K, lo, hi);
      continue;
    }
    const c1 = c0 + <usize>min(1, last) * cStride;
    const c2 = c0 + <usize>min(2, last) * cStride;
    const c3 = c0 + <usize>last * cStride;
    let w = packed;
    for (let n = 0; n < wide; n += 8) {
      const step = <usize>(min(8, outC - n) << 2);
      let acc00 = v128.load(w);
      let acc01 = v128.load(w, 16);
      let acc10 = acc00, acc11 = acc01, acc20 = acc00, acc21 = acc01, acc30 = acc00, acc31 = acc01;
      w += step;
      let x0 = a0, x1 = a1, x2 = a2, x3 = a3;
      for (let k = 0; k < K; k++) {
        const b0 = v128.load(w);
        const b1 = v128.load(w, 16);
        w += step;
        const v0 = v128.load32_splat(x0);
        acc00 = madd(v0, b0, acc00);
        acc01 = madd(v0, b1, acc01);
        const v1 = v128.load32_splat(x1);
        acc10 = madd(v1, b0, acc10);
        acc11 = madd(v1, b1, acc11);
        const v2 = v128.load32_splat(x2);
        acc20 = madd(v2, b0, acc20);
        acc21 = madd(v2, b1, acc21);
        const v3 = v128.load32_splat(x3);
        acc30 = madd(v3, b0, acc30);
        acc31 = madd(v3, b1, acc31);
        x0 += 4;
        x1 += 4;
        x2 += 4;
        x3 += 4;
      }
      const nc = outC - n;
      const off = <usize>(n << 2);
      // rows stored last to first: a repeated row's stores write the same values again
      store8(c3 + off, clamp(acc30, lo, hi), clamp(acc31, lo, hi), nc);
      store8(c2 + off, clamp(acc20, lo, hi), clamp(acc21, lo, hi), nc);
      store8(c1 + off, clamp(acc10, lo, hi), clamp(acc11, lo, hi), nc);
      store8(c0 + off, clamp(acc00, lo, hi), clamp(acc01, lo, hi), nc);
    }
    if (wide < outC) {
      const off = <usize>(wide << 2);
      narrowBlock4(w, a0, a1, a2, a3, c0 + off, c1 + off, c2 + off, c3 + off, K, lo, hi, outC - wide);
    }
  }
}
