// int8 (and TFLite's uint8) TRANSPOSE_CONV, TFLM's reference kernel in SIMD: every input pixel's
// (input - zp) products with the filter taps that land inside the output are added to an int32
// accumulator buffer of the whole output (int32 wrap, as TFLM's; the sums are exact, so their order does
// not matter), then each output takes its channel's bias, TFLM's MultiplyByQuantizedMultiplier
// (requant.ts), the output zero point and the clamp.
//
// A call (qs8_tconv_run) covers the output rows [oh0, oh1) of every batch: it clears their accumulators,
// adds the products of the input rows whose window reaches them (only the taps landing inside the band),
// then requantizes them (hybrid layers, TQ_RAW: leaves them as they are, for assembly/hybrid/epilogue.ts).
// The pool's threads take disjoint bands (src/kernels/transpose-conv.ts), so no
// accumulator is written by two threads, and each one takes the same products in the same order (input
// row, input column, tap) as on one thread: the outputs are the same bytes however the rows are split.
//
// Products: (x - zp) and (w - filter zp) both fit int16 ([-255, 255]), so one i16x8 splat of the input
// value against eight packed int16 weights gives eight exact int32 products (extmul); eight output
// channels per block, reduced over the input depth in registers, then added to the accumulators.
import { threadSlot } from '../thread-slot';
import { bandEndInputRow, bandFirstInputRow } from '../layout/tconv-rows';
import { narrowClamp8, narrowClampU8, requantLanes, storeBytes } from './requant';
import {
  RQ_BYTES,
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
  TQ_RAW,
  TQ_RQ,
  TQ_STRIDE_H,
  TQ_STRIDE_W,
  TQ_TMP,
  TQ_U8,
  TQ_ZP_IN,
  TQ_ZP_OUT,
} from '../generated/abi';

/** Adds the eight sums (a0, a1) to the `n` (1-8) accumulators at `dst` (`tmp`: 32 bytes for a partial block). */
@inline function addBlock(dst: usize, a0: v128, a1: v128, n: i32, tmp: usize): void {
  if (n >= 8) {
    v128.store(dst, i32x4.add(v128.load(dst), a0));
    v128.store(dst, i32x4.add(v128.load(dst, 16), a1), 16);
    return;
  }
  v128.store(tmp, a0);
  v128.store(tmp, a1, 16);
  for (let j = 0; j < n; j++) store<i32>(dst + (<usize>j << 2), load<i32>(dst + (<usize>j << 2)) + load<i32>(tmp + (<usize>j << 2)));
}

/** Adds input pixel `x`'s products with the taps of rows [kh0, kh1) that fall inside the output to the accumulators (`tmp`: 32 bytes). */
function scatterPixel(pp: usize, x: usize, image: usize, oy: i32, ox: i32, kh0: i32, kh1: i32, tmp: usize): void {
  const inC = load<i32>(pp, TQ_IN_C);
  const outW = load<i32>(pp, TQ_OUT_W);
  const outC = load<i32>(pp, TQ_OUT_C);
  const kH = load<i32>(pp, TQ_KH);
  const kW = load<i32>(pp, TQ_KW);
  const blocks = load<i32>(pp, TQ_BLOCKS);
  const packed = <usize>load<u32>(pp, TQ_PACKED);
  const zp = load<i32>(pp, TQ_ZP_IN);
  const u8 = load<i32>(pp, TQ_U8);
  const kw0 = max(0, -ox);
  const kw1 = min(kW, outW - ox);
  const tapBytes = <usize>(blocks * inC) << 4;
  for (let kh = kh0; kh < kh1; kh++) {
    for (let kw = kw0; kw < kw1; kw++) {
      let w = packed + <usize>(kh * kW + kw) * tapBytes;
      const dst = image + (<usize>(((oy + kh) * outW + ox + kw) * outC) << 2);
      for (let n = 0; n < blocks; n++) {
        let a0 = i32x4.splat(0);
        let a1 = a0;
        for (let c = 0; c < inC; c++) {
          const v = u8 ? <i32>load<u8>(x + <usize>c) : <i32>load<i8>(x + <usize>c);
          const xv = i16x8.splat(<i16>(v - zp));
          const wv = v128.load(w);
          a0 = i32x4.add(a0, i32x4.extmul_low_i16x8_s(xv, wv));
          a1 = i32x4.add(a1, i32x4.extmul_high_i16x8_s(xv, wv));
          w += 16;
        }
        addBlock(dst + (<usize>(n << 3) << 2), a0, a1, min(8, outC - (n << 3)), tmp);
      }
    }
  }
}

/** TRANSPOSE_CONV (the TQ parameter block at `pp`) over the output rows [oh0, oh1) of every batch, with thread `tid`'s Tmp. */
export function qs8_tconv_run(pp: usize, input: usize, output: usize, oh0: i32, oh1: i32, tid: i32): void {
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
  const zpOut = i32x4.splat(load<i32>(pp, TQ_ZP_OUT));
  const u8 = load<i32>(pp, TQ_U8);
  const actMin = load<i32>(pp, TQ_ACT_MIN);
  const actMax = load<i32>(pp, TQ_ACT_MAX);
  const raw = load<i32>(pp, TQ_RAW) != 0;
  // the bounds' bytes (uint8 bounds compare unsigned)
  const lo = i8x16.splat(<i8>actMin);
  const hi = i8x16.splat(<i8>actMax);
  const rowAcc = <usize>(outW * outC) << 2;
  const inRow = <usize>(inW * inC);
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
        scatterPixel(pp, x, image, oy, iw * sW - padW, kh0, kh1, tmp);
        x += <usize>inC;
      }
    }
    if (raw) continue; // hybrid: hybrid_epilogue scales the accumulators (Acc is the output tensor)
    let a = image + <usize>oh0 * rowAcc;
    let out = output + <usize>((b * outH + oh0) * outW * outC);
    const pixels = (oh1 - oh0) * outW;
    for (let q = 0; q < pixels; q++) {
      for (let c = 0; c < outC; c += 8) {
        const r = rq + <usize>(c >> 2) * RQ_BYTES;
        const bc = bias + (<usize>c << 2);
        const q0 = i32x4.add(requantLanes(i32x4.add(v128.load(a), v128.load(bc)), r), zpOut);
        const q1 = i32x4.add(requantLanes(i32x4.add(v128.load(a, 16), v128.load(bc, 16)), r + RQ_BYTES), zpOut);
        const v = u8 ? narrowClampU8(q0, q1, lo, hi) : narrowClamp8(q0, q1, lo, hi);
        const n = min(8, outC - c);
        if (n == 8) v128.store64_lane(out, v, 0);
        else storeBytes(out, v, n);
        a += <usize>(n << 2);
        out += <usize>n;
      }
    }
  }
}
