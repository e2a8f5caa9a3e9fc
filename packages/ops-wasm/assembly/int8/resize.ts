// RESIZE_BILINEAR of int8, int16 and uint8 over tables computed at prepare (src/kernels/resize-bilinear.ts with
// kernel-support's TFLite coordinates): each output pixel blends four input pixels, channels along the
// lanes, eight at a time (a last group that overlaps the previous one rewrites the same bytes; fewer than
// eight channels run scalar). Parameter block R (scripts/abi.mjs).
//
// int8 (qs8_resize_bilinear) is TFLite's reference_ops::ResizeBilinearInteger: 10-bit fixed-point weights
// per axis, the four products x * wy * wx summed (exact in int32: |x| <= 128 and the weights' absolute
// sums are at most 2048 per axis, so every partial sum stays below 2^30), rounded half away from zero by
// 2^20 (`(v + (v > 0 ? 2^19 : -2^19)) / 2^20` in C's truncating division) and stored as int8 (a blend
// of int8 values: always in range).
//
// int16 (qs16_resize_bilinear) is the same ResizeBilinearInteger, whose sum needs 37 bits (TFLite: int64),
// computed exactly in int32 pieces. Per row, t = x_lo * wx_lo + x_hi * wx_hi is one i32x4.dot_i16x8_s of
// the two columns' values interleaved with the pair (wx_lo, wx_hi) (|t| <= 2^25; a weight is at most 1024).
// Splitting t = th * 2^10 + tl (0 <= tl < 2^10), the blend v = wy_lo * t_lo + wy_hi * t_hi is
// U * 2^10 + L with U = sum of wy * th (|U| <= 2^25) and L = sum of wy * tl (0 <= L < 2^20); then
// v = A * 2^20 + Rl with A = (U >> 10) + ((U & 1023) * 2^10 + L) >> 20 and Rl the low 20 bits of that sum.
// TFLite's (v + (v > 0 ? 2^19 : -2^19)) / 2^20 (truncating) is then A + [Rl > 2^19] + [Rl = 2^19 and A >= 0]:
// for v > 0 it is floor((v + 2^19) / 2^20), for v <= 0 ceil((v - 2^19) / 2^20), and they differ only at
// Rl = 2^19, where v > 0 exactly when A >= 0.
//
// uint8 (qu8_resize_bilinear) is TFLite's float blend, as ops-reference's resizeUint8: the four weights
// (1 - dy)(1 - dx), (1 - dy)dx, dy(1 - dx), dy dx as float32 products, then
// ((x00 w0 + x01 w1) + x10 w2) + x11 w3 + 0.5 in float32, in that order, truncated and clamped to [0, 255].
import { R_BATCHES, R_C, R_IN_IMAGE, R_OUT_H, R_OUT_W, R_X, R_Y } from '../generated/abi';

/** Rounds four 20-bit fixed-point sums half away from zero: sign(v) * ((|v| + 2^19) >> 20). */
@inline function round20(v: v128): v128 {
  const s = i32x4.shr_s(v, 31);
  const q = i32x4.shr_u(i32x4.add(i32x4.abs(v), i32x4.splat(1 << 19)), 20);
  return i32x4.sub(v128.xor(q, s), s);
}

@inline function round20Scalar(v: i32): i32 {
  return v > 0 ? (v + (1 << 19)) >> 20 : -((-v + (1 << 19)) >> 20);
}

/** Eight int8 channels of one output pixel. */
@inline function blend8s(p00: usize, p10: usize, p01: usize, p11: usize, w00: v128, w10: v128, w01: v128, w11: v128): v128 {
  const a = v128.load8x8_s(p00), b = v128.load8x8_s(p10), c = v128.load8x8_s(p01), d = v128.load8x8_s(p11);
  let lo = i32x4.mul(i32x4.extend_low_i16x8_s(a), w00);
  lo = i32x4.add(lo, i32x4.mul(i32x4.extend_low_i16x8_s(b), w10));
  lo = i32x4.add(lo, i32x4.mul(i32x4.extend_low_i16x8_s(c), w01));
  lo = i32x4.add(lo, i32x4.mul(i32x4.extend_low_i16x8_s(d), w11));
  let hi = i32x4.mul(i32x4.extend_high_i16x8_s(a), w00);
  hi = i32x4.add(hi, i32x4.mul(i32x4.extend_high_i16x8_s(b), w10));
  hi = i32x4.add(hi, i32x4.mul(i32x4.extend_high_i16x8_s(c), w01));
  hi = i32x4.add(hi, i32x4.mul(i32x4.extend_high_i16x8_s(d), w11));
  const n = i16x8.narrow_i32x4_s(round20(lo), round20(hi));
  return i8x16.narrow_i16x8_s(n, n);
}

export function qs8_resize_bilinear(p: usize, input: usize, output: usize): void {
  const batches = load<i32>(p, R_BATCHES), outH = load<i32>(p, R_OUT_H), outW = load<i32>(p, R_OUT_W), C = load<i32>(p, R_C);
  const inImage = <usize>load<u32>(p, R_IN_IMAGE);
  const yt = <usize>load<u32>(p, R_Y);
  const xt = <usize>load<u32>(p, R_X);
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>b * inImage;
    for (let y = 0; y < outH; y++) {
      const ye = yt + <usize>(y << 4);
      const rLo = image + <usize>load<u32>(ye);
      const rHi = image + <usize>load<u32>(ye, 4);
      const wyLo = load<i32>(ye, 8);
      const wyHi = load<i32>(ye, 12);
      for (let x = 0; x < outW; x++) {
        const xe = xt + <usize>(x << 4);
        const xLo = <usize>load<u32>(xe);
        const xHi = <usize>load<u32>(xe, 4);
        const wxLo = load<i32>(xe, 8);
        const wxHi = load<i32>(xe, 12);
        const s00 = wyLo * wxLo, s10 = wyHi * wxLo, s01 = wyLo * wxHi, s11 = wyHi * wxHi;
        const p00 = rLo + xLo, p10 = rHi + xLo, p01 = rLo + xHi, p11 = rHi + xHi;
        if (C >= 8) {
          const w00 = i32x4.splat(s00), w10 = i32x4.splat(s10), w01 = i32x4.splat(s01), w11 = i32x4.splat(s11);
          let c = 0;
          for (; c + 8 <= C; c += 8) {
            const cc = <usize>c;
            v128.store64_lane(o + cc, blend8s(p00 + cc, p10 + cc, p01 + cc, p11 + cc, w00, w10, w01, w11), 0);
          }
          if (c < C) {
            const cc = <usize>(C - 8);
            v128.store64_lane(o + cc, blend8s(p00 + cc, p10 + cc, p01 + cc, p11 + cc, w00, w10, w01, w11), 0);
          }
        } else {
          for (let c = 0; c < C; c++) {
            const cc = <usize>c;
            const v =
              <i32>load<i8>(p00 + cc) * s00 + <i32>load<i8>(p10 + cc) * s10 + <i32>load<i8>(p01 + cc) * s01 + <i32>load<i8>(p11 + cc) * s11;
            store<i8>(o + cc, <i8>round20Scalar(v));
          }
        }
        o += <usize>C;
      }
    }
  }
}

/** The int16 blend of four channels from the rows' column sums `t0` (lower row) and `t1` (upper row), see the note. */
@inline function blendRows16(t0: v128, t1: v128, wy0: v128, wy1: v128): v128 {
  const low10 = i32x4.splat(1023);
  const u = i32x4.add(i32x4.mul(i32x4.shr_s(t0, 10), wy0), i32x4.mul(i32x4.shr_s(t1, 10), wy1));
  const l = i32x4.add(i32x4.mul(v128.and(t0, low10), wy0), i32x4.mul(v128.and(t1, low10), wy1));
  const r = i32x4.add(i32x4.shl(v128.and(u, low10), 10), l);
  const a = i32x4.add(i32x4.shr_s(u, 10), i32x4.shr_u(r, 20));
  const rl = v128.and(r, i32x4.splat((1 << 20) - 1));
  const half = i32x4.splat(1 << 19);
  // masks are -1 where true
  const up = i32x4.gt_s(rl, half);
  const tie = v128.and(i32x4.eq(rl, half), i32x4.ge_s(a, i32x4.splat(0)));
  return i32x4.sub(i32x4.sub(a, up), tie);
}

/** Eight int16 channels of one output pixel; `wx` holds the i16 pair (wx_lo, wx_hi) in every i32 lane. */
@inline function blend8h(p00: usize, p10: usize, p01: usize, p11: usize, wx: v128, wy0: v128, wy1: v128): v128 {
  const a = v128.load(p00), b = v128.load(p01), c = v128.load(p10), d = v128.load(p11);
  const t0lo = i32x4.dot_i16x8_s(v128.shuffle<i16>(a, b, 0, 8, 1, 9, 2, 10, 3, 11), wx);
  const t0hi = i32x4.dot_i16x8_s(v128.shuffle<i16>(a, b, 4, 12, 5, 13, 6, 14, 7, 15), wx);
  const t1lo = i32x4.dot_i16x8_s(v128.shuffle<i16>(c, d, 0, 8, 1, 9, 2, 10, 3, 11), wx);
  const t1hi = i32x4.dot_i16x8_s(v128.shuffle<i16>(c, d, 4, 12, 5, 13, 6, 14, 7, 15), wx);
  return i16x8.narrow_i32x4_s(blendRows16(t0lo, t1lo, wy0, wy1), blendRows16(t0hi, t1hi, wy0, wy1));
}

export function qs16_resize_bilinear(p: usize, input: usize, output: usize): void {
  const batches = load<i32>(p, R_BATCHES), outH = load<i32>(p, R_OUT_H), outW = load<i32>(p, R_OUT_W), C = load<i32>(p, R_C);
  const inImage = <usize>load<u32>(p, R_IN_IMAGE);
  const yt = <usize>load<u32>(p, R_Y);
  const xt = <usize>load<u32>(p, R_X);
  const rowBytes = <usize>(C << 1);
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>b * inImage;
    for (let y = 0; y < outH; y++) {
      const ye = yt + <usize>(y << 4);
      const rLo = image + <usize>load<u32>(ye);
      const rHi = image + <usize>load<u32>(ye, 4);
      const wyLo = load<i32>(ye, 8);
      const wyHi = load<i32>(ye, 12);
      const wy0 = i32x4.splat(wyLo), wy1 = i32x4.splat(wyHi);
      for (let x = 0; x < outW; x++) {
        const xe = xt + <usize>(x << 4);
        const xLo = <usize>load<u32>(xe);
        const xHi = <usize>load<u32>(xe, 4);
        const wxLo = load<i32>(xe, 8);
        const wxHi = load<i32>(xe, 12);
        const p00 = rLo + xLo, p10 = rHi + xLo, p01 = rLo + xHi, p11 = rHi + xHi;
        if (C >= 8) {
          const wx = i32x4.splat((wxHi << 16) | wxLo);
          let c = 0;
          for (; c + 8 <= C; c += 8) {
            const cc = <usize>(c << 1);
            v128.store(o + cc, blend8h(p00 + cc, p10 + cc, p01 + cc, p11 + cc, wx, wy0, wy1));
          }
          if (c < C) {
            const cc = <usize>((C - 8) << 1);
            v128.store(o + cc, blend8h(p00 + cc, p10 + cc, p01 + cc, p11 + cc, wx, wy0, wy1));
          }
        } else {
          const s00 = <i64>(wyLo * wxLo), s10 = <i64>(wyHi * wxLo), s01 = <i64>(wyLo * wxHi), s11 = <i64>(wyHi * wxHi);
          for (let c = 0; c < C; c++) {
            const cc = <usize>(c << 1);
            const v = <i64>load<i16>(p00 + cc) * s00 + <i64>load<i16>(p10 + cc) * s10 + <i64>load<i16>(p01 + cc) * s01 + <i64>load<i16>(p11 + cc) * s11;
            store<i16>(o + cc, <i16>((v + (v > 0 ? <i64>(1 << 19) : -<i64>(1 << 19))) / (<i64>1 << 20)));
          }
        }
        o += rowBytes;
      }
    }
  }
}

/** Four uint8 channels (the lanes of `v` as u32) to float32. */
@inline function u32f(v: v128): v128 {
  return f32x4.convert_i32x4_u(v);
}

/** Eight uint8 channels of one output pixel, in TFLite's float32 order. */
@inline function blend8u(p00: usize, p01: usize, p10: usize, p11: usize, w0: v128, w1: v128, w2: v128, w3: v128): v128 {
  const a = v128.load8x8_u(p00), b = v128.load8x8_u(p01), c = v128.load8x8_u(p10), d = v128.load8x8_u(p11);
  const half = f32x4.splat(0.5);
  let lo = f32x4.add(f32x4.mul(u32f(i32x4.extend_low_i16x8_u(a)), w0), f32x4.mul(u32f(i32x4.extend_low_i16x8_u(b)), w1));
  lo = f32x4.add(lo, f32x4.mul(u32f(i32x4.extend_low_i16x8_u(c)), w2));
  lo = f32x4.add(f32x4.add(lo, f32x4.mul(u32f(i32x4.extend_low_i16x8_u(d)), w3)), half);
  let hi = f32x4.add(f32x4.mul(u32f(i32x4.extend_high_i16x8_u(a)), w0), f32x4.mul(u32f(i32x4.extend_high_i16x8_u(b)), w1));
  hi = f32x4.add(hi, f32x4.mul(u32f(i32x4.extend_high_i16x8_u(c)), w2));
  hi = f32x4.add(f32x4.add(hi, f32x4.mul(u32f(i32x4.extend_high_i16x8_u(d)), w3)), half);
  // truncation toward zero, then [0, 255]: negatives and NaN give 0 (trunc_sat), 255 and above 255
  const n = i16x8.narrow_i32x4_s(i32x4.trunc_sat_f32x4_s(lo), i32x4.trunc_sat_f32x4_s(hi));
  return i8x16.narrow_i16x8_u(n, n);
}

export function qu8_resize_bilinear(p: usize, input: usize, output: usize): void {
  const batches = load<i32>(p, R_BATCHES), outH = load<i32>(p, R_OUT_H), outW = load<i32>(p, R_OUT_W), C = load<i32>(p, R_C);
  const inImage = <usize>load<u32>(p, R_IN_IMAGE);
  const yt = <usize>load<u32>(p, R_Y);
  const xt = <usize>load<u32>(p, R_X);
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>b * inImage;
    for (let y = 0; y < outH; y++) {
      const ye = yt + <usize>(y << 4);
      const rLo = image + <usize>load<u32>(ye);
      const rHi = image + <usize>load<u32>(ye, 4);
      const wyLo = load<f32>(ye, 8);
      const wyHi = load<f32>(ye, 12);
      for (let x = 0; x < outW; x++) {
        const xe = xt + <usize>(x << 4);
        const xLo = <usize>load<u32>(xe);
        const xHi = <usize>load<u32>(xe, 4);
        const wxLo = load<f32>(xe, 8);
        const wxHi = load<f32>(xe, 12);
        const s0: f32 = wyLo * wxLo, s1: f32 = wyLo * wxHi, s2: f32 = wyHi * wxLo, s3: f32 = wyHi * wxHi;
        const p00 = rLo + xLo, p01 = rLo + xHi, p10 = rHi + xLo, p11 = rHi + xHi;
        if (C >= 8) {
          const w0 = f32x4.splat(s0), w1 = f32x4.splat(s1), w2 = f32x4.splat(s2), w3 = f32x4.splat(s3);
          let c = 0;
          for (; c + 8 <= C; c += 8) {
            const cc = <usize>c;
            v128.store64_lane(o + cc, blend8u(p00 + cc, p01 + cc, p10 + cc, p11 + cc, w0, w1, w2, w3), 0);
          }
          if (c < C) {
            const cc = <usize>(C - 8);
            v128.store64_lane(o + cc, blend8u(p00 + cc, p01 + cc, p10 + cc, p11 + cc, w0, w1, w2, w3), 0);
          }
        } else {
          for (let c = 0; c < C; c++) {
            const cc = <usize>c;
            let v: f32 = <f32>load<u8>(p00 + cc) * s0 + <f32>load<u8>(p01 + cc) * s1;
            v = v + <f32>load<u8>(p10 + cc) * s2;
            v = v + <f32>load<u8>(p11 + cc) * s3;
            v = v + <f32>0.5;
            store<u8>(o + cc, v > <f32>0 ? (v >= <f32>255 ? 255 : <u8><i32>v) : 0);
          }
        }
        o += <usize>C;
      }
    }
  }
}
