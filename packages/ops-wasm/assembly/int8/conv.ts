// int8 CONV_2D / FULLY_CONNECTED as a GEMM over tap pointers: for each block of four output pixels,
// the input pixel of every filter tap (or a row of input zero points where the tap falls in the
// padding) is looked up once and the four rows are sign-extended to int16 once into a scratch buffer
// (P_EXT), then every pair of output channels runs a 4-pixel x 2-channel register
// tile over taps x (channels rounded up to 8), with i32x4.dot_i16x8_s on sign-extended values ("c8": each
// accumulator holds four partial sums). The reduction puts the four pixels of one channel in one
// vector, so the requantization uses one multiplier and scalar shifts per vector.
//
// Packed weights (src/kernels/weight-pack.ts), per pair of output channels:
//   [channel parameters: bias (with -input_zp * sum(w) folded in), M, left shift, right shift,
//    2^r - 1, (2^r - 1) >> 1, two int32 each = 48 bytes]
//   then for each tap, for each 8-channel slice: 2 channels x 8 weights, sign-extended to int16 at
//   prepare (32 bytes: a plain v128.load in the loop, which leaves the shuffle ports to the input's
//   sign extension; 5-13 % faster than int8 weights, for twice the weight bytes in the arena).
// Channels past the input depth and output channels past outC are zero, so reading a few bytes past a
// pixel contributes nothing. The bias already holds -input_zp * sum(w), so the padding row (input zero
// points) contributes zero, as TFLM's skipped taps do.
import { rdbpot, srdhm } from './requant';
import { P_ACT_MAX, P_ACT_MIN, P_EXT, P_GATHER, P_IN_C, P_KB8, P_K_H, P_NO_LEFT, P_K_W, P_OUT16, P_OUT_C, P_PACKED, P_PTRS, P_ROWS, P_TOTAL, P_ZP_OUT, tapPointers } from './window';

/** Bytes of one channel pair's parameters. */
const CH_BYTES: usize = 48;

@inline function hsum4(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = i32x4.add(v128.shuffle<i32>(a, b, 0, 4, 1, 5), v128.shuffle<i32>(a, b, 2, 6, 3, 7));
  const cd = i32x4.add(v128.shuffle<i32>(c, d, 0, 4, 1, 5), v128.shuffle<i32>(c, d, 2, 6, 3, 7));
  return i32x4.add(v128.shuffle<i32>(ab, cd, 0, 1, 4, 5), v128.shuffle<i32>(ab, cd, 2, 3, 6, 7));
}

/**
 * Requantizes four pixels of channel `j` (0 or 1, as a byte offset / 4) of the pair whose parameters
 * are at `ch`; `acc` already holds the bias. `noLeft`: the left shift is known to be 0.
 */
@inline function requantChannel(acc: v128, ch: usize, j: usize, zp: v128, noLeft: bool): v128 {
  const x = noLeft ? acc : i32x4.shl(acc, load<i32>(ch + j, 16));
  const y = srdhm(x, v128.load32_splat(ch + j, 8));
  return i32x4.add(rdbpot(y, load<i32>(ch + j, 24), v128.load32_splat(ch + j, 32), v128.load32_splat(ch + j, 40)), zp);
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

/**
 * int8 convolution (or fully connected: 1x1 over `batches` pixels) with the parameter block at `pp`.
 * With P_GATHER (input depth not a multiple of 8, several taps) the taps' runs are first copied into
 * compact rows, so K = taps x depth is padded to 8 once instead of per tap (a 3x3 filter over 3
 * channels: 32 instead of 72).
 */
export function qs8_conv(pp: usize, input: usize, output: usize): void {
  const total = load<i32>(pp, P_TOTAL);
  const outC = load<i32>(pp, P_OUT_C);
  const windowTaps = load<i32>(pp, P_K_H) * load<i32>(pp, P_K_W);
  const gather = load<i32>(pp, P_GATHER) != 0;
  const inC = load<i32>(pp, P_IN_C);
  const rows = <usize>load<u32>(pp, P_ROWS);
  const kb8 = load<i32>(pp, P_KB8);
  const rowBytes = <usize>((kb8 << 3) + 16);
  const taps = gather ? 1 : windowTaps;
  const packed = <usize>load<u32>(pp, P_PACKED);
  const ptrs = <usize>load<u32>(pp, P_PTRS);
  const tapBytes = <usize>(windowTaps << 2);
  const lo = i8x16.splat(<i8>load<i32>(pp, P_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(pp, P_ACT_MAX));
  const zp = i32x4.splat(load<i32>(pp, P_ZP_OUT));
  const pairs = (outC + 1) >> 1;
  const noLeft = load<i32>(pp, P_NO_LEFT) != 0;
  const stride = <usize>outC;
  const ext = <usize>load<u32>(pp, P_EXT);
  const slices = taps * kb8;
  const extRow = <usize>(slices << 4);
  if (total == 1 && !gather && taps == 1) {
    gemv(pp, input, output);
    return;
  }
  for (let q = 0; q < total; q += 4) {
    const np = min(4, total - q);
    for (let i = 0; i < 4; i++) {
      const pi = ptrs + <usize>i * tapBytes;
      tapPointers(pp, input, q + min(i, np - 1), pi);
      if (gather) {
        const row = rows + <usize>i * rowBytes;
        gatherRow(pi, windowTaps, inC, row);
        store<u32>(pi, <u32>row);
      }
    }
    // the four rows, sign-extended once for all channel pairs: taps x kb8 vectors each
    for (let i = 0; i < 4; i++) {
      let e = ext + <usize>i * extRow;
      for (let t = 0; t < taps; t++) {
        let x = <usize>load<u32>(ptrs + <usize>i * tapBytes + <usize>(t << 2));
        for (let k = 0; k < kb8; k++) {
          v128.store(e, v128.load8x8_s(x));
          x += 8;
          e += 16;
        }
      }
    }
    const o = output + <usize>q * stride;
    if (noLeft) {
      if (np == 4) tilePairs(packed, ext, extRow, slices, pairs, outC, o, stride, 4, true, lo, hi, zp);
      else tilePairs(packed, ext, extRow, slices, pairs, outC, o, stride, np, true, lo, hi, zp);
    } else {
      tilePairs(packed, ext, extRow, slices, pairs, outC, o, stride, np, false, lo, hi, zp);
    }
  }
}

/**
 * The 4-pixel x 2-channel tiles of every channel pair over the sign-extended rows at `ext`, stored at
 * `o` (`np` pixels of `stride` bytes). Inlined with constant `noLeft` (no channel has a left shift) and,
 * for full tiles, constant `np` = 4, so those branches fold away.
 */
@inline function tilePairs(packed: usize, ext: usize, extRow: usize, slices: i32, pairs: i32, outC: i32, o: usize, stride: usize, np: i32, noLeft: bool, lo: v128, hi: v128, zp: v128): void {
  let ch = packed;
  for (let g = 0; g < pairs; g++) {
    let w = ch + CH_BYTES;
    // the bias starts lane 0 of each accumulator (the reduction adds the lanes)
    const bias0 = v128.load32_zero(ch);
    const bias1 = v128.load32_zero(ch, 4);
    let a0 = bias0, a1 = bias0, a2 = bias0, a3 = bias0;
    let b0 = bias1, b1 = bias1, b2 = bias1, b3 = bias1;
    let x = ext;
    for (let k = 0; k < slices; k++) {
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
      x += 16;
      w += 32;
    }
    // four pixels of channel 2g, and of channel 2g + 1
    const s0 = requantChannel(hsum4(a0, a1, a2, a3), ch, 0, zp, noLeft);
    const s1 = requantChannel(hsum4(b0, b1, b2, b3), ch, 4, zp, noLeft);
    const n16 = i16x8.narrow_i32x4_s(s0, s1);
    const n8 = i8x16.min_s(i8x16.max_s(i8x16.narrow_i16x8_s(n16, n16), lo), hi);
    const t = v128.shuffle<i8>(n8, n8, 0, 4, 1, 5, 2, 6, 3, 7, 0, 0, 0, 0, 0, 0, 0, 0);
    const oc = o + <usize>(g << 1);
    if ((g << 1) + 1 < outC) {
      v128.store16_lane(oc, t, 0);
      if (np > 1) v128.store16_lane(oc + stride, t, 1);
      if (np > 2) v128.store16_lane(oc + 2 * stride, t, 2);
      if (np > 3) v128.store16_lane(oc + 3 * stride, t, 3);
    } else {
      v128.store8_lane(oc, t, 0);
      if (np > 1) v128.store8_lane(oc + stride, t, 2);
      if (np > 2) v128.store8_lane(oc + 2 * stride, t, 4);
      if (np > 3) v128.store8_lane(oc + 3 * stride, t, 6);
    }
    ch = w;
  }
}

/** Scalar MultiplyByQuantizedMultiplier + zero point + clamp of channel `j` of the pair at `ch`. */
@inline function requantScalar(acc: i32, ch: usize, j: usize, zp: i32, lo: i32, hi: i32): i32 {
  const x = (acc + load<i32>(ch + j)) << load<i32>(ch + j, 16);
  const y = <i32>((<i64>x * <i64>load<i32>(ch + j, 8) + (<i64>1 << 30)) >> 31);
  const r = load<i32>(ch + j, 24);
  const mask = load<i32>(ch + j, 32);
  const q = (y >> r) + ((y & mask) > ((mask >> 1) + (y < 0 ? 1 : 0)) ? 1 : 0) + zp;
  return min(max(q, lo), hi);
}

@inline function lanesSum(v: v128): i32 {
  return i32x4.extract_lane(v, 0) + i32x4.extract_lane(v, 1) + i32x4.extract_lane(v, 2) + i32x4.extract_lane(v, 3);
}

/**
 * One output pixel (FULLY_CONNECTED with one batch, a 1x1 convolution of a 1x1 image, an LSTM gate):
 * the 4-pixel tile would compute three copies of it, so each channel pair is one row of dot products
 * instead. With P_OUT16 the outputs are int16 (the LSTM's Q3.12 gates).
 */
function gemv(pp: usize, input: usize, output: usize): void {
  const outC = load<i32>(pp, P_OUT_C);
  const kb8 = load<i32>(pp, P_KB8);
  const packed = <usize>load<u32>(pp, P_PACKED);
  const lo = load<i32>(pp, P_ACT_MIN);
  const hi = load<i32>(pp, P_ACT_MAX);
  const zp = load<i32>(pp, P_ZP_OUT);
  const pairs = (outC + 1) >> 1;
  const out16 = load<i32>(pp, P_OUT16) != 0;
  let ch = packed;
  for (let g = 0; g < pairs; g++) {
    let w = ch + CH_BYTES;
    let x = input;
    let a = i32x4.splat(0), b = i32x4.splat(0);
    for (let k = 0; k < kb8; k++) {
      const v = v128.load8x8_s(x);
      a = i32x4.add(a, i32x4.dot_i16x8_s(v, v128.load(w)));
      b = i32x4.add(b, i32x4.dot_i16x8_s(v, v128.load(w, 16)));
      x += 8;
      w += 32;
    }
    const va = requantScalar(lanesSum(a), ch, 0, zp, lo, hi);
    const vb = requantScalar(lanesSum(b), ch, 4, zp, lo, hi);
    const two = (g << 1) + 1 < outC;
    if (out16) {
      const o = output + <usize>(g << 2);
      store<i16>(o, <i16>va);
      if (two) store<i16>(o, <i16>vb, 2);
    } else {
      const o = output + <usize>(g << 1);
      store<i8>(o, <i8>va);
      if (two) store<i8>(o, <i8>vb, 1);
    }
    ch = w;
  }
}
