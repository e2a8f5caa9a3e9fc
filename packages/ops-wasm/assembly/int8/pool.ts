// int8 AVERAGE_POOL_2D and MAX_POOL_2D (TFLM reference_integer_ops pooling), channels along the lanes.
// Windows are clipped to the input (padding is never averaged in); averages round half away from zero,
// (sum +- count/2) / count with C truncation, computed exactly as f64 division then truncation (the
// sums are below 2^31 and the counts below 2^21, so the rounded quotient never crosses an integer).
// TFLite's uint8 (Q_U8; reference_ops pooling): the same loops on zero-extended values, unsigned max and
// clamps; its sums are never negative, so the rounding is TFLite's (sum + count/2) / count.
import { storeBytes } from './requant';
import { Q_ACT_MAX, Q_ACT_MIN, Q_BATCHES, Q_C, Q_FH, Q_FW, Q_IN_H, Q_IN_W, Q_OUT_H, Q_OUT_W, Q_PAD_H, Q_PAD_W, Q_SH, Q_SW, Q_U8 } from '../generated/abi';

// Parameter block Q (scripts/abi.mjs), written by src/kernels/pooling-common.ts.

/** (acc +- half) / count, truncated, on four lanes. */
@inline function roundedDiv(acc: v128, half: v128, count: v128): v128 {
  const adj = i32x4.add(acc, v128.bitselect(half, i32x4.neg(half), i32x4.gt_s(acc, i32x4.splat(0))));
  const lo = i32x4.trunc_sat_f64x2_s_zero(f64x2.div(f64x2.convert_low_i32x4_s(adj), count));
  const hi = i32x4.trunc_sat_f64x2_s_zero(f64x2.div(f64x2.convert_low_i32x4_s(v128.shuffle<i32>(adj, adj, 2, 3, 0, 1)), count));
  return v128.shuffle<i32>(lo, hi, 0, 1, 4, 5);
}

export function qs8_avgpool(p: usize, input: usize, output: usize): void {
  if (load<i32>(p, Q_U8) != 0) avgPool(p, input, output, true);
  else avgPool(p, input, output, false);
}

/** qs8_avgpool with `u8` constant: uint8 values (zero-extended) and outputs. */
@inline function avgPool(p: usize, input: usize, output: usize, u8: bool): void {
  const batches = load<i32>(p, Q_BATCHES), inH = load<i32>(p, Q_IN_H), inW = load<i32>(p, Q_IN_W), C = load<i32>(p, Q_C);
  const outH = load<i32>(p, Q_OUT_H), outW = load<i32>(p, Q_OUT_W), fH = load<i32>(p, Q_FH), fW = load<i32>(p, Q_FW);
  const sH = load<i32>(p, Q_SH), sW = load<i32>(p, Q_SW), padH = load<i32>(p, Q_PAD_H), padW = load<i32>(p, Q_PAD_W);
  const lo = i8x16.splat(<i8>load<i32>(p, Q_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(p, Q_ACT_MAX));
  const row = <usize>(inW * C);
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>(b * inH) * row;
    for (let oy = 0; oy < outH; oy++) {
      const y0 = oy * sH - padH;
      const fy0 = max(0, -y0), fy1 = min(fH, inH - y0);
      for (let ox = 0; ox < outW; ox++) {
        const x0 = ox * sW - padW;
        const fx0 = max(0, -x0), fx1 = min(fW, inW - x0);
        const count = (fy1 - fy0) * (fx1 - fx0);
        const vcount = f64x2.splat(<f64>count);
        const vhalf = i32x4.splat(count >> 1);
        for (let c = 0; c < C; c += 8) {
          let a0 = i32x4.splat(0), a1 = i32x4.splat(0);
          for (let fy = fy0; fy < fy1; fy++) {
            let src = image + <usize>(y0 + fy) * row + <usize>((x0 + fx0) * C + c);
            for (let fx = fx0; fx < fx1; fx++) {
              const v = u8 ? v128.load8x8_u(src) : v128.load8x8_s(src);
              a0 = i32x4.add(a0, i32x4.extend_low_i16x8_s(v));
              a1 = i32x4.add(a1, i32x4.extend_high_i16x8_s(v));
              src += <usize>C;
            }
          }
          const n16 = i16x8.narrow_i32x4_s(roundedDiv(a0, vhalf, vcount), roundedDiv(a1, vhalf, vcount));
          const out = u8
            ? i8x16.min_u(i8x16.max_u(i8x16.narrow_i16x8_u(n16, n16), lo), hi)
            : i8x16.min_s(i8x16.max_s(i8x16.narrow_i16x8_s(n16, n16), lo), hi);
          const n = C - c;
          if (n >= 8) v128.store64_lane(o + <usize>c, out, 0);
          else storeBytes(o + <usize>c, out, n);
        }
        o += <usize>C;
      }
    }
  }
}

export function qs8_maxpool(p: usize, input: usize, output: usize): void {
  if (load<i32>(p, Q_U8) != 0) maxPool(p, input, output, true);
  else maxPool(p, input, output, false);
}

/** qs8_maxpool with `u8` constant: uint8 values, unsigned max and clamp. */
@inline function maxPool(p: usize, input: usize, output: usize, u8: bool): void {
  const batches = load<i32>(p, Q_BATCHES), inH = load<i32>(p, Q_IN_H), inW = load<i32>(p, Q_IN_W), C = load<i32>(p, Q_C);
  const outH = load<i32>(p, Q_OUT_H), outW = load<i32>(p, Q_OUT_W), fH = load<i32>(p, Q_FH), fW = load<i32>(p, Q_FW);
  const sH = load<i32>(p, Q_SH), sW = load<i32>(p, Q_SW), padH = load<i32>(p, Q_PAD_H), padW = load<i32>(p, Q_PAD_W);
  const lo = i8x16.splat(<i8>load<i32>(p, Q_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(p, Q_ACT_MAX));
  const row = <usize>(inW * C);
  let o = output;
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>(b * inH) * row;
    for (let oy = 0; oy < outH; oy++) {
      const y0 = oy * sH - padH;
      const fy0 = max(0, -y0), fy1 = min(fH, inH - y0);
      for (let ox = 0; ox < outW; ox++) {
        const x0 = ox * sW - padW;
        const fx0 = max(0, -x0), fx1 = min(fW, inW - x0);
        for (let c = 0; c < C; c += 16) {
          let m = i8x16.splat(u8 ? 0 : -128);
          for (let fy = fy0; fy < fy1; fy++) {
            let src = image + <usize>(y0 + fy) * row + <usize>((x0 + fx0) * C + c);
            for (let fx = fx0; fx < fx1; fx++) {
              m = u8 ? i8x16.max_u(m, v128.load(src)) : i8x16.max_s(m, v128.load(src));
              src += <usize>C;
            }
          }
          const out = u8 ? i8x16.min_u(i8x16.max_u(m, lo), hi) : i8x16.min_s(i8x16.max_s(m, lo), hi);
          const n = C - c;
          if (n >= 16) v128.store(o + <usize>c, out);
          else storeBytes(o + <usize>c, out, n);
        }
        o += <usize>C;
      }
    }
  }
}
