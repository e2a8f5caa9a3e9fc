// 16x8 CONV_2D, FULLY_CONNECTED and DEPTHWISE_CONV_2D (int16 activations with zero point 0, int8 weights),
// TFLM's reference kernels bit for bit (as ops-reference's convInt16, fullyConnectedInt16Acc64/Acc32 and
// depthwiseConvInt16 compute them):
//   Wide (an int64 bias; DEPTHWISE_CONV_2D always; FULLY_CONNECTED without a bias when quantized_bias_type
//   is INT64): the exact int64 sum of input x filter plus the bias, TFLM's int64 MultiplyByQuantizedMultiplier
//   (acc16x8.ts's requant64), the clamp;
//   otherwise (an int32 bias or none): the sum wrapped to int32 (the low word of the exact sum is TFLM's
//   wrapping int32 accumulation: wrapping addition does not depend on the order), the int32 bias added with
//   wrap-around, the 32-bit MultiplyByQuantizedMultiplier (requant.ts's requantLanes, exact), the clamp.
//
// qs16_conv_run (CONV_2D; FULLY_CONNECTED as 1x1 windows over the batches): per two output pixels an
// im2col row each (int16, zeros for taps in the padding and past K up to K8; read in place when Direct),
// then per four output channels (packed columns of K8 int16 weights) eight i32x4.dot_i16x8_s accumulators.
// Every accumulator lane sums at most 64 products per chunk of 512 bytes (32 steps of 8 values), so a
// chunk's per-channel sum (sum4 of the four lanes) covers at most CHUNK16 = 256 products: |sum| <= 2^30,
// exact in int32 (acc16x8.ts); each chunk's sums are widened into int64 lanes.
//
// qs16_dwconv_run (DEPTHWISE_CONV_2D): eight channels per vector, extmul of int16 input and int16-packed
// filter lanes summed in int32 over the taps inside the image (at most 256 taps, the registration
// declines larger windows: |sum| <= 256 x 2^22 = 2^30), then per channel the Wide output stage. A depth
// multiplier > 1 first expands the input (qs16_dw_expand: every input channel repeated Dm times) so
// that output channel c reads lane c.
//
// A call covers output pixels [q0, q1); the pool's threads take disjoint ranges (thread `tid` with its own
// im2col rows), and every output gets the same bytes as on one thread.
import { threadSlot } from '../thread-slot';
import { sum4 } from './batch-matmul';
import { requantLanes } from './requant';
import { CHUNK16, clamp16, requant64 } from './acc16x8';
import {
  C16_ACT_MAX,
  C16_ACT_MIN,
  C16_BATCHES,
  C16_BIAS,
  C16_DIL_H,
  C16_DIL_W,
  C16_DIRECT,
  C16_DM,
  C16_IN_C,
  C16_IN_H,
  C16_IN_W,
  C16_K8,
  C16_KH,
  C16_KW,
  C16_OUT_C,
  C16_OUT_H,
  C16_OUT_W,
  C16_PACKED,
  C16_PAD_H,
  C16_PAD_W,
  C16_RQ,
  C16_SCRATCH,
  C16_SRC_C,
  C16_STRIDE_H,
  C16_STRIDE_W,
  C16_WIDE,
  RQ_BYTES,
} from '../generated/abi';

/** Bytes of int16 values per chunk: 32 steps of 8 values, at most 64 products per lane (256 per channel). */
const CHUNK_BYTES: usize = <usize>CHUNK16 << 1;

/** The Wide output stage of channel `c`: int64 sum `x` plus the int64 bias, requant64, clamp. */
@inline function wideOut(x: i64, c: i32, bias: usize, rq: usize, lo: i32, hi: i32): i16 {
  const at = <usize>c << 3;
  const v = x + load<i64>(bias + at);
  return <i16>clamp16(requant64(v, <i64>load<i32>(rq + at), <i64>load<i32>(rq + at, 4)), lo, hi);
}

/**
 * Stores the outputs of channels c..c+n-1 (n: 1-4) of one pixel at `dst` from the exact int64 sums in
 * `a` (channels c, c+1) and `b` (c+2, c+3).
 */
function storeFour(pp: usize, a: v128, b: v128, c: i32, n: i32, dst: usize): void {
  const bias = <usize>load<u32>(pp, C16_BIAS);
  const rq = <usize>load<u32>(pp, C16_RQ);
  const lo = load<i32>(pp, C16_ACT_MIN);
  const hi = load<i32>(pp, C16_ACT_MAX);
  if (load<i32>(pp, C16_WIDE) != 0) {
    store<i16>(dst, wideOut(i64x2.extract_lane(a, 0), c, bias, rq, lo, hi));
    if (n > 1) store<i16>(dst, wideOut(i64x2.extract_lane(a, 1), c + 1, bias, rq, lo, hi), 2);
    if (n > 2) store<i16>(dst, wideOut(i64x2.extract_lane(b, 0), c + 2, bias, rq, lo, hi), 4);
    if (n > 3) store<i16>(dst, wideOut(i64x2.extract_lane(b, 1), c + 3, bias, rq, lo, hi), 6);
    return;
  }
  // the low words: the int32 wrap of each sum, then TFLM's wrapping bias addition (bias padded to 8 channels)
  const acc = i32x4.add(v128.shuffle<i32>(a, b, 0, 2, 4, 6), v128.load(bias + (<usize>c << 2)));
  const q = i32x4.min_s(i32x4.max_s(requantLanes(acc, rq + <usize>(c >> 2) * RQ_BYTES), i32x4.splat(lo)), i32x4.splat(hi));
  const h = i16x8.narrow_i32x4_s(q, q);
  if (n == 4) {
    v128.store64_lane(dst, h, 0);
    return;
  }
  store<i16>(dst, i16x8.extract_lane_s(h, 0));
  if (n > 1) store<i16>(dst, i16x8.extract_lane_s(h, 1), 2);
  if (n > 2) store<i16>(dst, i16x8.extract_lane_s(h, 2), 4);
}

/**
 * Every output channel of two pixels (rows `x0`, `x1` of K8 int16 values; `two` false: `x1` is `x0` and
 * only `o0` is written).
 */
function gemmPair(pp: usize, x0: usize, x1: usize, o0: usize, o1: usize, two: bool): void {
  const outC = load<i32>(pp, C16_OUT_C);
  const colBytes = <usize>load<i32>(pp, C16_K8) << 1;
  let w = <usize>load<u32>(pp, C16_PACKED);
  for (let c = 0; c < outC; c += 4) {
    const w1 = w + colBytes;
    const w2 = w1 + colBytes;
    const w3 = w2 + colBytes;
    let r0a = i64x2.splat(0);
    let r0b = r0a, r1a = r0a, r1b = r0a;
    for (let k0: usize = 0; k0 < colBytes; k0 += CHUNK_BYTES) {
      const k1 = min(colBytes, k0 + CHUNK_BYTES);
      let s00 = i32x4.splat(0);
      let s01 = s00, s02 = s00, s03 = s00, s10 = s00, s11 = s00, s12 = s00, s13 = s00;
      for (let k = k0; k < k1; k += 16) {
        const b0 = v128.load(w + k);
        const b1 = v128.load(w1 + k);
        const b2 = v128.load(w2 + k);
        const b3 = v128.load(w3 + k);
        const v0 = v128.load(x0 + k);
        s00 = i32x4.add(s00, i32x4.dot_i16x8_s(v0, b0));
        s01 = i32x4.add(s01, i32x4.dot_i16x8_s(v0, b1));
        s02 = i32x4.add(s02, i32x4.dot_i16x8_s(v0, b2));
        s03 = i32x4.add(s03, i32x4.dot_i16x8_s(v0, b3));
        const v1 = v128.load(x1 + k);
        s10 = i32x4.add(s10, i32x4.dot_i16x8_s(v1, b0));
        s11 = i32x4.add(s11, i32x4.dot_i16x8_s(v1, b1));
        s12 = i32x4.add(s12, i32x4.dot_i16x8_s(v1, b2));
        s13 = i32x4.add(s13, i32x4.dot_i16x8_s(v1, b3));
      }
      // per channel at most 256 products this chunk: |sum| <= 2^30
      const t0 = sum4(s00, s01, s02, s03);
      const t1 = sum4(s10, s11, s12, s13);
      r0a = i64x2.add(r0a, i64x2.extend_low_i32x4_s(t0));
      r0b = i64x2.add(r0b, i64x2.extend_high_i32x4_s(t0));
      r1a = i64x2.add(r1a, i64x2.extend_low_i32x4_s(t1));
      r1b = i64x2.add(r1b, i64x2.extend_high_i32x4_s(t1));
    }
    const n = min(4, outC - c);
    storeFour(pp, r0a, r0b, c, n, o0 + (<usize>c << 1));
    if (two) storeFour(pp, r1a, r1b, c, n, o1 + (<usize>c << 1));
    w = w3 + colBytes;
  }
}

/** Writes output pixel `q`'s im2col row at `dst`: per tap InC int16 values (zeros in the padding), zeros up to K8. */
function im2colRow(pp: usize, input: usize, q: i32, dst: usize): void {
  const outW = load<i32>(pp, C16_OUT_W);
  const outHW = load<i32>(pp, C16_OUT_H) * outW;
  const inH = load<i32>(pp, C16_IN_H);
  const inW = load<i32>(pp, C16_IN_W);
  const kH = load<i32>(pp, C16_KH);
  const kW = load<i32>(pp, C16_KW);
  const dH = load<i32>(pp, C16_DIL_H);
  const dW = load<i32>(pp, C16_DIL_W);
  const pix = <usize>load<i32>(pp, C16_IN_C) << 1;
  const b = q / outHW;
  const r = q - b * outHW;
  const oy = r / outW;
  const y0 = oy * load<i32>(pp, C16_STRIDE_H) - load<i32>(pp, C16_PAD_H);
  const x0 = (r - oy * outW) * load<i32>(pp, C16_STRIDE_W) - load<i32>(pp, C16_PAD_W);
  const image = input + <usize>(b * inH) * <usize>inW * pix;
  const rowBytes = <usize>kW * pix;
  let d = dst;
  for (let ky = 0; ky < kH; ky++) {
    const iy = y0 + ky * dH;
    if (iy < 0 || iy >= inH) {
      memory.fill(d, 0, rowBytes);
      d += rowBytes;
      continue;
    }
    const row = image + <usize>(iy * inW) * pix;
    if (dW == 1 && x0 >= 0 && x0 + kW <= inW) {
      memory.copy(d, row + <usize>x0 * pix, rowBytes);
      d += rowBytes;
      continue;
    }
    for (let kx = 0; kx < kW; kx++) {
      const ix = x0 + kx * dW;
      if (ix >= 0 && ix < inW) memory.copy(d, row + <usize>ix * pix, pix);
      else memory.fill(d, 0, pix);
      d += pix;
    }
  }
  memory.fill(d, 0, dst + (<usize>load<i32>(pp, C16_K8) << 1) - d);
}

/** 16x8 CONV_2D (block C16) over output pixels [q0, q1), with thread `tid`'s two im2col rows in Scratch. */
export function qs16_conv_run(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  const outBytes = <usize>load<i32>(pp, C16_OUT_C) << 1;
  const colBytes = <usize>load<i32>(pp, C16_K8) << 1;
  const direct = load<i32>(pp, C16_DIRECT) != 0;
  const rows = threadSlot(<usize>load<u32>(pp, C16_SCRATCH), tid, colBytes << 1);
  for (let q = q0; q < q1; q += 2) {
    const two = q + 1 < q1;
    let x0 = rows;
    let x1 = rows + colBytes;
    if (direct) {
      // K8 = InC: pixel q's row is the input's
      x0 = input + <usize>q * colBytes;
      x1 = x0 + colBytes;
    } else {
      im2colRow(pp, input, q, x0);
      if (two) im2colRow(pp, input, q + 1, x1);
    }
    if (!two) x1 = x0;
    const o0 = output + <usize>q * outBytes;
    gemmPair(pp, x0, x1, o0, o0 + outBytes, two);
  }
}

/** Copies the input (SrcC channels a pixel) to Scratch with every channel repeated Dm times (OutC channels a pixel). */
export function qs16_dw_expand(pp: usize, input: usize): void {
  const dm = load<i32>(pp, C16_DM);
  const srcC = load<i32>(pp, C16_SRC_C);
  const pixels = load<i32>(pp, C16_BATCHES) * load<i32>(pp, C16_IN_H) * load<i32>(pp, C16_IN_W);
  let s = input;
  let d = <usize>load<u32>(pp, C16_SCRATCH);
  for (let p = 0; p < pixels; p++) {
    for (let c = 0; c < srcC; c++) {
      const v = load<i16>(s);
      for (let m = 0; m < dm; m++) {
        store<i16>(d, v);
        d += 2;
      }
      s += 2;
    }
  }
}

/** The Wide output stage of the eight channels c..c+7 from their int32 sums (lanes of a: c..c+3, b: c+4..c+7). */
@inline function storeEight(a: v128, b: v128, c: i32, bias: usize, rq: usize, lo: i32, hi: i32, dst: usize): void {
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(a, 0), c, bias, rq, lo, hi));
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(a, 1), c + 1, bias, rq, lo, hi), 2);
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(a, 2), c + 2, bias, rq, lo, hi), 4);
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(a, 3), c + 3, bias, rq, lo, hi), 6);
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(b, 0), c + 4, bias, rq, lo, hi), 8);
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(b, 1), c + 5, bias, rq, lo, hi), 10);
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(b, 2), c + 6, bias, rq, lo, hi), 12);
  store<i16>(dst, wideOut(<i64>i32x4.extract_lane(b, 3), c + 7, bias, rq, lo, hi), 14);
}

/** First tap of a window starting at `o` (dilation `d`) inside the image: ceil(-o / d) for o < 0. */
@inline function firstTap(o: i32, d: i32): i32 {
  return o < 0 ? (d - 1 - o) / d : 0;
}

/** One past the last tap inside an image of `n` (at most `k` taps). */
@inline function endTap(o: i32, d: i32, n: i32, k: i32): i32 {
  return n <= o ? 0 : min(k, (n - o + d - 1) / d);
}

/**
 * 16x8 DEPTHWISE_CONV_2D (block C16: OutC channels, InC = OutC read a pixel; Dm > 1 reads the expanded
 * input in Scratch, which qs16_dw_expand wrote) over output pixels [q0, q1).
 */
export function qs16_dwconv_run(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  const src = load<i32>(pp, C16_DM) > 1 ? <usize>load<u32>(pp, C16_SCRATCH) : input;
  const C = load<i32>(pp, C16_OUT_C);
  const outW = load<i32>(pp, C16_OUT_W);
  const outHW = load<i32>(pp, C16_OUT_H) * outW;
  const inH = load<i32>(pp, C16_IN_H);
  const inW = load<i32>(pp, C16_IN_W);
  const kH = load<i32>(pp, C16_KH);
  const kW = load<i32>(pp, C16_KW);
  const sH = load<i32>(pp, C16_STRIDE_H);
  const sW = load<i32>(pp, C16_STRIDE_W);
  const dH = load<i32>(pp, C16_DIL_H);
  const dW = load<i32>(pp, C16_DIL_W);
  const padH = load<i32>(pp, C16_PAD_H);
  const padW = load<i32>(pp, C16_PAD_W);
  const packed = <usize>load<u32>(pp, C16_PACKED);
  const bias = <usize>load<u32>(pp, C16_BIAS);
  const rq = <usize>load<u32>(pp, C16_RQ);
  const lo = load<i32>(pp, C16_ACT_MIN);
  const hi = load<i32>(pp, C16_ACT_MAX);
  const pix = <usize>C << 1;
  const tapBytes = <usize>((C + 7) & ~7) << 1;
  const full = C & ~7;
  const xStep = <usize>dW * pix;
  const wStep = tapBytes;
  for (let q = q0; q < q1; q++) {
    const b = q / outHW;
    const r = q - b * outHW;
    const oy = r / outW;
    const y0 = oy * sH - padH;
    const x0 = (r - oy * outW) * sW - padW;
    const ky0 = firstTap(y0, dH);
    const ky1 = endTap(y0, dH, inH, kH);
    const kx0 = firstTap(x0, dW);
    const kx1 = endTap(x0, dW, inW, kW);
    const image = src + <usize>(b * inH) * <usize>inW * pix;
    const out = output + <usize>q * pix;
    for (let c = 0; c < full; c += 8) {
      let a0 = i32x4.splat(0);
      let a1 = a0;
      const cb = <usize>c << 1;
      for (let ky = ky0; ky < ky1; ky++) {
        let x = image + <usize>((y0 + ky * dH) * inW + x0 + kx0 * dW) * pix + cb;
        let w = packed + <usize>(ky * kW + kx0) * tapBytes + cb;
        for (let kx = kx0; kx < kx1; kx++) {
          const xv = v128.load(x);
          const wv = v128.load(w);
          a0 = i32x4.add(a0, i32x4.extmul_low_i16x8_s(xv, wv));
          a1 = i32x4.add(a1, i32x4.extmul_high_i16x8_s(xv, wv));
          x += xStep;
          w += wStep;
        }
      }
      storeEight(a0, a1, c, bias, rq, lo, hi, out + cb);
    }
    // the last channels (fewer than 8): one at a time, so no load reads past the pixel
    for (let c = full; c < C; c++) {
      let acc = 0;
      const cb = <usize>c << 1;
      for (let ky = ky0; ky < ky1; ky++) {
        let x = image + <usize>((y0 + ky * dH) * inW + x0 + kx0 * dW) * pix + cb;
        let w = packed + <usize>(ky * kW + kx0) * tapBytes + cb;
        for (let kx = kx0; kx < kx1; kx++) {
          acc += <i32>load<i16>(x) * <i32>load<i16>(w);
          x += xStep;
          w += wStep;
        }
      }
      store<i16>(out + cb, wideOut(<i64>acc, c, bias, rq, lo, hi));
    }
  }
}
