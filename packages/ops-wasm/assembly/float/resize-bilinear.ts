// float32 RESIZE_BILINEAR over tables computed at prepare with TFLite's arithmetic (which neighbours,
// which weights: src/kernels/float/resize-bilinear.ts): each output pixel blends four input pixels,
// channels along the lanes.
import { storeLanes } from './common';
import { R_BATCHES, R_C, R_IN_IMAGE, R_OUT_H, R_OUT_W, R_X, R_Y } from '../generated/abi';

// Parameter block R (scripts/abi.mjs).

export function f32_resize_bilinear(p: usize, input: usize, output: usize): void {
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
        const w00 = f32x4.splat(wyLo * wxLo), w10 = f32x4.splat(wyHi * wxLo), w01 = f32x4.splat(wyLo * wxHi), w11 = f32x4.splat(wyHi * wxHi);
        const p00 = rLo + xLo, p10 = rHi + xLo, p01 = rLo + xHi, p11 = rHi + xHi;
        for (let c = 0; c < C; c += 4) {
          const cb = <usize>(c << 2);
          let v = f32x4.mul(v128.load(p00 + cb), w00);
          v = f32x4.add(v, f32x4.mul(v128.load(p10 + cb), w10));
          v = f32x4.add(v, f32x4.mul(v128.load(p01 + cb), w01));
          v = f32x4.add(v, f32x4.mul(v128.load(p11 + cb), w11));
          if (C - c >= 4) v128.store(o + cb, v);
          else storeLanes(o + cb, v, C - c);
        }
        o += <usize>(C << 2);
      }
    }
  }
}
