// int8 CONV_2D / FULLY_CONNECTED as a GEMM over tap pointers: for each block of four output pixels,
// the input pixel of every filter tap (or a row of input zero points where the tap falls in the
// padding) is looked up once and the four rows are sign-extended to int16 once into a scratch buffer
// (W_EXT), then every group of eight output channels runs a 4-pixel x 8-channel register tile (eight
// i32x4 accumulators, four channels of one pixel each, starting from the folded bias) over taps x
// (channels rounded up to 8), with i32x4.dot_i16x8_s ("c2s4", as XNNPACK's QS8 GEMMs: each 8-value
// slice is four int32 lanes of int16 pairs; the four rotations of the slice meet four weight vectors
// whose lane l holds channel l's pair (l + j) mod 4, so after the four rotations every lane has summed
// its channel's whole slice, and no horizontal reduction is needed). The scratch row holds each slice
// twice in a row, so rotation j is a plain load at byte offset 4j. Requantization is per lane (the
// channels' own multipliers and shifts, see requant.ts) on the accumulators as they are.
//
// Packed weights (src/kernels/weight-pack.ts), per group of eight output channels:
//   [requantization block, channels 0-3][requantization block, channels 4-7]  (2 x 112 bytes; the bias
//    has -input_zp * sum(w) folded in)
//   then for each tap, for each 8-channel slice, for each rotation j = 0..3: channels 0-3 then 4-7, lane
//   l holding the int16 pair (w[2p], w[2p+1]) with p = (l + j) mod 4 (128 bytes per slice: a plain
//   v128.load in the loop).
// Channels past the input depth and output channels past outC are zero, so reading a few bytes past a
// pixel contributes nothing. The bias already holds -input_zp * sum(w), so the padding row (input zero
// points) contributes zero, as TFLM's skipped taps do.
import { narrow8, narrowClamp8, requantLanes, requantLanesRight, requantRightWith, storeBytes } from './requant';
import { tapPointers } from './window';
import { RQ_BIAS, RQ_BYTES, RQ_HALF, RQ_M, RQ_MULT22, RQ_Y_HI, RQ_Y_LO, W_ACT_MAX, W_ACT_MIN, W_DIL_H, W_DIL_W, W_EXT, W_GATHER, W_IN_C, W_IN_H, W_IN_IMAGE, W_IN_W, W_KB8, W_KH, W_KW, W_OUT16, W_OUT_C, W_OUT_HW, W_OUT_W, W_PACKED, W_PAD_H, W_PAD_W, W_PTRS, W_RIGHT_ONLY, W_ROWS, W_STRIDE_H, W_STRIDE_W, W_TOTAL, W_ZERO, W_ZP_OUT } from '../generated/abi';

/** Bytes of one group's two requantization blocks. */
const RQ2: usize = 2 * RQ_BYTES;
/** Bytes of one slice of one group's weights: four rotations x two vectors. */
const SLICE_BYTES: usize = 128;

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
 * The compact im2col row of output pixel `q` when its taps along a window row are neighbours
 * (dilation_w 1): each window row is one run of kW x inC bytes: the input columns inside the image
 * copied sixteen bytes at a time, the columns and rows in the padding filled with the input zero
 * point. Each piece is written after the one before it, so the up to 15 bytes a piece writes past its
 * end are overwritten by the next (the row has 16 bytes of slack; the memory has READ_SLACK bytes past
 * the arena for the reads). Returns false, having written nothing, for dilation_w > 1.
 */
@inline function gatherRuns(pp: usize, input: usize, q: i32, dst: usize): bool {
  if (load<i32>(pp, W_DIL_W) != 1) return false;
  const outHW = load<i32>(pp, W_OUT_HW);
  const outW = load<i32>(pp, W_OUT_W);
  const b = q / outHW;
  const r = q - b * outHW;
  const oh = r / outW;
  const ow = r - oh * outW;
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
  const zp = i8x16.splat(load<i8>(<usize>load<u32>(pp, W_ZERO)));
  const image = input + <usize>(b * load<i32>(pp, W_IN_IMAGE));
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

/** Requantized accumulator (per-lane parameters at `rq`) plus the output zero point. */
@inline function requant(acc: v128, rq: usize, rightOnly: bool, zp: v128): v128 {
  return i32x4.add(rightOnly ? requantLanesRight(acc, rq) : requantLanes(acc, rq), zp);
}

/** Eight int8 outputs from two requantized vectors (requantLanesRight's are already within the activation range). */
@inline function pack8(a: v128, b: v128, rightOnly: bool, lo: v128, hi: v128): v128 {
  return rightOnly ? narrow8(a, b) : narrowClamp8(a, b, lo, hi);
}

/** Stores the eight (or `n` < 8) int8 outputs of lanes 0-7 of `v` at `p`. */
@inline function store8(p: usize, v: v128, n: i32): void {
  if (n >= 8) v128.store64_lane(p, v, 0);
  else storeBytes(p, v, n);
}

/**
 * int8 convolution (or fully connected: 1x1 over `batches` pixels) with the parameter block at `pp`.
 * With W_GATHER (input depth not a multiple of 8, several taps) the taps' runs are first copied into
 * compact rows, so K = taps x depth is padded to 8 once instead of per tap (a 3x3 filter over 3
 * channels: 32 instead of 72).
 */
export function qs8_conv(pp: usize, input: usize, output: usize): void {
  const total = load<i32>(pp, W_TOTAL);
  const outC = load<i32>(pp, W_OUT_C);
  const windowTaps = load<i32>(pp, W_KH) * load<i32>(pp, W_KW);
  const gather = load<i32>(pp, W_GATHER) != 0;
  const inC = load<i32>(pp, W_IN_C);
  const rows = <usize>load<u32>(pp, W_ROWS);
  const kb8 = load<i32>(pp, W_KB8);
  const rowBytes = <usize>((kb8 << 3) + 16);
  const taps = gather ? 1 : windowTaps;
  const packed = <usize>load<u32>(pp, W_PACKED);
  const ptrs = <usize>load<u32>(pp, W_PTRS);
  const tapBytes = <usize>(windowTaps << 2);
  const lo = i8x16.splat(<i8>load<i32>(pp, W_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(pp, W_ACT_MAX));
  const zp = i32x4.splat(load<i32>(pp, W_ZP_OUT));
  const groups = (outC + 7) >> 3;
  const rightOnly = load<i32>(pp, W_RIGHT_ONLY) != 0;
  const stride = <usize>outC;
  const ext = (<usize>load<u32>(pp, W_EXT) + 31) & ~<usize>31; // 32-aligned: no load at +4j crosses a cache line
  const slices = taps * kb8;
  const extRow = <usize>(slices << 5);
  if (total == 1 && !gather && taps == 1) {
    gemv(pp, input, output);
    return;
  }
  for (let q = 0; q < total; q += 4) {
    const np = min(4, total - q);
    for (let i = 0; i < 4; i++) {
      const pi = ptrs + <usize>i * tapBytes;
      const qi = q + min(i, np - 1);
      if (gather) {
        const row = rows + <usize>i * rowBytes;
        if (!gatherRuns(pp, input, qi, row)) {
          tapPointers(pp, input, qi, pi);
          gatherRow(pi, windowTaps, inC, row);
        }
        store<u32>(pi, <u32>row);
      } else {
        tapPointers(pp, input, qi, pi);
      }
    }
    // the four rows, sign-extended once for all channel groups: taps x kb8 slices of 32 bytes each (the
    // eight int16 values twice, so a load at +4j is the slice rotated by j lanes)
    for (let i = 0; i < 4; i++) {
      let e = ext + <usize>i * extRow;
      for (let t = 0; t < taps; t++) {
        let x = <usize>load<u32>(ptrs + <usize>i * tapBytes + <usize>(t << 2));
        for (let k = 0; k < kb8; k++) {
          const v = v128.load8x8_s(x);
          v128.store(e, v);
          v128.store(e, v, 16);
          x += 8;
          e += 32;
        }
      }
    }
    const o = output + <usize>q * stride;
    if (rightOnly) {
      if (np == 4) tileGroups(packed, ext, extRow, slices, groups, outC, o, stride, 4, true, lo, hi, zp);
      else tileGroups(packed, ext, extRow, slices, groups, outC, o, stride, np, true, lo, hi, zp);
    } else {
      tileGroups(packed, ext, extRow, slices, groups, outC, o, stride, np, false, lo, hi, zp);
    }
  }
}

/**
 * The 4-pixel x 8-channel tiles of every channel group over the sign-extended rows at `ext`, stored at
 * `o` (`np` pixels of `stride` bytes). Inlined with constant `rightOnly` (every channel has left shift
 * 0 and right shift >= 1) and, for full tiles, constant `np` = 4, so those branches fold away.
 */
@inline function tileGroups(packed: usize, ext: usize, extRow: usize, slices: i32, groups: i32, outC: i32, o: usize, stride: usize, np: i32, rightOnly: bool, lo: v128, hi: v128, zp: v128): void {
  let rq = packed;
  for (let g = 0; g < groups; g++) {
    let w = rq + RQ2;
    const biasA = v128.load(rq, RQ_BIAS);
    const biasB = v128.load(rq, RQ_BYTES + RQ_BIAS);
    let a0 = biasA, a1 = biasA, a2 = biasA, a3 = biasA;
    let b0 = biasB, b1 = biasB, b2 = biasB, b3 = biasB;
    let x = ext;
    // slices x four rotations: rotation j of a slice is the load at +4j of its doubled copy
    for (let k = 0; k < slices; k++) {
      for (let j = 0; j < 4; j++) {
        const wa = v128.load(w);
        const wb = v128.load(w, 16);
        let v = v128.load(x);
        a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v, wa));
        b0 = i32x4.add(b0, i32x4.dot_i16x8_s(v, wb));
        v = v128.load(x + extRow);
        a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v, wa));
        b1 = i32x4.add(b1, i32x4.dot_i16x8_s(v, wb));
        v = v128.load(x + 2 * extRow);
        a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v, wa));
        b2 = i32x4.add(b2, i32x4.dot_i16x8_s(v, wb));
        v = v128.load(x + 3 * extRow);
        a3 = i32x4.add(a3, i32x4.dot_i16x8_s(v, wa));
        b3 = i32x4.add(b3, i32x4.dot_i16x8_s(v, wb));
        x += 4;
        w += 32;
      }
      x += 16;
    }
    const rqB = rq + RQ_BYTES;
    const n = outC - (g << 3);
    const oc = o + <usize>(g << 3);
    if (rightOnly) {
      // each block's vectors loaded once for the four pixels
      let m = v128.load(rq, RQ_M), yHi = v128.load(rq, RQ_Y_HI), yLo = v128.load(rq, RQ_Y_LO), half = v128.load(rq, RQ_HALF), mult = v128.load(rq, RQ_MULT22);
      a0 = i32x4.add(requantRightWith(a0, m, yHi, yLo, half, mult), zp);
      a1 = i32x4.add(requantRightWith(a1, m, yHi, yLo, half, mult), zp);
      a2 = i32x4.add(requantRightWith(a2, m, yHi, yLo, half, mult), zp);
      a3 = i32x4.add(requantRightWith(a3, m, yHi, yLo, half, mult), zp);
      m = v128.load(rqB, RQ_M);
      yHi = v128.load(rqB, RQ_Y_HI);
      yLo = v128.load(rqB, RQ_Y_LO);
      half = v128.load(rqB, RQ_HALF);
      mult = v128.load(rqB, RQ_MULT22);
      b0 = i32x4.add(requantRightWith(b0, m, yHi, yLo, half, mult), zp);
      b1 = i32x4.add(requantRightWith(b1, m, yHi, yLo, half, mult), zp);
      b2 = i32x4.add(requantRightWith(b2, m, yHi, yLo, half, mult), zp);
      b3 = i32x4.add(requantRightWith(b3, m, yHi, yLo, half, mult), zp);
      store8(oc, narrow8(a0, b0), n);
      if (np > 1) store8(oc + stride, narrow8(a1, b1), n);
      if (np > 2) store8(oc + 2 * stride, narrow8(a2, b2), n);
      if (np > 3) store8(oc + 3 * stride, narrow8(a3, b3), n);
      rq = w;
      continue;
    }
    store8(oc, pack8(requant(a0, rq, rightOnly, zp), requant(b0, rqB, rightOnly, zp), rightOnly, lo, hi), n);
    if (np > 1) store8(oc + stride, pack8(requant(a1, rq, rightOnly, zp), requant(b1, rqB, rightOnly, zp), rightOnly, lo, hi), n);
    if (np > 2) store8(oc + 2 * stride, pack8(requant(a2, rq, rightOnly, zp), requant(b2, rqB, rightOnly, zp), rightOnly, lo, hi), n);
    if (np > 3) store8(oc + 3 * stride, pack8(requant(a3, rq, rightOnly, zp), requant(b3, rqB, rightOnly, zp), rightOnly, lo, hi), n);
    rq = w;
  }
}

/** Sum over one slice's four rotations of `v` (lanes: int16 pairs) against the weight vectors at `w` (+ `h` = 0 or 16). */
@inline function sliceDot(v: v128, w: usize, h: usize): v128 {
  let s = i32x4.dot_i16x8_s(v, v128.load(w + h));
  s = i32x4.add(s, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 1, 2, 3, 0), v128.load(w + h, 32)));
  s = i32x4.add(s, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 2, 3, 0, 1), v128.load(w + h, 64)));
  return i32x4.add(s, i32x4.dot_i16x8_s(v128.shuffle<i32>(v, v, 3, 0, 1, 2), v128.load(w + h, 96)));
}

/**
 * One output pixel (FULLY_CONNECTED with one batch, a 1x1 convolution of a 1x1 image, an LSTM gate):
 * the 4-pixel tile would compute three copies of it, so each channel group is one row of dot products
 * (the input's rotations by shuffles) instead. With W_OUT16 the outputs are int16 (the LSTM's Q3.12
 * gates), clamped to [act_min, act_max].
 */
function gemv(pp: usize, input: usize, output: usize): void {
  const outC = load<i32>(pp, W_OUT_C);
  const kb8 = load<i32>(pp, W_KB8);
  const packed = <usize>load<u32>(pp, W_PACKED);
  const zp = i32x4.splat(load<i32>(pp, W_ZP_OUT));
  const groups = (outC + 7) >> 3;
  const out16 = load<i32>(pp, W_OUT16) != 0;
  const rightOnly = !out16 && load<i32>(pp, W_RIGHT_ONLY) != 0; // requantLanesRight is for int8 outputs
  const lo8 = i8x16.splat(<i8>load<i32>(pp, W_ACT_MIN));
  const hi8 = i8x16.splat(<i8>load<i32>(pp, W_ACT_MAX));
  const lo16 = i16x8.splat(<i16>load<i32>(pp, W_ACT_MIN));
  const hi16 = i16x8.splat(<i16>load<i32>(pp, W_ACT_MAX));
  let rq = packed;
  for (let g = 0; g < groups; g++) {
    let w = rq + RQ2;
    let x = input;
    let a = v128.load(rq, RQ_BIAS), b = v128.load(rq, RQ_BYTES + RQ_BIAS);
    for (let k = 0; k < kb8; k++) {
      const v = v128.load8x8_s(x);
      a = i32x4.add(a, sliceDot(v, w, 0));
      b = i32x4.add(b, sliceDot(v, w, 16));
      x += 8;
      w += SLICE_BYTES;
    }
    const sa = requant(a, rq, rightOnly, zp);
    const sb = requant(b, rq + RQ_BYTES, rightOnly, zp);
    const n = outC - (g << 3);
    if (out16) {
      const v = i16x8.min_s(i16x8.max_s(i16x8.narrow_i32x4_s(sa, sb), lo16), hi16);
      const o = output + <usize>(g << 4);
      if (n >= 8) v128.store(o, v);
      else storeBytes(o, v, n << 1);
    } else {
      store8(output + <usize>(g << 3), pack8(sa, sb, rightOnly, lo8, hi8), n);
    }
    rq = w;
  }
}
