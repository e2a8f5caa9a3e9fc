// int8 CONV_2D / FULLY_CONNECTED as a GEMM over tap pointers: for each block of four output pixels,
// the input pixel of every filter tap (or a row of input zero points where the tap falls in the
// padding) is looked up once and the four rows are sign-extended to int16 once into a scratch buffer
// (W_EXT), then every group of eight output channels runs a 4-pixel x 8-channel register tile (eight
// i32x4 accumulators, four channels of one pixel each, starting from the folded bias) over taps x
// (channels rounded up to 8), with i32x4.dot_i16x8_s ("c2s4", as XNNPACK's QS8 GEMMs: each 8-value
// slice is four int32 lanes of int16 pairs; the four rotations of the slice meet four weight vectors
// whose lane l holds channel l's pair (l + j) mod 4, so after the four rotations every lane has summed
// its channel's whole slice, and no horizontal reduction is needed). The scratch row holds each slice
// twice in a row, so rotation j is a plain load at byte offset 4j. The weights stay int8 in memory:
// v128.load8x8_s sign-extends each 8-byte half to i16x8 as it loads it (as XNNPACK's wasmsimd qs8
// kernels do). Requantization is per lane (the channels' own multipliers and shifts, see requant.ts)
// on the accumulators as they are.
//
// Packed weights (src/kernels/weight-pack.ts), per group of eight output channels:
//   [8 folded biases, int32: bias - input_zp * sum(w)]
//   then for each tap, for each 8-channel slice, for each rotation j = 0..3: channels 0-3 then 4-7, lane
//   l holding the int8 pair (w[2p], w[2p+1]) with p = (l + j) mod 4 (64 bytes per slice).
// A last group of at most four channels holds 4 biases and only channels 0-3 (32 bytes per slice).
// The requantization blocks are apart (W_RQ), one per four channels W_RQ_STRIDE bytes apart (0 when
// every channel shares one). Channels past the input depth and output channels past outC are zero, so
// reading a few bytes past a pixel contributes nothing. The bias already holds -input_zp * sum(w), so
// the padding row (input zero points) contributes zero, as TFLM's skipped taps do.
// int8 layers in the rows layout (W_GATHER 2, see extendRows) read their window rows in place instead of
// gathering a compact row: K is ordered as the first 8a values of each window row, then the last value of
// each (window rows of 8a + 1 values, at most eight of them).
// uint8 layers (W_U8, TFLite's asymmetric quantization) run the same tiles with the activations
// zero-extended (v128.load8x8_u), the weights stored as int16 (w - filter zero point, in [-255, 255]:
// every product and pair sum of dot_i16x8_s stays exact) at twice the int8 layout's offsets, and the
// outputs narrowed to uint8.
// Hybrid layers (W_RAW, float32 activations quantized at invoke, see assembly/hybrid/epilogue.ts) run the
// int8 tiles with zero biases and store the int32 accumulators as they are (four bytes per output);
// hybrid_epilogue turns them into float32 outputs in place.
import { storeBytes } from './requant';
import { pack8, requant, store8, storeTile4, storeTile8 } from './tile-out';
import { tapPointersAt, threadArea, windowBegin } from './window';
import { copyBlocks, tileGroupsRelaxed } from './conv-relaxed';
import { GEMM_TILE_PIXELS, W_ACT_MAX, W_ACT_MIN, W_DIL_H, W_DIL_W, W_DIRECT, W_DOT_MODE, W_GATHER, W_GEMV, W_IN_C, W_IN_H, W_IN_IMAGE, W_IN_W, W_KB8, W_KH, W_KW, W_OUT16, W_OUT_C, W_OUT_HW, W_OUT_W, W_PACKED, W_PAD_H, W_PAD_W, W_RAW, W_RIGHT_ONLY, W_RQ, W_RQ_STRIDE, W_STRIDE_H, W_STRIDE_W, W_THREAD_EXT, W_THREAD_ROWS, W_TOTAL, W_U8, W_ZP_IN, W_ZP_OUT } from '../generated/abi';

/** Bytes of one slice of the tile's four sign-extended rows: four pixels x (8 values x 2 bytes, stored twice). */
const SLICE_BYTES: usize = 32 * GEMM_TILE_PIXELS;

/** Full groups of eight output channels, and whether a last group of four follows (at most four channels left). */
@inline function fullGroups(outC: i32): i32 {
  const rest = outC & 7;
  return rest >= 1 && rest <= 4 ? outC >> 3 : (outC + 7) >> 3;
}

/**
 * Copies the `taps` runs of `inC` bytes at the pointers in `ptrs` one after the other into `dst` (the
 * compact im2col row), eight bytes at a time (`dst` has 16 bytes of slack).
 */
@inline function gatherRow(ptrs: usize, taps: i32, inC: i32, dst: usize): void {
  for (let t = 0; t < taps; t++) {
    let src = <usize>load<u32>(ptrs + <usize>(t << 2));
    let d = dst + <usize>(t * inC);
    for (let n = 0; n < inC; n += 8) {
      v128.store64_lane(d, v128.load64_zero(src), 0);
      src += 8;
      d += 8;
    }
  }
}

/** Writes `n` bytes of `v` from `d`, sixteen at a time (up to 15 bytes past `d + n` are written too). */
@inline function fill16(d: usize, v: v128, n: usize): void {
  for (let k: usize = 0; k < n; k += 16) v128.store(d + k, v);
}

/**
 * The compact im2col row of output pixel (oh, ow) of the image at `image` when its taps along a window row are neighbours
 * (dilation_w 1): each window row is one run of kW x inC bytes: the input columns inside the image
 * copied sixteen bytes at a time, the columns and rows in the padding filled with the input zero
 * point. Each piece is written after the one before it, so the up to 15 bytes a piece writes past its
 * end are overwritten by the next (the row has 16 bytes of slack; the memory has READ_SLACK bytes past
 * the arena for the reads). Returns false, having written nothing, for dilation_w > 1.
 */
@inline function gatherRuns(pp: usize, image: usize, oh: i32, ow: i32, dst: usize): bool {
  if (load<i32>(pp, W_DIL_W) != 1) return false;
  const inH = load<i32>(pp, W_IN_H);
  const inW = load<i32>(pp, W_IN_W);
  const inC = load<i32>(pp, W_IN_C);
  const kH = load<i32>(pp, W_KH);
  const kW = load<i32>(pp, W_KW);
  const dH = load<i32>(pp, W_DIL_H);
  const ih0 = oh * load<i32>(pp, W_STRIDE_H) - load<i32>(pp, W_PAD_H);
  const iw0 = ow * load<i32>(pp, W_STRIDE_W) - load<i32>(pp, W_PAD_W);
  // window columns [kwLo, kwHi) are inside the image
  const kwLo = max(0, -iw0);
  const kwHi = min(kW, inW - iw0);
  const run = <usize>(kW * inC);
  const lead = <usize>(kwLo * inC);
  const body = kwHi > kwLo ? <usize>((kwHi - kwLo) * inC) : 0;
  const zp = i8x16.splat(<i8>load<i32>(pp, W_ZP_IN));
  let d = dst;
  for (let kh = 0; kh < kH; kh++) {
    const ih = ih0 + kh * dH;
    if (ih < 0 || ih >= inH || body == 0) {
      fill16(d, zp, run);
    } else {
      if (lead > 0) fill16(d, zp, lead);
      const src = image + <usize>((ih * inW + iw0 + kwLo) * inC);
      for (let n: usize = 0; n < body; n += 16) v128.store(d + lead + n, v128.load(src + n));
      if (lead + body < run) fill16(d + lead + body, zp, run - lead - body);
    }
    d += run;
  }
  return true;
}

/** Stores the first `n` (> 0) int32 lanes of `v` at `p`. */
@inline function storeLanes32(p: usize, v: v128, n: i32): void {
  if (n >= 4) v128.store(p, v);
  else storeBytes(p, v, n << 2);
}

/** Stores the int32 accumulators of eight (or `n` < 8) channels, lanes of `a` then `b`, at `p` (W_RAW). */
@inline export function storeRaw(p: usize, a: v128, b: v128, n: i32): void {
  storeLanes32(p, a, n);
  if (n > 4) storeLanes32(p + 16, b, n - 4);
}

/**
 * Sign-extends (`u8`: zero-extends) the `kb8` 8-value slices at `x` into `e`, each stored twice (a load
 * at +4j is the slice rotated by j lanes), SLICE_BYTES apart (the tile's pixels are interleaved per slice).
 */
@inline function extendRun(x: usize, kb8: i32, e: usize, u8: bool): void {
  for (let k = 0; k < kb8; k++) {
    const v = u8 ? v128.load8x8_u(x) : v128.load8x8_s(x);
    v128.store(e, v);
    v128.store(e, v, 16);
    x += 8;
    e += SLICE_BYTES;
  }
}

/**
 * The window of output pixel `q` = (b, oh, ow): (`gather`) its compact row gathered into `row`, or its tap
 * pointers into `ptrs` (a 1x1 window over the same pixel, W_DIRECT: one pointer, no coordinates).
 */
@inline function pixelWindow(pp: usize, input: usize, q: i32, b: i32, oh: i32, ow: i32, gather: bool, ptrs: usize, row: usize, windowTaps: i32, inC: i32): void {
  const image = input + <usize>(b * load<i32>(pp, W_IN_IMAGE));
  if (gather) {
    if (!gatherRuns(pp, image, oh, ow, row)) {
      tapPointersAt(pp, image, oh, ow, ptrs);
      gatherRow(ptrs, windowTaps, inC, row);
    }
  } else if (load<i32>(pp, W_DIRECT) != 0) {
    store<u32>(ptrs, <u32>(input + <usize>(q * inC)));
  } else {
    tapPointersAt(pp, image, oh, ow, ptrs);
  }
}

/**
 * The sign-extended slices of output pixel (oh, ow) of the image at `image` in the rows layout (W_GATHER 2,
 * src/kernels/weight-pack.ts's rowsLayout: dilation_w 1, window rows of L = kW x inC = 8a + 1 values, kH <= 8)
 * into `e`: the first 8a values of each window row are a slices of their own, extended straight from the
 * input (no compact row is written and read back); the last values of the kH rows make one more slice
 * (lanes past kH meet zero weights). A window that reaches into the padding is first gathered into `row`
 * (gatherRuns, rows L bytes apart) and read from there.
 */
@inline function extendRows(pp: usize, image: usize, oh: i32, ow: i32, row: usize, e: usize, u8: bool): void {
  const inH = load<i32>(pp, W_IN_H);
  const inW = load<i32>(pp, W_IN_W);
  const inC = load<i32>(pp, W_IN_C);
  const kH = load<i32>(pp, W_KH);
  const kW = load<i32>(pp, W_KW);
  const dH = load<i32>(pp, W_DIL_H);
  const ih0 = oh * load<i32>(pp, W_STRIDE_H) - load<i32>(pp, W_PAD_H);
  const iw0 = ow * load<i32>(pp, W_STRIDE_W) - load<i32>(pp, W_PAD_W);
  const run = kW * inC;
  let src: usize, rs: usize;
  if (ih0 >= 0 && ih0 + (kH - 1) * dH < inH && iw0 >= 0 && iw0 + kW <= inW) {
    src = image + <usize>((ih0 * inW + iw0) * inC);
    rs = <usize>(dH * inW * inC);
  } else {
    gatherRuns(pp, image, oh, ow, row);
    src = row;
    rs = <usize>run;
  }
  const a = run >> 3;
  let d = e;
  let s = src;
  for (let kh = 0; kh < kH; kh++) {
    for (let k = 0; k < a; k++) {
      const v = u8 ? v128.load8x8_u(s + <usize>(k << 3)) : v128.load8x8_s(s + <usize>(k << 3));
      v128.store(d, v);
      v128.store(d, v, 16);
      d += SLICE_BYTES;
    }
    s += rs;
  }
  // the last value of each row
  const last = src + <usize>(a << 3);
  let t = i16x8.splat(<i16>rowValue(last, u8));
  if (kH > 1) t = i16x8.replace_lane(t, 1, <i16>rowValue(last + rs, u8));
  if (kH > 2) t = i16x8.replace_lane(t, 2, <i16>rowValue(last + 2 * rs, u8));
  if (kH > 3) t = i16x8.replace_lane(t, 3, <i16>rowValue(last + 3 * rs, u8));
  if (kH > 4) t = i16x8.replace_lane(t, 4, <i16>rowValue(last + 4 * rs, u8));
  if (kH > 5) t = i16x8.replace_lane(t, 5, <i16>rowValue(last + 5 * rs, u8));
  if (kH > 6) t = i16x8.replace_lane(t, 6, <i16>rowValue(last + 6 * rs, u8));
  if (kH > 7) t = i16x8.replace_lane(t, 7, <i16>rowValue(last + 7 * rs, u8));
  v128.store(d, t);
  v128.store(d, t, 16);
}

/** The activation at `p`: int8 sign-extended, or (`u8`) uint8. */
@inline function rowValue(p: usize, u8: bool): i32 {
  return u8 ? <i32>load<u8>(p) : <i32>load<i8>(p);
}

/**
 * The sign-extended rows of the tile at pixel `q` (`np` real pixels; the rest repeat the last) into
 * `ext`, one pixel at a time: its window (pixelWindow; the pixel's coordinates divided out once per tile
 * and stepped from there), then taps x kb8 slices of 32 bytes, pixel i's slice k at ext + k * SLICE_BYTES
 * + 32 i. `relaxed` (the relaxed-dot tile): 16-byte blocks copied as they are, XORed with `bias`
 * (copyBlocks), instead of 8-value slices widened to int16.
 */
@inline function tileRows(pp: usize, input: usize, q: i32, np: i32, gather: bool, ptrs: usize, row: usize, windowTaps: i32, inC: i32, kb8: i32, ext: usize, u8: bool, relaxed: bool = false, bias: v128 = i32x4.splat(0), rows: bool = false): void {
  const outHW = load<i32>(pp, W_OUT_HW);
  const outW = load<i32>(pp, W_OUT_W);
  let b = q / outHW;
  let r = q - b * outHW;
  let oh = r / outW;
  let ow = r - oh * outW;
  for (let i = 0; i < GEMM_TILE_PIXELS; i++) {
    if (i > 0 && i < np) {
      // the next pixel
      r++;
      if (++ow == outW) {
        ow = 0;
        oh++;
      }
      if (r == outHW) {
        r = 0;
        oh = 0;
        b++;
      }
    }
    const e = ext + <usize>(i << 5);
    if (rows) {
      // the rows layout (W_GATHER 2; never with the relaxed tile)
      extendRows(pp, input + <usize>(b * load<i32>(pp, W_IN_IMAGE)), oh, ow, row, e, u8);
      continue;
    }
    pixelWindow(pp, input, q + min(i, np - 1), b, oh, ow, gather, ptrs, row, windowTaps, inC);
    if (relaxed) {
      if (gather) copyBlocks(row, kb8, e, bias);
      else for (let t = 0; t < windowTaps; t++) copyBlocks(<usize>load<u32>(ptrs + <usize>(t << 2)), kb8, e + <usize>(t * kb8) * SLICE_BYTES, bias);
    } else if (gather) {
      extendRun(row, kb8, e, u8);
    } else {
      for (let t = 0; t < windowTaps; t++) extendRun(<usize>load<u32>(ptrs + <usize>(t << 2)), kb8, e + <usize>(t * kb8) * SLICE_BYTES, u8);
    }
  }
}

/**
 * int8 convolution (or fully connected: 1x1 over `batches` pixels) with the parameter block at `pp`.
 * With W_GATHER (input depth not a multiple of 8, several taps) the taps' runs are first copied into
 * compact rows, so K = taps x depth is padded to 8 once instead of per tap (a 3x3 filter over 3
 * channels: 32 instead of 72).
 */
export function qs8_conv(pp: usize, input: usize, output: usize): void {
  windowBegin(pp);
  qs8_conv_run(pp, input, output, 0, load<i32>(pp, W_TOTAL), 0);
}

/**
 * qs8_conv over output pixels [q0, q1) with the scratch area of thread `tid`, after windowBegin (one
 * pixel in all: the one-pixel GEMM, which takes every channel).
 */
export function qs8_conv_run(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  if (load<i32>(pp, W_GATHER) == 2) convRowsRun(pp, input, output, q0, q1, tid);
  else convRun(pp, input, output, q0, q1, tid, false);
}

/** qs8_conv_run of the rows layout (W_GATHER 2), a function of its own so that the other layers' code stays as it was. */
function convRowsRun(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  convRun(pp, input, output, q0, q1, tid, true);
}

/**
 * qs8_conv_run with `rows` constant: the rows layout (W_GATHER 2: the pixels' slices by extendRows; int8
 * layers only, src/kernels/weight-pack.ts sets it for neither uint8 nor hybrid ones).
 */
@inline function convRun(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32, rows: bool): void {
  const total = load<i32>(pp, W_TOTAL);
  const outC = load<i32>(pp, W_OUT_C);
  const windowTaps = load<i32>(pp, W_KH) * load<i32>(pp, W_KW);
  const gather = load<i32>(pp, W_GATHER) != 0;
  const inC = load<i32>(pp, W_IN_C);
  const kb8 = load<i32>(pp, W_KB8);
  const taps = gather ? 1 : windowTaps;
  const packed = <usize>load<u32>(pp, W_PACKED);
  const area = threadArea(pp, tid);
  const ptrs = area;
  const rowBuf = area + <usize>load<i32>(pp, W_THREAD_ROWS);
  const lo = i8x16.splat(<i8>load<i32>(pp, W_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(pp, W_ACT_MAX));
  const zp = i32x4.splat(load<i32>(pp, W_ZP_OUT));
  const full = fullGroups(outC);
  const half = full << 3 < outC;
  const rq = <usize>load<u32>(pp, W_RQ);
  const rqStride = <usize>load<i32>(pp, W_RQ_STRIDE);
  const rightOnly = load<i32>(pp, W_RIGHT_ONLY) != 0;
  const stride = <usize>outC;
  const ext = (area + <usize>load<i32>(pp, W_THREAD_EXT) + 31) & ~<usize>31; // 32-aligned: no load at +4j crosses a cache line
  const slices = taps * kb8;
  if (load<i32>(pp, W_GEMV) != 0) {
    gemvRun(pp, input, output, q0, q1, tid);
    return;
  }
  if (ASC_FEATURE_RELAXED_SIMD && !rows) {
    const mode = load<i32>(pp, W_DOT_MODE);
    if (mode != 0) {
      // W_KB8: 16-value blocks per tap (or per gathered row); activations biased to unsigned for usdot
      const bias = i8x16.splat(mode == 1 ? -128 : 0);
      for (let q = q0; q < q1; q += GEMM_TILE_PIXELS) {
        const np = min(GEMM_TILE_PIXELS, q1 - q);
        tileRows(pp, input, q, np, gather, ptrs, rowBuf, windowTaps, inC, kb8, ext, false, true, bias);
        const o = output + <usize>q * stride;
        if (rightOnly) {
          if (np == GEMM_TILE_PIXELS) tileGroupsRelaxed(packed, rq, rqStride, ext, taps * kb8, full, half, outC, o, stride, GEMM_TILE_PIXELS, true, lo, hi, zp);
          else tileGroupsRelaxed(packed, rq, rqStride, ext, taps * kb8, full, half, outC, o, stride, np, true, lo, hi, zp);
        } else {
          tileGroupsRelaxed(packed, rq, rqStride, ext, taps * kb8, full, half, outC, o, stride, np, false, lo, hi, zp);
        }
      }
      return;
    }
  }
  if (!rows && load<i32>(pp, W_RAW) != 0) {
    // hybrid: int8 tiles, the int32 accumulators stored as they are (outC x 4 bytes per pixel)
    const stride32 = stride << 2;
    for (let q = q0; q < q1; q += GEMM_TILE_PIXELS) {
      const np = min(GEMM_TILE_PIXELS, q1 - q);
      tileRows(pp, input, q, np, gather, ptrs, rowBuf, windowTaps, inC, kb8, ext, false, false, i32x4.splat(0), rows);
      const o = output + <usize>q * stride32;
      if (np == GEMM_TILE_PIXELS) tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride32, GEMM_TILE_PIXELS, false, lo, hi, zp, false, true);
      else tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride32, np, false, lo, hi, zp, false, true);
    }
    return;
  }
  if (!rows && load<i32>(pp, W_U8) != 0) {
    // TFLite's uint8: zero-extended activations, int16 weights, uint8 outputs
    for (let q = q0; q < q1; q += GEMM_TILE_PIXELS) {
      const np = min(GEMM_TILE_PIXELS, q1 - q);
      tileRows(pp, input, q, np, gather, ptrs, rowBuf, windowTaps, inC, kb8, ext, true, false, i32x4.splat(0), rows);
      const o = output + <usize>q * stride;
      if (rightOnly) {
        if (np == GEMM_TILE_PIXELS) tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride, GEMM_TILE_PIXELS, true, lo, hi, zp, true);
        else tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride, np, true, lo, hi, zp, true);
      } else {
        tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride, np, false, lo, hi, zp, true);
      }
    }
    return;
  }
  for (let q = q0; q < q1; q += GEMM_TILE_PIXELS) {
    const np = min(GEMM_TILE_PIXELS, q1 - q);
    tileRows(pp, input, q, np, gather, ptrs, rowBuf, windowTaps, inC, kb8, ext, false, false, i32x4.splat(0), rows);
    const o = output + <usize>q * stride;
    if (rightOnly) {
      if (np == GEMM_TILE_PIXELS) tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride, GEMM_TILE_PIXELS, true, lo, hi, zp, false);
      else tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride, np, true, lo, hi, zp, false);
    } else {
      tileGroups(packed, rq, rqStride, ext, slices, full, half, outC, o, stride, np, false, lo, hi, zp, false);
    }
  }
}

/**
 * The 4-pixel x 8-channel tiles of every full channel group, then the 4-pixel x 4-channel tile of a
 * last half group, over the sign-extended rows at `ext`, stored at `o` (`np` pixels of `stride` bytes).
 * Inlined with constant `rightOnly` (every channel has left shift 0 and right shift >= 1) and, for full
 * tiles, constant `np` = GEMM_TILE_PIXELS = 4, so those branches fold away. (A 5-pixel tile, ten
 * accumulators, ran 45 % slower: V8 spills.)
 */
@inline function tileGroups(packed: usize, rq: usize, rqStride: usize, ext: usize, slices: i32, full: i32, half: bool, outC: i32, o: usize, stride: usize, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128, u8: bool, raw: bool = false): void {
  let w = packed;
  let r = rq;
  for (let g = 0; g < full; g++) {
    const biasA = v128.load(w);
    const biasB = v128.load(w, 16);
    w += 32;
    let a0 = biasA, a1 = biasA, a2 = biasA, a3 = biasA;
    let b0 = biasB, b1 = biasB, b2 = biasB, b3 = biasB;
    let x = ext;
    // slices x four rotations: rotation j of a slice is the load at +4j of its doubled copy
    for (let k = 0; k < slices; k++) {
      for (let j = 0; j < 4; j++) {
        const wa = u8 ? v128.load(w) : v128.load8x8_s(w);
        const wb = u8 ? v128.load(w, 16) : v128.load8x8_s(w, 8);
        let v = v128.load(x);
        a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v, wa));
        b0 = i32x4.add(b0, i32x4.dot_i16x8_s(v, wb));
        v = v128.load(x, 32);
        a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v, wa));
        b1 = i32x4.add(b1, i32x4.dot_i16x8_s(v, wb));
        v = v128.load(x, 64);
        a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v, wa));
        b2 = i32x4.add(b2, i32x4.dot_i16x8_s(v, wb));
        v = v128.load(x, 96);
        a3 = i32x4.add(a3, i32x4.dot_i16x8_s(v, wa));
        b3 = i32x4.add(b3, i32x4.dot_i16x8_s(v, wb));
        x += 4;
        w += u8 ? 32 : 16;
      }
      x += SLICE_BYTES - 16;
    }
    const rB = r + rqStride;
    const n = outC - (g << 3);
    if (raw) {
      // hybrid (W_RAW): the accumulators as they are, `stride` bytes per pixel
      const o32 = o + <usize>(g << 5);
      storeRaw(o32, a0, b0, n);
      if (np > 1) storeRaw(o32 + stride, a1, b1, n);
      if (np > 2) storeRaw(o32 + 2 * stride, a2, b2, n);
      if (np > 3) storeRaw(o32 + 3 * stride, a3, b3, n);
      continue;
    }
    storeTile8(a0, a1, a2, a3, b0, b1, b2, b3, r, rB, o + <usize>(g << 3), stride, n, np, rightOnly, lo, hi, zp, u8);
    r = rB + rqStride;
  }
  if (!half) return;
  // the last group of at most four channels: 4 pixels x 4 channels
  const bias = v128.load(w);
  w += 16;
  let a0 = bias, a1 = bias, a2 = bias, a3 = bias;
  let x = ext;
  for (let k = 0; k < slices; k++) {
    for (let j = 0; j < 4; j++) {
      const wa = u8 ? v128.load(w) : v128.load8x8_s(w);
      a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v128.load(x), wa));
      a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v128.load(x, 32), wa));
      a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v128.load(x, 64), wa));
      a3 = i32x4.add(a3, i32x4.dot_i16x8_s(v128.load(x, 96), wa));
      x += 4;
      w += u8 ? 16 : 8;
    }
    x += SLICE_BYTES - 16;
  }
  const n = outC - (full << 3);
  if (raw) {
    const o32 = o + <usize>(full << 5);
    storeLanes32(o32, a0, n);
    if (np > 1) storeLanes32(o32 + stride, a1, n);
    if (np > 2) storeLanes32(o32 + 2 * stride, a2, n);
    if (np > 3) storeLanes32(o32 + 3 * stride, a3, n);
    return;
  }
  storeTile4(a0, a1, a2, a3, r, o + <usize>(full << 3), stride, n, np, rightOnly, lo, hi, zp, u8);
}

/**
 * Sum over one slice's four rotations of `v` (lanes: int16 pairs) against the int8 weights at `w`, the
 * rotations `rs` bytes apart (16 in a full group, whose second half is at +8; 8 in a half group).
 */
@inline function sliceDot(v: v128, w: usize, rs: usize, wide: bool): v128 {
  let s = i32x4.dot_i16x8_s(v, weights8(w, wide));
  s = i32x4.add(s, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 1, 2, 3, 0), weights8(w + rs, wide)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 2, 3, 0, 1), weights8(w + 2 * rs, wide)));
  return i32x4.add(s, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 3, 0, 1, 2), weights8(w + 3 * rs, wide)));
}

/** Eight weights as i16x8: int8 sign-extended, or (`wide`, uint8 layers) int16 as stored. */
@inline function weights8(w: usize, wide: bool): v128 {
  return wide ? v128.load(w) : v128.load8x8_s(w);
}

/** Stores the outputs of one group (`n` channels from `c`): int16 clamped to [lo16, hi16], or int8. */
@inline function storeGroup(output: usize, c: i32, n: i32, sa: v128, sb: v128, out16: bool, rightOnly: bool, lo8: v128, hi8: v128, lo16: v128, hi16: v128, u8: bool): void {
  if (out16) {
    const v = i16x8.min_s(i16x8.max_s(i16x8.narrow_i32x4_s(sa, sb), lo16), hi16);
    const o = output + <usize>(c << 1);
    if (n >= 8) v128.store(o, v);
    else storeBytes(o, v, n << 1);
  } else {
    store8(output + <usize>c, pack8(sa, sb, rightOnly, lo8, hi8, u8), n);
  }
}

/**
 * The one-pixel GEMM (W_GEMV; weights in the GEMV layout, src/kernels/weight-pack.ts's packGemv) over output
 * pixels [q0, q1): FULLY_CONNECTED with one batch, a 1x1 convolution of a 1x1 image (the 4-pixel tile would
 * compute three copies of the pixel), and gathered layers of few channels, whose pixels each gather their
 * compact row into the thread's row buffer and run on it (no sign-extended rows: the scratch holds one row),
 * or, int8 layers whose window rows are whole slices, read a window inside the image in place.
 * Each channel group is one row of dot products (the input's rotations by shuffles). With W_OUT16 the
 * outputs are int16 (the LSTM's Q3.12 gates), clamped to [act_min, act_max].
 */
function gemvRun(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  if (load<i32>(pp, W_RAW) != 0) gemvPixels(pp, input, output, q0, q1, tid, false, true);
  else if (load<i32>(pp, W_U8) != 0) gemvPixels(pp, input, output, q0, q1, tid, true);
  else if (load<i32>(pp, W_GATHER) != 0 && load<i32>(pp, W_DIL_W) == 1 && ((load<i32>(pp, W_KW) * load<i32>(pp, W_IN_C)) & 7) == 0) gemvRowsInPlace(pp, input, output, q0, q1, tid);
  else gemvPixels(pp, input, output, q0, q1, tid, false);
}

/**
 * gemvRun with `u8` constant: uint8 activations (zero-extended), int16 weights and uint8 outputs; with `raw`
 * constant (hybrid, W_RAW): the int32 accumulators stored as they are. Without W_GATHER the pixels are
 * one (q = 0, the input as it is) or W_DIRECT rows (pixel q at input + q * inC).
 */
@inline function gemvPixels(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32, u8: bool, raw: bool = false): void {
  const out16 = load<i32>(pp, W_OUT16) != 0;
  const packed = <usize>load<u32>(pp, W_PACKED);
  const rq = <usize>load<u32>(pp, W_RQ);
  const rqStride = <usize>load<i32>(pp, W_RQ_STRIDE);
  const outC = load<i32>(pp, W_OUT_C);
  const inC = load<i32>(pp, W_IN_C);
  const gather = load<i32>(pp, W_GATHER) != 0;
  const windowTaps = load<i32>(pp, W_KH) * load<i32>(pp, W_KW);
  const K = gather ? windowTaps * inC : inC;
  const zpOut = load<i32>(pp, W_ZP_OUT);
  const actMin = load<i32>(pp, W_ACT_MIN);
  const actMax = load<i32>(pp, W_ACT_MAX);
  const rightOnly = !out16 && load<i32>(pp, W_RIGHT_ONLY) != 0; // requantLanesRight is for int8 outputs
  const outBytes = <usize>(raw ? outC << 2 : out16 ? outC << 1 : outC);
  const area = gather ? threadArea(pp, tid) : 0;
  const row = area + <usize>load<i32>(pp, W_THREAD_ROWS);
  const outHW = load<i32>(pp, W_OUT_HW);
  const outW = load<i32>(pp, W_OUT_W);
  for (let q = q0; q < q1; q++) {
    let x = input + <usize>(q * inC);
    if (gather) {
      const b = q / outHW;
      const r = q - b * outHW;
      const oh = r / outW;
      pixelWindow(pp, input, q, b, oh, r - oh * outW, true, area, row, windowTaps, inC);
      x = row;
    }
    gemvWith(packed, rq, rqStride, x, output + <usize>q * outBytes, outC, K, zpOut, actMin, actMax, out16, rightOnly, u8, raw);
  }
}

/**
 * gemvPixels of an int8 gathered layer whose window rows are whole slices (dilation_w 1, kW x inC a multiple
 * of 8): a window inside the image is read in place, its kH rows of `run` slices `gap` bytes apart, without
 * gathering; a window that reaches into the padding is gathered into the row buffer first (its rows then
 * follow one another: gap 0).
 */
function gemvRowsInPlace(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  const packed = <usize>load<u32>(pp, W_PACKED);
  const rq = <usize>load<u32>(pp, W_RQ);
  const rqStride = <usize>load<i32>(pp, W_RQ_STRIDE);
  const outC = load<i32>(pp, W_OUT_C);
  const inC = load<i32>(pp, W_IN_C);
  const inH = load<i32>(pp, W_IN_H);
  const inW = load<i32>(pp, W_IN_W);
  const kH = load<i32>(pp, W_KH);
  const kW = load<i32>(pp, W_KW);
  const dH = load<i32>(pp, W_DIL_H);
  const sH = load<i32>(pp, W_STRIDE_H);
  const sW = load<i32>(pp, W_STRIDE_W);
  const padH = load<i32>(pp, W_PAD_H);
  const padW = load<i32>(pp, W_PAD_W);
  const image = <usize>load<i32>(pp, W_IN_IMAGE);
  const K = kH * kW * inC;
  const zpOut = load<i32>(pp, W_ZP_OUT);
  const actMin = load<i32>(pp, W_ACT_MIN);
  const actMax = load<i32>(pp, W_ACT_MAX);
  const rightOnly = load<i32>(pp, W_RIGHT_ONLY) != 0;
  const area = threadArea(pp, tid);
  const row = area + <usize>load<i32>(pp, W_THREAD_ROWS);
  const outHW = load<i32>(pp, W_OUT_HW);
  const outW = load<i32>(pp, W_OUT_W);
  const run = (kW * inC) >> 3;
  const rowGap = <usize>(dH * inW * inC - kW * inC);
  for (let q = q0; q < q1; q++) {
    const b = q / outHW;
    const r = q - b * outHW;
    const oh = r / outW;
    const ow = r - oh * outW;
    const ih0 = oh * sH - padH;
    const iw0 = ow * sW - padW;
    let x = row;
    let gap: usize = 0;
    if (ih0 >= 0 && ih0 + (kH - 1) * dH < inH && iw0 >= 0 && iw0 + kW <= inW) {
      x = input + <usize>b * image + <usize>((ih0 * inW + iw0) * inC);
      gap = rowGap;
    } else {
      pixelWindow(pp, input, q, b, oh, ow, true, area, row, kH * kW, inC);
    }
    gemvWith(packed, rq, rqStride, x, output + <usize>(q * outC), outC, K, zpOut, actMin, actMax, false, rightOnly, false, false, true, run, gap);
  }
}

/**
 * The int8 LSTM's gate FC (assembly/int8/lstm.ts): gemv of int8 activations with int16 outputs clamped to
 * int16, one requantization block `rq` for every channel, without a W block: `packed` the packGemv
 * weights (outC channels over K values).
 */
export function gemvGate(packed: usize, rq: usize, input: usize, output: usize, outC: i32, K: i32): void {
  gemvWith(packed, rq, 0, input, output, outC, K, 0, -32768, 32767, true, false, false, false);
}

/** i16 lanes 0..n-1 all ones, the rest zero (n in 0..8). */
@inline function laneMask16(n: i32): v128 {
  return i16x8.lt_s(v128(0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0), i16x8.splat(<i16>n));
}

/** Lanes 0-3: the sums of the four lanes of `a`, `b`, `c` and `d`. */
@inline function laneSums4(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = i32x4.add(v128.shuffle<i32>(a, b, 0, 4, 1, 5), v128.shuffle<i32>(a, b, 2, 6, 3, 7));
  const cd = i32x4.add(v128.shuffle<i32>(c, d, 0, 4, 1, 5), v128.shuffle<i32>(c, d, 2, 6, 3, 7));
  return i32x4.add(v128.shuffle<i32>(ab, cd, 0, 1, 4, 5), v128.shuffle<i32>(ab, cd, 2, 3, 6, 7));
}

/**
 * `a` plus the products of the last `pairs` (1-4) value pairs of `v` (the values past the whole slices)
 * with four channels' pairs at `w`, pair p at `w + p * ps` (a group of four: `ps` = `es`; one half of a
 * group of eight, whose halves alternate per pair: 2 `es`): per pair p, the input's pair broadcast to
 * every lane against lane l's channel's pair p.
 */
@inline function pairsDot(v: v128, w: usize, pairs: i32, ps: usize, wide: bool, a: v128): v128 {
  a = i32x4.add(a, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 0, 0, 0, 0), weights8(w, wide)));
  if (pairs > 1) a = i32x4.add(a, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 1, 1, 1, 1), weights8(w + ps, wide)));
  if (pairs > 2) a = i32x4.add(a, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 2, 2, 2, 2), weights8(w + 2 * ps, wide)));
  if (pairs > 3) a = i32x4.add(a, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 3, 3, 3, 3), weights8(w + 3 * ps, wide)));
  return a;
}

/**
 * gemv with the W block's words as arguments (`rqStride` bytes between requantization blocks) over `K`
 * input values, weights in the GEMV layout: groups of eight channels, a group of four, then up to three
 * single channels; per group the whole 8-value slices, then the last pairs (see packGemv). With `strided`
 * (constant) the input is rows of `run` slices, `gap` bytes apart (a window's rows read in place; K a
 * multiple of 8), else K values in a row.
 */
@inline function gemvWith(
  packed: usize,
  rq: usize,
  rqStride: usize,
  input: usize,
  output: usize,
  outC: i32,
  K: i32,
  zpOut: i32,
  actMin: i32,
  actMax: i32,
  out16: bool,
  rightOnly: bool,
  u8: bool,
  raw: bool,
  strided: bool = false,
  run: i32 = 0,
  gap: usize = 0,
): void {
  const zp = i32x4.splat(zpOut);
  const full = outC >> 3;
  const half = (outC & 4) != 0;
  const narrow = outC & 3;
  const kb8 = K >> 3;
  const rest = K & 7;
  const pairs = (rest + 1) >> 1;
  const es: usize = u8 ? 16 : 8; // bytes of four channels' pair (8 weights)
  const lo8 = i8x16.splat(<i8>actMin);
  const hi8 = i8x16.splat(<i8>actMax);
  const lo16 = i16x8.splat(<i16>actMin);
  const hi16 = i16x8.splat(<i16>actMax);
  let w = packed;
  let r = rq;
  for (let g = 0; g < full; g++) {
    let a = v128.load(w), b = v128.load(w, 16);
    w += 32;
    let x = input;
    let t = 0;
    for (let k = 0; k < kb8; k++) {
      const v = u8 ? v128.load8x8_u(x) : v128.load8x8_s(x);
      a = i32x4.add(a, sliceDot(v, w, 2 * es, u8));
      b = i32x4.add(b, sliceDot(v, w + es, 2 * es, u8));
      x += 8;
      w += 8 * es;
      if (strided && ++t == run) {
        t = 0;
        x += gap;
      }
    }
    if (pairs > 0) {
      // the last pairs: lanes 0-3 of the group's pair p, then lanes 4-7
      const v = u8 ? v128.load8x8_u(x) : v128.load8x8_s(x);
      a = pairsDot(v, w, pairs, 2 * es, u8, a);
      b = pairsDot(v, w + es, pairs, 2 * es, u8, b);
      w += <usize>(pairs * 2) * es;
    }
    if (raw) {
      storeRaw(output + <usize>(g << 5), a, b, outC - (g << 3));
      continue;
    }
    const sa = requant(a, r, rightOnly, zp);
    const sb = requant(b, r + rqStride, rightOnly, zp);
    storeGroup(output, g << 3, outC - (g << 3), sa, sb, out16, rightOnly, lo8, hi8, lo16, hi16, u8);
    r += 2 * rqStride;
  }
  let c = full << 3;
  if (half) {
    let a = v128.load(w);
    w += 16;
    let x = input;
    let t = 0;
    for (let k = 0; k < kb8; k++) {
      a = i32x4.add(a, sliceDot(u8 ? v128.load8x8_u(x) : v128.load8x8_s(x), w, es, u8));
      x += 8;
      w += 4 * es;
      if (strided && ++t == run) {
        t = 0;
        x += gap;
      }
    }
    if (pairs > 0) {
      a = pairsDot(u8 ? v128.load8x8_u(x) : v128.load8x8_s(x), w, pairs, es, u8, a);
      w += <usize>pairs * es;
    }
    if (raw) storeLanes32(output + <usize>(c << 2), a, outC - c);
    else {
      const sa = requant(a, r, rightOnly, zp);
      storeGroup(output, c, outC - c, sa, sa, out16, rightOnly, lo8, hi8, lo16, hi16, u8);
    }
    r += rqStride;
    c += 4;
  }
  if (narrow == 0) return;
  // the last one to three channels: each channel's K weights as they are, eight at a time against the
  // input (the last slice's values past K masked to zero: the weights there are the next channel's)
  const bias = v128.load(w);
  w += <usize>(narrow << 2);
  const row: usize = u8 ? <usize>K << 1 : <usize>K;
  const step: usize = u8 ? 16 : 8;
  let a0 = i32x4.splat(0), a1 = i32x4.splat(0), a2 = i32x4.splat(0);
  let x = input;
  let t = 0;
  for (let k = 0; k < kb8; k++) {
    const v = u8 ? v128.load8x8_u(x) : v128.load8x8_s(x);
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v, weights8(w, u8)));
    if (narrow > 1) a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v, weights8(w + row, u8)));
    if (narrow > 2) a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v, weights8(w + 2 * row, u8)));
    x += 8;
    w += step;
    if (strided && ++t == run) {
      t = 0;
      x += gap;
    }
  }
  if (rest > 0) {
    const v = v128.and(u8 ? v128.load8x8_u(x) : v128.load8x8_s(x), laneMask16(rest));
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v, weights8(w, u8)));
    if (narrow > 1) a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v, weights8(w + row, u8)));
    if (narrow > 2) a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v, weights8(w + 2 * row, u8)));
  }
  const a = i32x4.add(laneSums4(a0, a1, a2, i32x4.splat(0)), bias);
  if (raw) {
    storeLanes32(output + <usize>(c << 2), a, narrow);
    return;
  }
  const sa = requant(a, r, rightOnly, zp);
  storeGroup(output, c, narrow, sa, sa, out16, rightOnly, lo8, hi8, lo16, hi16, u8);
}
