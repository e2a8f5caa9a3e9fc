// int8 DEPTHWISE_CONV_2D: channels along the lanes, eight at a time (with a depth multiplier m > 1, the
// eight output channels' input channels (c + j) / m are gathered by a swizzle from one load). For each
// output pixel the tap pointers are looked up once (padding taps read a row of input zero points; an
// odd tap count repeats the last pointer, with zero weights), then each 8-channel group takes the taps
// two at a time: the two taps' sign-extended bytes are interleaved per channel, so one
// i32x4.dot_i16x8_s adds x[t]w[t] + x[t+1]w[t+1] for four channels, into two i32x4 accumulators that
// start from the folded bias. 3x3 windows with depth multiplier 1 take the runs of pixels whose window
// lies inside the input group by group instead (run3x3: the group's weights held for the run, the
// activation addresses from one pointer per pixel, no tap-pointer table).
//
// Packed weights (src/kernels/weight-pack.ts), per group of eight channels:
//   [8 folded biases, int32]
//   [per pair of taps: (w[t], w[t+1]) of channels 0-3, then of channels 4-7, int8 = 16 bytes, each half
//    sign-extended to i16x8 by v128.load8x8_s].
// uint8 layers (W_U8, TFLite's asymmetric quantization) zero-extend the activations and store the weights
// as int16 (w - filter zero point), 32 bytes per pair of taps; their outputs narrow to uint8.
// Channels past the depth have zero weights. The requantization blocks are apart (W_RQ), one per four
// channels W_RQ_STRIDE bytes apart (0 when every channel shares one).
// Hybrid layers (W_RAW, see assembly/hybrid/epilogue.ts) store the int32 accumulators as they are, four
// bytes per output, for hybrid_epilogue.
import { narrow8, narrowClamp8, narrowClampU8, narrowU8, requantLanes, requantRightWith, rightBase, rightStep, roundWithZp, storeBytes } from './requant';
import { tapPointersAt, threadArea, windowBegin } from './window';
import { storeRaw } from './conv';
import { W_ACT_MAX, W_ACT_MIN, W_DIL_H, W_DIL_W, W_DM_TABLE, W_IN_C, W_IN_H, W_IN_IMAGE, W_IN_W, W_KB8, W_KH, W_KW, W_OUT_C, W_OUT_HW, W_OUT_W, W_PACKED, W_PAD_H, W_PAD_W, W_RAW, W_RIGHT_ONLY, W_RQ, RQ_M, RQ_SCALE, RQ_X_HI, RQ_X_LO, W_RQ_STRIDE, W_STRIDE_H, W_STRIDE_W, W_TOTAL, W_U8, W_ZP_OUT } from '../generated/abi';

/** First and last output index whose window (k taps, dilation d) lies inside [0, n) with stride s and padding p. */
@inline function interiorRange(n: i32, k: i32, s: i32, d: i32, p: i32): i64 {
  const first = (p + s - 1) / s;
  const span = n - 1 - (k - 1) * d + p;
  const last = span < 0 ? -1 : span / s;
  return (<i64>first << 32) | <i64>(<u32>last);
}

/** int8 depthwise convolution with the parameter block at `pp` (W_OUT_C = channels, W_KB8 = groups). */
export function qs8_dwconv(pp: usize, input: usize, output: usize): void {
  windowBegin(pp);
  qs8_dwconv_run(pp, input, output, 0, load<i32>(pp, W_TOTAL), 0);
}

/** qs8_dwconv over output pixels [q0, q1) with the scratch area of thread `tid` (two tap-pointer tables), after windowBegin. */
export function qs8_dwconv_run(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32): void {
  if (q0 >= q1) return; // no output pixels: dwconvRun would divide by the empty image's width
  if (load<i32>(pp, W_RAW) != 0) dwconvRun(pp, input, output, q0, q1, tid, false, true);
  else if (load<i32>(pp, W_U8) != 0) dwconvRun(pp, input, output, q0, q1, tid, true);
  else dwconvRun(pp, input, output, q0, q1, tid, false);
}

/**
 * qs8_dwconv_run with `u8` constant: uint8 activations (zero-extended), int16 weights and uint8 outputs;
 * with `raw` constant (hybrid): the int32 accumulators stored as they are.
 */
@inline function dwconvRun(pp: usize, input: usize, output: usize, q0: i32, q1: i32, tid: i32, u8: bool, raw: bool = false): void {
  const channels = load<i32>(pp, W_OUT_C);
  const taps = load<i32>(pp, W_KH) * load<i32>(pp, W_KW);
  const groups = load<i32>(pp, W_KB8);
  const packed = <usize>load<u32>(pp, W_PACKED);
  const rq = <usize>load<u32>(pp, W_RQ);
  const rqStride = <usize>load<i32>(pp, W_RQ_STRIDE);
  const ptrs = threadArea(pp, tid);
  const lo = i8x16.splat(<i8>load<i32>(pp, W_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(pp, W_ACT_MAX));
  const zp = i32x4.splat(load<i32>(pp, W_ZP_OUT));
  const zr = roundWithZp(load<i32>(pp, W_ZP_OUT)); // right-only blocks: zp in the final shift's rounding
  const pairs = (taps + 1) >> 1;
  const rightOnly = load<i32>(pp, W_RIGHT_ONLY) != 0;
  const dmTable = <usize>load<u32>(pp, W_DM_TABLE);
  const outW = load<i32>(pp, W_OUT_W);
  const outH = load<i32>(pp, W_OUT_HW) / outW;
  const image = <usize>load<i32>(pp, W_IN_IMAGE);
  // pixels whose whole window lies inside the input; along a row of them the tap pointers move by
  // stride_w x depth, so they are updated instead of recomputed
  const sW = load<i32>(pp, W_STRIDE_W);
  const rowsIn = interiorRange(load<i32>(pp, W_IN_H), load<i32>(pp, W_KH), load<i32>(pp, W_STRIDE_H), load<i32>(pp, W_DIL_H), load<i32>(pp, W_PAD_H));
  const colsIn = interiorRange(load<i32>(pp, W_IN_W), load<i32>(pp, W_KW), sW, load<i32>(pp, W_DIL_W), load<i32>(pp, W_PAD_W));
  const ohLo = <i32>(rowsIn >> 32), ohHi = <i32>rowsIn;
  const owLo = <i32>(colsIn >> 32), owHi = <i32>colsIn;
  const stepW = <u32>(sW * load<i32>(pp, W_IN_C));
  const slots = pairs << 1;
  const outBytes = raw ? 4 : 1; // bytes per output
  // second pointer table (two pixels per step when the depth multiplier is 1)
  const ptrs2 = ptrs + <usize>(slots << 2);
  // pixel q = (b, oh, ow), walked without divisions from q0; `prev` holds the last pixel's tap pointers
  const outHW = outH * outW;
  let b = <usize>(q0 / outHW);
  let oh = (q0 - <i32>b * outHW) / outW;
  let ow = q0 - <i32>b * outHW - oh * outW;
  let prev = ptrs;
  let fresh = true;
  // 3x3 windows, depth multiplier 1: runs of pixels inside the input go group by group (run3x3)
  const k33 = dmTable == 0 && load<i32>(pp, W_KH) == 3 && load<i32>(pp, W_KW) == 3;
  const inC = load<i32>(pp, W_IN_C);
  const inW = load<i32>(pp, W_IN_W);
  const dc = <usize>(load<i32>(pp, W_DIL_W) * inC);
  const dr = <usize>(load<i32>(pp, W_DIL_H) * inW * inC);
  const sH = load<i32>(pp, W_STRIDE_H);
  const padH = load<i32>(pp, W_PAD_H);
  const padW = load<i32>(pp, W_PAD_W);
  for (let q = q0; q < q1; ) {
    const rowIn = oh >= ohLo && oh <= ohHi;
    const inA = rowIn && ow >= owLo && ow <= owHi;
    if (k33 && inA) {
      const n = min(owHi - ow + 1, q1 - q);
      const p0 = input + b * image + <usize>(((oh * sH - padH) * inW + ow * sW - padW) * inC);
      const o = output + <usize>(q * channels * outBytes);
      if (raw) run3x3(p0, n, stepW, dc, dr, packed, rq, rqStride, groups, channels, o, false, zp, lo, hi, false, true);
      else if (rightOnly) run3x3(p0, n, stepW, dc, dr, packed, rq, rqStride, groups, channels, o, true, zr, lo, hi, u8);
      else run3x3(p0, n, stepW, dc, dr, packed, rq, rqStride, groups, channels, o, false, zp, lo, hi, u8);
      q += n;
      ow += n;
      fresh = true;
      if (ow == outW) {
        ow = 0;
        if (++oh == outH) {
          oh = 0;
          b++;
        }
      }
      continue;
    }
    if (inA && ow > owLo && !fresh) {
      // the previous pixel, in the same row, was inside too
      advance(prev, ptrs, slots, stepW);
    } else {
      tapPointersAt(pp, input + b * image, oh, ow, ptrs);
      if (taps & 1) store<u32>(ptrs + <usize>(taps << 2), load<u32>(ptrs + <usize>((taps - 1) << 2)));
    }
    fresh = false;
    const two = dmTable == 0 && ow + 1 < outW && q + 1 < q1;
    if (two) {
      if (inA && ow + 1 <= owHi) {
        advance(ptrs, ptrs2, slots, stepW);
      } else {
        tapPointersAt(pp, input + b * image, oh, ow + 1, ptrs2);
        if (taps & 1) store<u32>(ptrs2 + <usize>(taps << 2), load<u32>(ptrs2 + <usize>((taps - 1) << 2)));
      }
      const o = output + <usize>(q * channels * outBytes);
      if (raw) pixelPair(ptrs, ptrs2, packed, rq, rqStride, groups, pairs, channels, o, false, zp, lo, hi, false, true);
      else if (rightOnly) pixelPair(ptrs, ptrs2, packed, rq, rqStride, groups, pairs, channels, o, true, zr, lo, hi, u8);
      else pixelPair(ptrs, ptrs2, packed, rq, rqStride, groups, pairs, channels, o, false, zp, lo, hi, u8);
      prev = ptrs2;
      q += 2;
      ow += 2;
    } else {
      const o = output + <usize>(q * channels * outBytes);
      if (raw) onePixel(ptrs, packed, rq, rqStride, groups, pairs, channels, dmTable, o, false, zp, lo, hi, false, true);
      else onePixel(ptrs, packed, rq, rqStride, groups, pairs, channels, dmTable, o, rightOnly, rightOnly ? zr : zp, lo, hi, u8);
      prev = ptrs;
      q++;
      ow++;
    }
    if (ow == outW) {
      ow = 0;
      if (++oh == outH) {
        oh = 0;
        b++;
      }
    }
  }
}

/** dst[t] = src[t] + step for the `slots` tap pointers (the next pixel along a row inside the input). */
@inline function advance(src: usize, dst: usize, slots: i32, step: u32): void {
  for (let t = 0; t < slots; t++) {
    const k = <usize>(t << 2);
    store<u32>(dst + k, load<u32>(src + k) + step);
  }
}

/**
 * Requantized, narrowed outputs of one 8-channel group (requantRightWith's are within the activation
 * range). `zp` is the output zero point, or for right-only blocks requantRightWith's rounding constant
 * roundWithZp(zp) (the zero point added before the final shift); pixelPair and onePixel pass it on.
 */
@inline function groupOut(acc0: v128, acc1: v128, rq: usize, rqB: usize, rightOnly: bool, zp: v128, lo: v128, hi: v128, u8: bool): v128 {
  if (rightOnly) {
    const a = rightOut(acc0, rq, zp);
    const b = rightOut(acc1, rqB, zp);
    return u8 ? narrowU8(a, b) : narrow8(a, b);
  }
  const a = i32x4.add(requantLanes(acc0, rq), zp);
  const b = i32x4.add(requantLanes(acc1, rqB), zp);
  return u8 ? narrowClampU8(a, b, lo, hi) : narrowClamp8(a, b, lo, hi);
}

/** Eight activations as i16x8: int8 sign-extended, or (`u8`) uint8 zero-extended. */
@inline function act8(p: usize, u8: bool): v128 {
  return u8 ? v128.load8x8_u(p) : v128.load8x8_s(p);
}

/** Eight weights as i16x8 at byte `off` of `w`: int8 sign-extended, or (`u8`) int16 as stored (at twice the offset). */
@inline function wt8(w: usize, off: usize, u8: bool): v128 {
  return u8 ? v128.load(w + (off << 1)) : v128.load8x8_s(w + off);
}

@inline function rightOut(acc: v128, rq: usize, zr: v128): v128 {
  const scale = v128.load(rq, RQ_SCALE);
  return requantRightWith(acc, v128.load(rq, RQ_M), v128.load(rq, RQ_X_HI), v128.load(rq, RQ_X_LO), scale, rightBase(scale, zr), rightStep(scale));
}

@inline function store8(p: usize, v: v128, n: i32): void {
  if (n >= 8) v128.store64_lane(p, v, 0);
  else storeBytes(p, v, n);
}

/**
 * Two neighbouring output pixels (tap pointers at `pa` and `pb`, outputs at `o` and `o + channels`),
 * depth multiplier 1: each weight vector loaded once for both.
 */
@inline function pixelPair(pa: usize, pb: usize, packed: usize, rq: usize, rqStride: usize, groups: i32, pairs: i32, channels: i32, o: usize, rightOnly: bool, zp: v128, lo: v128, hi: v128, u8: bool, raw: bool = false): void {
  let w = packed;
  let r = rq;
  for (let g = 0; g < groups; g++) {
    const c = <usize>(g << 3);
    let a0 = v128.load(w);
    let a1 = v128.load(w, 16);
    let b0 = a0, b1 = a1;
    w += 32;
    for (let t = 0; t < pairs; t++) {
      const wa = wt8(w, 0, u8);
      const wb = wt8(w, 8, u8);
      const k = <usize>(t << 3);
      let x0 = act8(<usize>load<u32>(pa + k) + c, u8);
      let x1 = act8(<usize>load<u32>(pa + k, 4) + c, u8);
      a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 0, 8, 1, 9, 2, 10, 3, 11), wa));
      a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 4, 12, 5, 13, 6, 14, 7, 15), wb));
      x0 = act8(<usize>load<u32>(pb + k) + c, u8);
      x1 = act8(<usize>load<u32>(pb + k, 4) + c, u8);
      b0 = i32x4.add(b0, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 0, 8, 1, 9, 2, 10, 3, 11), wa));
      b1 = i32x4.add(b1, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 4, 12, 5, 13, 6, 14, 7, 15), wb));
      w += u8 ? 32 : 16;
    }
    const n = channels - <i32>c;
    const rB = r + rqStride;
    if (raw) {
      storeRaw(o + (c << 2), a0, a1, n);
      storeRaw(o + <usize>(channels << 2) + (c << 2), b0, b1, n);
      continue;
    }
    store8(o + c, groupOut(a0, a1, r, rB, rightOnly, zp, lo, hi, u8), n);
    store8(o + <usize>channels + c, groupOut(b0, b1, r, rB, rightOnly, zp, lo, hi, u8), n);
    r = rB + rqStride;
  }
}

/** One output pixel (tap pointers at `ptrs`, outputs at `o`), any depth multiplier. */
@inline function onePixel(ptrs: usize, packed: usize, rq: usize, rqStride: usize, groups: i32, pairs: i32, channels: i32, dmTable: usize, o: usize, rightOnly: bool, zp: v128, lo: v128, hi: v128, u8: bool, raw: bool = false): void {
  let w = packed;
  let r = rq;
  for (let g = 0; g < groups; g++) {
    const c = <usize>(g << 3);
    let acc0 = v128.load(w);
    let acc1 = v128.load(w, 16);
    w += 32;
    if (dmTable == 0) {
      for (let t = 0; t < pairs; t++) {
        const x0 = act8(<usize>load<u32>(ptrs + <usize>(t << 3)) + c, u8);
        const x1 = act8(<usize>load<u32>(ptrs + <usize>(t << 3) + 4) + c, u8);
        acc0 = i32x4.add(acc0, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 0, 8, 1, 9, 2, 10, 3, 11), wt8(w, 0, u8)));
        acc1 = i32x4.add(acc1, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 4, 12, 5, 13, 6, 14, 7, 15), wt8(w, 8, u8)));
        w += u8 ? 32 : 16;
      }
    } else {
      // depth multiplier > 1: output channel c + j reads input channel (c + j) / multiplier
      const entry = dmTable + <usize>(g << 5);
      const mask = v128.load(entry);
      const start = <usize>load<i32>(entry, 16);
      for (let t = 0; t < pairs; t++) {
        const x0 = i8x16.swizzle(act8(<usize>load<u32>(ptrs + <usize>(t << 3)) + start, u8), mask);
        const x1 = i8x16.swizzle(act8(<usize>load<u32>(ptrs + <usize>(t << 3) + 4) + start, u8), mask);
        acc0 = i32x4.add(acc0, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 0, 8, 1, 9, 2, 10, 3, 11), wt8(w, 0, u8)));
        acc1 = i32x4.add(acc1, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 4, 12, 5, 13, 6, 14, 7, 15), wt8(w, 8, u8)));
        w += u8 ? 32 : 16;
      }
    }
    const rB = r + rqStride;
    if (raw) {
      storeRaw(o + (c << 2), acc0, acc1, channels - <i32>c);
      continue;
    }
    store8(o + c, groupOut(acc0, acc1, r, rB, rightOnly, zp, lo, hi, u8), channels - <i32>c);
    r = rB + rqStride;
  }
}

/** i32x4.dot_i16x8_s of channels 0-3 (`hi` false) or 4-7 of taps `x` and `y` interleaved, with weights `w`. */
@inline function dotPair(x: v128, y: v128, w: v128, hi: bool): v128 {
  return hi ? i32x4.dot_i16x8_s(v128.shuffle<i16>(x, y, 4, 12, 5, 13, 6, 14, 7, 15), w) : i32x4.dot_i16x8_s(v128.shuffle<i16>(x, y, 0, 8, 1, 9, 2, 10, 3, 11), w);
}

/**
 * `n` neighbouring output pixels along a row of a 3x3 window, depth multiplier 1, every window inside the
 * input: the first pixel's window starts at `p0`, the next ones `stepW` bytes further; the window's
 * columns are `dc` bytes apart, its rows `dr`. Group by group (the group's weights loaded once for
 * the run), pixel by pixel, the nine activation addresses computed from one pointer; outputs at `o`,
 * `channels` apart.
 */
@inline function run3x3(p0: usize, n: i32, stepW: u32, dc: usize, dr: usize, packed: usize, rq: usize, rqStride: usize, groups: i32, channels: i32, o: usize, rightOnly: bool, zp: v128, lo: v128, hi: v128, u8: bool, raw: bool = false): void {
  const outBytes = raw ? 4 : 1;
  const outStep = <usize>(channels * outBytes);
  const pairBytes: usize = u8 ? 32 : 16;
  const groupBytes: usize = 32 + 5 * pairBytes;
  const d2 = dc << 1;
  const r1 = dr, r2 = dr << 1;
  let w = packed;
  let r = rq;
  for (let g = 0; g < groups; g++) {
    const c = <usize>(g << 3);
    const bias0 = v128.load(w);
    const bias1 = v128.load(w, 16);
    const wp = w + 32;
    const w0a = wt8(wp, 0, u8), w0b = wt8(wp, 8, u8);
    const w1a = wt8(wp + pairBytes, 0, u8), w1b = wt8(wp + pairBytes, 8, u8);
    const w2a = wt8(wp + 2 * pairBytes, 0, u8), w2b = wt8(wp + 2 * pairBytes, 8, u8);
    const w3a = wt8(wp + 3 * pairBytes, 0, u8), w3b = wt8(wp + 3 * pairBytes, 8, u8);
    const w4a = wt8(wp + 4 * pairBytes, 0, u8), w4b = wt8(wp + 4 * pairBytes, 8, u8);
    const nLeft = channels - <i32>c;
    const rB = r + rqStride;
    let p = p0 + c;
    let out = o + c * outBytes;
    for (let i = 0; i < n; i++) {
      const x0 = act8(p, u8), x1 = act8(p + dc, u8), x2 = act8(p + d2, u8);
      const x3 = act8(p + r1, u8), x4 = act8(p + r1 + dc, u8), x5 = act8(p + r1 + d2, u8);
      const x6 = act8(p + r2, u8), x7 = act8(p + r2 + dc, u8), x8 = act8(p + r2 + d2, u8);
      let a0 = i32x4.add(bias0, dotPair(x0, x1, w0a, false));
      let a1 = i32x4.add(bias1, dotPair(x0, x1, w0b, true));
      a0 = i32x4.add(a0, dotPair(x2, x3, w1a, false));
      a1 = i32x4.add(a1, dotPair(x2, x3, w1b, true));
      a0 = i32x4.add(a0, dotPair(x4, x5, w2a, false));
      a1 = i32x4.add(a1, dotPair(x4, x5, w2b, true));
      a0 = i32x4.add(a0, dotPair(x6, x7, w3a, false));
      a1 = i32x4.add(a1, dotPair(x6, x7, w3b, true));
      // the tenth tap's weights are zero
      a0 = i32x4.add(a0, dotPair(x8, x8, w4a, false));
      a1 = i32x4.add(a1, dotPair(x8, x8, w4b, true));
      if (raw) storeRaw(out, a0, a1, nLeft);
      else store8(out, groupOut(a0, a1, r, rB, rightOnly, zp, lo, hi, u8), nLeft);
      p += stepW;
      out += outStep;
    }
    w += groupBytes;
    r = rB + rqStride;
  }
}
