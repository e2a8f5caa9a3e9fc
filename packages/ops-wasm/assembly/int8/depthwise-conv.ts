// int8 DEPTHWISE_CONV_2D: channels along the lanes, eight at a time (with a depth multiplier m > 1, the
// eight output channels' input channels (c + j) / m are gathered by a swizzle from one load). For each
// output pixel the tap pointers are looked up once (padding taps read a row of input zero points; an
// odd tap count repeats the last pointer, with zero weights), then each 8-channel group takes the taps
// two at a time: the two taps' sign-extended bytes are interleaved per channel, so one
// i32x4.dot_i16x8_s adds x[t]w[t] + x[t+1]w[t+1] for four channels, into two i32x4 accumulators that
// start from the folded bias.
//
// Packed weights (src/kernels/weight-pack.ts), per group of eight channels:
//   [requantization block, channels 0-3][requantization block, channels 4-7]
//   [per pair of taps: (w[t], w[t+1]) of channels 0-3, then of channels 4-7, as int16 = 32 bytes].
// Channels past the depth have zero weights.
import { RQ_BYTES, narrow8, narrowClamp8, requantLanes, requantLanesRight, storeBytes } from './requant';
import { P_ACT_MAX, P_ACT_MIN, P_DIL_H, P_DIL_W, P_DM_TABLE, P_IN_C, P_IN_H, P_IN_IMAGE, P_IN_W, P_KB8, P_K_H, P_K_W, P_OUT_C, P_OUT_HW, P_OUT_W, P_PACKED, P_PAD_H, P_PAD_W, P_PTRS, P_RIGHT_ONLY, P_STRIDE_H, P_STRIDE_W, P_TOTAL, P_ZP_OUT, tapPointersAt } from './window';

/** First and last output index whose window (k taps, dilation d) lies inside [0, n) with stride s and padding p. */
@inline function interiorRange(n: i32, k: i32, s: i32, d: i32, p: i32): i64 {
  const first = (p + s - 1) / s;
  const span = n - 1 - (k - 1) * d + p;
  const last = span < 0 ? -1 : span / s;
  return (<i64>first << 32) | <i64>(<u32>last);
}

/** int8 depthwise convolution with the parameter block at `pp` (P_OUT_C = channels, P_KB8 = groups). */
export function qs8_dwconv(pp: usize, input: usize, output: usize): void {
  const total = load<i32>(pp, P_TOTAL);
  const channels = load<i32>(pp, P_OUT_C);
  const taps = load<i32>(pp, P_K_H) * load<i32>(pp, P_K_W);
  const groups = load<i32>(pp, P_KB8);
  const packed = <usize>load<u32>(pp, P_PACKED);
  const ptrs = <usize>load<u32>(pp, P_PTRS);
  const lo = i8x16.splat(<i8>load<i32>(pp, P_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(pp, P_ACT_MAX));
  const zp = i32x4.splat(load<i32>(pp, P_ZP_OUT));
  const pairs = (taps + 1) >> 1;
  const gStride = <usize>(2 * RQ_BYTES + pairs * 32);
  const rightOnly = load<i32>(pp, P_RIGHT_ONLY) != 0;
  const dmTable = <usize>load<u32>(pp, P_DM_TABLE);
  const outW = load<i32>(pp, P_OUT_W);
  const outH = load<i32>(pp, P_OUT_HW) / outW;
  const image = <usize>load<i32>(pp, P_IN_IMAGE);
  // pixels whose whole window lies inside the input; along a row of them the tap pointers move by
  // stride_w x depth, so they are updated instead of recomputed
  const sW = load<i32>(pp, P_STRIDE_W);
  const rowsIn = interiorRange(load<i32>(pp, P_IN_H), load<i32>(pp, P_K_H), load<i32>(pp, P_STRIDE_H), load<i32>(pp, P_DIL_H), load<i32>(pp, P_PAD_H));
  const colsIn = interiorRange(load<i32>(pp, P_IN_W), load<i32>(pp, P_K_W), sW, load<i32>(pp, P_DIL_W), load<i32>(pp, P_PAD_W));
  const ohLo = <i32>(rowsIn >> 32), ohHi = <i32>rowsIn;
  const owLo = <i32>(colsIn >> 32), owHi = <i32>colsIn;
  const stepW = <u32>(sW * load<i32>(pp, P_IN_C));
  const slots = pairs << 1;
  // pixel q = (b, oh, ow), walked without divisions
  let oh = 0, ow = 0, b: usize = 0;
  for (let q = 0; q < total; q++) {
    if (ow > owLo && ow <= owHi && oh >= ohLo && oh <= ohHi) {
      // the previous pixel, in the same row, was inside too
      for (let t = 0; t < slots; t++) {
        const at = ptrs + <usize>(t << 2);
        store<u32>(at, load<u32>(at) + stepW);
      }
    } else {
      tapPointersAt(pp, input + b * image, oh, ow, ptrs);
      if (taps & 1) store<u32>(ptrs + <usize>(taps << 2), load<u32>(ptrs + <usize>((taps - 1) << 2)));
    }
    if (++ow == outW) {
      ow = 0;
      if (++oh == outH) {
        oh = 0;
        b++;
      }
    }
    const o = output + <usize>(q * channels);
    let rq = packed;
    for (let g = 0; g < groups; g++) {
      const c = <usize>(g << 3);
      let acc0 = v128.load(rq);
      let acc1 = v128.load(rq, RQ_BYTES);
      let w = rq + 2 * RQ_BYTES;
      if (dmTable == 0) {
        for (let t = 0; t < pairs; t++) {
          const x0 = v128.load8x8_s(<usize>load<u32>(ptrs + <usize>(t << 3)) + c);
          const x1 = v128.load8x8_s(<usize>load<u32>(ptrs + <usize>(t << 3) + 4) + c);
          acc0 = i32x4.add(acc0, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 0, 8, 1, 9, 2, 10, 3, 11), v128.load(w)));
          acc1 = i32x4.add(acc1, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 4, 12, 5, 13, 6, 14, 7, 15), v128.load(w, 16)));
          w += 32;
        }
      } else {
        // depth multiplier > 1: output channel c + j reads input channel (c + j) / multiplier
        const entry = dmTable + <usize>(g << 5);
        const mask = v128.load(entry);
        const start = <usize>load<i32>(entry, 16);
        for (let t = 0; t < pairs; t++) {
          const x0 = i8x16.swizzle(v128.load8x8_s(<usize>load<u32>(ptrs + <usize>(t << 3)) + start), mask);
          const x1 = i8x16.swizzle(v128.load8x8_s(<usize>load<u32>(ptrs + <usize>(t << 3) + 4) + start), mask);
          acc0 = i32x4.add(acc0, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 0, 8, 1, 9, 2, 10, 3, 11), v128.load(w)));
          acc1 = i32x4.add(acc1, i32x4.dot_i16x8_s(v128.shuffle<i16>(x0, x1, 4, 12, 5, 13, 6, 14, 7, 15), v128.load(w, 16)));
          w += 32;
        }
      }
      const s0 = i32x4.add(rightOnly ? requantLanesRight(acc0, rq) : requantLanes(acc0, rq), zp);
      const s1 = i32x4.add(rightOnly ? requantLanesRight(acc1, rq + RQ_BYTES) : requantLanes(acc1, rq + RQ_BYTES), zp);
      // requantLanesRight's results are already within the activation range
      const out = rightOnly ? narrow8(s0, s1) : narrowClamp8(s0, s1, lo, hi);
      const n = channels - <i32>c;
      if (n >= 8) v128.store64_lane(o + c, out, 0);
      else storeBytes(o + c, out, n);
      rq = w;
    }
  }
}
