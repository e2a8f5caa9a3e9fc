// TRANSPOSE_CONV 16x8 (int16 activations with zero point 0, int8 weights, int64 bias), TFLM's reference
// kernel: int64 accumulators of input × filter over the whole output, then per output the bias and
// TFLM's int64 MultiplyByQuantizedMultiplier (the multiplier reduced to 16 bits, one rounding shift:
// acc16x8.ts's requant64), clamped to the output's range. Products of int16 and int8 lanes (extmul,
// exact) are summed in int32 over at most CHUNK16 = 256 input channels (|sum| <= 2^30, see acc16x8.ts),
// then widened to int64. A call (qs16_tconv_run) covers
// the output rows [oh0, oh1) of every batch, as qs8_tconv_run (transpose-conv.ts): the pool's threads
// take disjoint bands and every output gets the same bytes as on one thread.
import { threadSlot } from '../thread-slot';
import { bandEndInputRow, bandFirstInputRow } from '../layout/tconv-rows';
import { CHUNK16, requant64 } from './acc16x8';
import {
  TQ_ACC,
  TQ_ACT_MAX,
  TQ_ACT_MIN,
  TQ_BATCHES,
  TQ_BIAS,
  TQ_BLOCKS,
  TQ_IN_C,
  TQ_IN_H,
  TQ_IN_W,
  TQ_KH,
  TQ_KW,
  TQ_OUT_C,
  TQ_OUT_H,
  TQ_OUT_W,
  TQ_PACKED,
  TQ_PAD_H,
  TQ_PAD_W,
  TQ_RQ,
  TQ_STRIDE_H,
  TQ_STRIDE_W,
  TQ_TMP,
} from '../generated/abi';

/** Adds the int64 lanes (s0..s3: channels 0-7) to the `n` (1-8) accumulators at `dst` (`tmp`: 64 bytes). */
@inline function addBlock64(dst: usize, s0: v128, s1: v128, s2: v128, s3: v128, n: i32, tmp: usize): void {
  if (n >= 8) {
    v128.store(dst, i64x2.add(v128.load(dst), s0));
    v128.store(dst, i64x2.add(v128.load(dst, 16), s1), 16);
    v128.store(dst, i64x2.add(v128.load(dst, 32), s2), 32);
    v128.store(dst, i64x2.add(v128.load(dst, 48), s3), 48);
    return;
  }
  v128.store(tmp, s0);
  v128.store(tmp, s1, 16);
  v128.store(tmp, s2, 32);
  v128.store(tmp, s3, 48);
  for (let j = 0; j < n; j++) store<i64>(dst + (<usize>j << 3), load<i64>(dst + (<usize>j << 3)) + load<i64>(tmp + (<usize>j << 3)));
}

/** Adds input pixel `x`'s products with the taps of rows [kh0, kh1) that fall inside the output to the int64 accumulators (`tmp`: 64 bytes). */
function scatterPixel16(pp: usize, x: usize, image: usize, oy: i32, ox: i32, kh0: i32, kh1: i32, tmp: usize): void {
  const inC = load<i32>(pp, TQ_IN_C);
  const outW = load<i32>(pp, TQ_OUT_W);
  const outC = load<i32>(pp, TQ_OUT_C);
  const kH = load<i32>(pp, TQ_KH);
  const kW = load<i32>(pp, TQ_KW);
  const blocks = load<i32>(pp, TQ_BLOCKS);
  const packed = <usize>load<u32>(pp, TQ_PACKED);
  const kw0 = max(0, -ox);
  const kw1 = min(kW, outW - ox);
  const tapBytes = <usize>(blocks * inC) << 4;
  for (let kh = kh0; kh < kh1; kh++) {
    for (let kw = kw0; kw < kw1; kw++) {
      let w = packed + <usize>(kh * kW + kw) * tapBytes;
      const dst = image + (<usize>(((oy + kh) * outW + ox + kw) * outC) << 3);
      for (let n = 0; n < blocks; n++) {
        let s0 = i64x2.splat(0);
        let s1 = s0, s2 = s0, s3 = s0;
        for (let c0 = 0; c0 < inC; c0 += CHUNK16) {
          const c1 = min(inC, c0 + CHUNK16);
          let a0 = i32x4.splat(0);
          let a1 = a0;
          for (let c = c0; c < c1; c++) {
            const xv = i16x8.splat(load<i16>(x + (<usize>c << 1)));
            const wv = v128.load(w);
            a0 = i32x4.add(a0, i32x4.extmul_low_i16x8_s(xv, wv));
            a1 = i32x4.add(a1, i32x4.extmul_high_i16x8_s(xv, wv));
            w += 16;
          }
          s0 = i64x2.add(s0, i64x2.extend_low_i32x4_s(a0));
          s1 = i64x2.add(s1, i64x2.extend_high_i32x4_s(a0));
          s2 = i64x2.add(s2, i64x2.extend_low_i32x4_s(a1));
          s3 = i64x2.add(s3, i64x2.extend_high_i32x4_s(a1));
        }
        addBlock64(dst + (<usize>(n << 3) << 3), s0, s1, s2, s3, min(8, outC - (n << 3)), tmp);
      }
    }
  }
}

/**
 * TRANSPOSE_CONV 16x8 with the TQ parameter block at `pp` (Rq: per channel the reduced multiplier and the
 * total shift, two int32) over the output rows [oh0, oh1) of every batch, with thread `tid`'s Tmp.
 */
export function qs16_tconv_run(pp: usize, input: usize, output: usize, oh0: i32, oh1: i32, tid: i32): void {
  const batches = load<i32>(pp, TQ_BATCHES);
  const inH = load<i32>(pp, TQ_IN_H);
  const inW = load<i32>(pp, TQ_IN_W);
  const inC = load<i32>(pp, TQ_IN_C);
  const outH = load<i32>(pp, TQ_OUT_H);
  const outW = load<i32>(pp, TQ_OUT_W);
  const outC = load<i32>(pp, TQ_OUT_C);
  const kH = load<i32>(pp, TQ_KH);
  const sH = load<i32>(pp, TQ_STRIDE_H);
  const sW = load<i32>(pp, TQ_STRIDE_W);
  const padH = load<i32>(pp, TQ_PAD_H);
  const padW = load<i32>(pp, TQ_PAD_W);
  const acc = <usize>load<u32>(pp, TQ_ACC);
  const tmp = threadSlot(<usize>load<u32>(pp, TQ_TMP), tid, 64);
  const bias = <usize>load<u32>(pp, TQ_BIAS);
  const rq = <usize>load<u32>(pp, TQ_RQ);
  const actMin = load<i32>(pp, TQ_ACT_MIN);
  const actMax = load<i32>(pp, TQ_ACT_MAX);
  const rowAcc = <usize>(outW * outC) << 3;
  const inRow = <usize>(inW * inC) << 1;
  // input rows whose window reaches [oh0, oh1)
  const ih0 = bandFirstInputRow(oh0, padH, kH, sH);
  const ih1 = bandEndInputRow(oh1, padH, sH, inH);
  for (let b = 0; b < batches; b++) {
    const image = acc + <usize>(b * outH) * rowAcc;
    memory.fill(image + <usize>oh0 * rowAcc, 0, <usize>(oh1 - oh0) * rowAcc);
    for (let ih = ih0; ih < ih1; ih++) {
      const oy = ih * sH - padH;
      const kh0 = max(0, oh0 - oy);
      const kh1 = min(kH, oh1 - oy);
      let x = input + <usize>(b * inH + ih) * inRow;
      for (let iw = 0; iw < inW; iw++) {
        scatterPixel16(pp, x, image, oy, iw * sW - padW, kh0, kh1, tmp);
        x += <usize>(inC << 1);
      }
    }
    let a = image + <usize>oh0 * rowAcc;
    let out = output + (<usize>((b * outH + oh0) * outW * outC) << 1);
    const pixels = (oh1 - oh0) * outW;
    for (let q = 0; q < pixels; q++) {
      for (let c = 0; c < outC; c++) {
        const reduced = <i64>load<i32>(rq + (<usize>c << 3));
        const shift = <i64>load<i32>(rq + (<usize>c << 3), 4);
        const v = load<i64>(a) + load<i64>(bias + (<usize>c << 3));
        const scaled = requant64(v, reduced, shift);
        store<i16>(out, <i16>min(max(scaled, actMin), actMax));
        a += 8;
        out += 2;
      }
    }
  }
}
