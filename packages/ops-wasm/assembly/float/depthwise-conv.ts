// float32 DEPTHWISE_CONV_2D (depth multiplier 1) in the style of XNNPACK's unipass f32 dwconv: channels
// along the lanes, eight at a time (a tail of at most four channels takes one vector). For each output
// pixel the input pixel of every tap is looked up once (taps in the padding read a row of zeros), then
// each group of eight channels starts from its biases and adds tap x weight over every tap, and clamps
// to the fused activation's range.
//
// Packed weights (src/kernels/float/weight-pack-f32.ts), per group of eight channels:
//   [8 biases][for each tap: 8 weights]   (zeros past the depth)
import { clamp, madd, store8, storeLanes } from './common';
import { D_ACT_MAX, D_ACT_MIN, D_BATCHES, D_C, D_DIL_H, D_DIL_W, D_IN_H, D_IN_W, D_KH, D_KW, D_OUT_H, D_OUT_W, D_PACKED, D_PAD_H, D_PAD_W, D_PTRS, D_STRIDE_H, D_STRIDE_W, D_ZERO } from '../generated/abi';

// Parameter block D (scripts/abi.mjs), written by src/kernels/float/depthwise-conv-2d.ts.

/** Output columns of a 3x3 row chunk. */
const DW_CHUNK = 16;

/** Writes the taps' pointers of the pixel whose window starts at (`ih0`, `iw0`) to `t` (the zero row for taps in the padding). */
@inline function tapPointers(image: usize, ih0: i32, iw0: i32, inH: i32, inW: i32, pixelBytes: usize, kH: i32, kW: i32, dH: i32, dW: i32, zero: usize, t: usize): void {
  const rowBytes = <usize>inW * pixelBytes;
  for (let kh = 0; kh < kH; kh++) {
    const ih = ih0 + kh * dH;
    const rowOk = ih >= 0 && ih < inH;
    const rowBase = image + <usize>ih * rowBytes;
    for (let kw = 0; kw < kW; kw++) {
      const iw = iw0 + kw * dW;
      store<u32>(t, <u32>(rowOk && iw >= 0 && iw < inW ? rowBase + <usize>iw * pixelBytes : zero));
      t += 4;
    }
  }
}

/** One output pixel, every channel, over the tap pointers at `ptrs`: eight channels per step. */
@inline function dwPixel(C: i32, packed: usize, ptrs: usize, ptrEnd: usize, out: usize, lo: v128, hi: v128): void {
  let w = packed;
  for (let c = 0; c < C; c += 8) {
    const cb = <usize>(c << 2);
    let acc0 = v128.load(w);
    let acc1 = v128.load(w, 16);
    w += 32;
    if (C - c > 4) {
      for (let p = ptrs; p < ptrEnd; p += 4) {
        const x = <usize>load<u32>(p) + cb;
        acc0 = madd(v128.load(x), v128.load(w), acc0);
        acc1 = madd(v128.load(x, 16), v128.load(w, 16), acc1);
        w += 32;
      }
    } else {
      for (let p = ptrs; p < ptrEnd; p += 4) {
        acc0 = madd(v128.load(<usize>load<u32>(p) + cb), v128.load(w), acc0);
        w += 32;
      }
    }
    store8(out + cb, clamp(acc0, lo, hi), clamp(acc1, lo, hi), C - c);
  }
}

/**
 * Two output pixels, every channel: pixel A's tap pointers at `ptrs`, pixel B's `tapBytes` further;
 * each weight vector loaded once serves both.
 */
@inline function dwPixel2(C: i32, packed: usize, ptrs: usize, ptrEnd: usize, tapBytes: usize, outA: usize, outB: usize, lo: v128, hi: v128): void {
  let w = packed;
  for (let c = 0; c < C; c += 8) {
    const cb = <usize>(c << 2);
    let a0 = v128.load(w);
    let a1 = v128.load(w, 16);
    let b0 = a0, b1 = a1;
    w += 32;
    for (let p = ptrs; p < ptrEnd; p += 4) {
      const xa = <usize>load<u32>(p) + cb;
      const xb = <usize>load<u32>(p + tapBytes) + cb;
      const w0 = v128.load(w), w1 = v128.load(w, 16);
      a0 = madd(v128.load(xa), w0, a0);
      a1 = madd(v128.load(xa, 16), w1, a1);
      b0 = madd(v128.load(xb), w0, b0);
      b1 = madd(v128.load(xb, 16), w1, b1);
      w += 32;
    }
    store8(outA + cb, clamp(a0, lo, hi), clamp(a1, lo, hi), C - c);
    store8(outB + cb, clamp(b0, lo, hi), clamp(b1, lo, hi), C - c);
  }
}

/**
 * 3x3 windows of an output row whose three input rows are all inside the input, over output columns
 * [ow0, ow1) whose windows are inside horizontally: four channels at a time with their nine weights and
 * bias held in registers across the row, the taps read straight from the three input rows.
 */
@inline function dwRow3x3(
  r0: usize, r1: usize, r2: usize, ow0: i32, ow1: i32, sW: i32, padW: i32, dW: i32, C: i32,
  packed: usize, groupBytes: usize, outRow: usize, lo: v128, hi: v128,
): void {
  const pixelBytes = <usize>(C << 2);
  const colStep = <usize>sW * pixelBytes;
  const tap = <usize>dW * pixelBytes;
  const first = <usize>(ow0 * sW - padW) * pixelBytes;
  for (let c = 0; c < C; c += 4) {
    const g = packed + <usize>(c >> 3) * groupBytes + <usize>((c & 4) << 2);
    const bias = v128.load(g);
    const w0 = v128.load(g, 32), w1 = v128.load(g, 64), w2 = v128.load(g, 96);
    const w3 = v128.load(g, 128), w4 = v128.load(g, 160), w5 = v128.load(g, 192);
    const w6 = v128.load(g, 224), w7 = v128.load(g, 256), w8 = v128.load(g, 288);
    const cb = <usize>(c << 2);
    let x = first + cb;
    let o = outRow + <usize>ow0 * pixelBytes + cb;
    const n = C - c;
    for (let ow = ow0; ow < ow1; ow++) {
      const a = r0 + x, b = r1 + x, d = r2 + x;
      let s0 = madd(v128.load(a), w0, bias);
      let s1 = f32x4.mul(v128.load(b), w3);
      let s2 = f32x4.mul(v128.load(d), w6);
      s0 = madd(v128.load(a + tap), w1, s0);
      s1 = madd(v128.load(b + tap), w4, s1);
      s2 = madd(v128.load(d + tap), w7, s2);
      s0 = madd(v128.load(a + 2 * tap), w2, s0);
      s1 = madd(v128.load(b + 2 * tap), w5, s1);
      s2 = madd(v128.load(d + 2 * tap), w8, s2);
      const v = clamp(f32x4.add(f32x4.add(s0, s1), s2), lo, hi);
      if (n >= 4) v128.store(o, v);
      else storeLanes(o, v, n);
      x += colStep;
      o += pixelBytes;
    }
  }
}

export function f32_dwconv(pp: usize, input: usize, output: usize): void {
  f32_dwconv_run(pp, input, output, 0, load<i32>(pp, D_BATCHES) * load<i32>(pp, D_OUT_H), 0);
}

/**
 * f32_dwconv over output rows [r0, r1) of all batches' rows (row b * outH + oh), with thread `tid`'s
 * tap pointers (D_PTRS holds two pixels' tap pointers per thread).
 */
export function f32_dwconv_run(pp: usize, input: usize, output: usize, r0: i32, r1: i32, tid: i32): void {
  const outH = load<i32>(pp, D_OUT_H);
  const outW = load<i32>(pp, D_OUT_W);
  const inH = load<i32>(pp, D_IN_H);
  const inW = load<i32>(pp, D_IN_W);
  const C = load<i32>(pp, D_C);
  const kH = load<i32>(pp, D_KH);
  const kW = load<i32>(pp, D_KW);
  const sH = load<i32>(pp, D_STRIDE_H);
  const sW = load<i32>(pp, D_STRIDE_W);
  const dH = load<i32>(pp, D_DIL_H);
  const dW = load<i32>(pp, D_DIL_W);
  const padH = load<i32>(pp, D_PAD_H);
  const padW = load<i32>(pp, D_PAD_W);
  const packed = <usize>load<u32>(pp, D_PACKED);
  const zero = <usize>load<u32>(pp, D_ZERO);
  const ptrs = <usize>load<u32>(pp, D_PTRS) + <usize>(tid * kH * kW * 8);
  const lo = v128.load32_splat(pp, D_ACT_MIN);
  const hi = v128.load32_splat(pp, D_ACT_MAX);
  const taps = kH * kW;
  const pixelBytes = <usize>(C << 2);
  const rowBytes = <usize>inW * pixelBytes;
  const outRowBytes = <usize>outW * pixelBytes;
  const tapBytes = <usize>(taps << 2);
  const ptrEnd = ptrs + tapBytes;
  const is3x3 = kH == 3 && kW == 3;
  const groupBytes = <usize>((taps + 1) << 5);
  // output columns whose windows are inside the input horizontally: [owLo, owHi)
  const owLo = min(outW, (padW + sW - 1) / sW);
  // (no column when the window is wider than what lies right of the leading padding: span < 0 — a SAME
  // window over a narrow input, or a PAD absorbed with trailing padding; i32 division truncates to 0)
  const span = inW - 1 - (kW - 1) * dW + padW;
  const owHi = max(owLo, min(outW, span < 0 ? 0 : span / sW + 1));
  for (let row = r0; row < r1; row++) {
    const b = row / outH;
    const oh = row - b * outH;
    const image = input + <usize>(b * inH) * rowBytes;
    {
      const ih0 = oh * sH - padH;
      const outRow = output + <usize>(b * outH + oh) * outRowBytes;
      let ow = 0;
      let end = outW;
      if (is3x3 && ih0 >= 0 && ih0 + 2 * dH < inH && owLo < owHi) {
        const r0 = image + <usize>ih0 * rowBytes;
        // columns in chunks, so the chunk's input pixels stay in L1 across the channel groups
        for (let o0 = owLo; o0 < owHi; o0 += DW_CHUNK)
          dwRow3x3(r0, r0 + <usize>dH * rowBytes, r0 + <usize>(2 * dH) * rowBytes, o0, min(owHi, o0 + DW_CHUNK), sW, padW, dW, C, packed, groupBytes, outRow, lo, hi);
        // the edges remain: [0, owLo) and [owHi, outW)
        end = owLo;
      }
      while (true) {
        for (; ow + 1 < end; ow += 2) {
          tapPointers(image, ih0, ow * sW - padW, inH, inW, pixelBytes, kH, kW, dH, dW, zero, ptrs);
          tapPointers(image, ih0, (ow + 1) * sW - padW, inH, inW, pixelBytes, kH, kW, dH, dW, zero, ptrEnd);
          dwPixel2(C, packed, ptrs, ptrEnd, tapBytes, outRow + <usize>ow * pixelBytes, outRow + <usize>(ow + 1) * pixelBytes, lo, hi);
        }
        if (ow < end) {
          tapPointers(image, ih0, ow * sW - padW, inH, inW, pixelBytes, kH, kW, dH, dW, zero, ptrs);
          dwPixel(C, packed, ptrs, ptrEnd, outRow + <usize>ow * pixelBytes, lo, hi);
          ow++;
        }
        if (end == outW) break;
        ow = owHi;
        end = outW;
      }
    }
  }
}
