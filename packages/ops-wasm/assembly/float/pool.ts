// float32 MAX_POOL_2D, AVERAGE_POOL_2D (TFLite reference_ops pooling) and MEAN over height and width,
// channels along the lanes, eight at a time. Windows are clipped to the input: the maximum starts from
// the lowest float, the average divides the window's sum by the number of input pixels in it (padding
// is never counted), both then clamped to the fused activation's range.
import { clamp, store8 } from './common';
import { FP_ACT_MAX, FP_ACT_MIN, FP_BATCHES, FP_C, FP_FH, FP_FW, FP_IN_H, FP_IN_W, FP_OUT_H, FP_OUT_W, FP_PAD_H, FP_PAD_W, FP_SH, FP_SW } from '../generated/abi';

// Parameter blocks FP and FM (scripts/abi.mjs), written by src/kernels/float/pooling-common.ts and mean.ts.

@inline function pool(p: usize, input: usize, output: usize, isMax: bool): void {
  const batches = load<i32>(p, FP_BATCHES), inH = load<i32>(p, FP_IN_H), inW = load<i32>(p, FP_IN_W), C = load<i32>(p, FP_C);
  const outH = load<i32>(p, FP_OUT_H), outW = load<i32>(p, FP_OUT_W), fH = load<i32>(p, FP_FH), fW = load<i32>(p, FP_FW);
  const sH = load<i32>(p, FP_SH), sW = load<i32>(p, FP_SW), padH = load<i32>(p, FP_PAD_H), padW = load<i32>(p, FP_PAD_W);
  const lo = v128.load32_splat(p, FP_ACT_MIN);
  const hi = v128.load32_splat(p, FP_ACT_MAX);
  const pixel = <usize>(C << 2);
  const row = <usize>inW * pixel;
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>(b * inH) * row;
    for (let oy = 0; oy < outH; oy++) {
      const y0 = oy * sH - padH;
      const fy0 = max(0, -y0), fy1 = min(fH, inH - y0);
      for (let ox = 0; ox < outW; ox++) {
        const x0 = ox * sW - padW;
        const fx0 = max(0, -x0), fx1 = min(fW, inW - x0);
        const count = f32x4.splat(<f32>((fy1 - fy0) * (fx1 - fx0)));
        const start = image + <usize>(y0 + fy0) * row + <usize>(x0 + fx0) * pixel;
        for (let c = 0; c < C; c += 8) {
          const cb = <usize>(c << 2);
          let m0 = isMax ? f32x4.splat(-3.4028234663852886e38) : f32x4.splat(0);
          let m1 = m0;
          let r = start + cb;
          for (let fy = fy0; fy < fy1; fy++) {
            let src = r;
            for (let fx = fx0; fx < fx1; fx++) {
              if (isMax) {
                m0 = f32x4.pmax(m0, v128.load(src));
                m1 = f32x4.pmax(m1, v128.load(src, 16));
              } else {
                m0 = f32x4.add(m0, v128.load(src));
                m1 = f32x4.add(m1, v128.load(src, 16));
              }
              src += pixel;
            }
            r += row;
          }
          if (!isMax) {
            m0 = f32x4.div(m0, count);
            m1 = f32x4.div(m1, count);
          }
          store8(o + cb, clamp(m0, lo, hi), clamp(m1, lo, hi), C - c);
        }
        o += pixel;
      }
    }
  }
}

export function f32_maxpool(p: usize, input: usize, output: usize): void {
  pool(p, input, output, true);
}

export function f32_avgpool(p: usize, input: usize, output: usize): void {
  pool(p, input, output, false);
}
