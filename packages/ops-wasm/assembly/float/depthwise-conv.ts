// float32 DEPTHWISE_CONV_2D (depth multiplier 1) in the style of XNNPACK's unipass f32 dwconv: channels
// along the lanes, eight at a time (a tail of at most four channels takes one vector). For each output
// pixel the input pixel of every tap is looked up once (taps in the padding read a row of zeros), then
// each group of eight channels starts from its biases and adds tap x weight over every tap, and clamps
// to the fused activation's range.
//
// Packed weights (src/kernels/float/weight-pack-f32.ts), per group of eight channels:
//   [8 biases][for each tap: 8 weights]   (zeros past the depth)
import { threadSlot } from '../thread-slot';
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

// ---- Sliding rows (dilation 1 across; 3x3 windows with strides 1 and 2 across, 5x5 with stride 1) ----
//
// An output row is computed four channels at a time over a chunk of its columns, as a stream of input
// columns: each column's kernel-height pixels are loaded once and added, as one dot product per window
// column, into every output whose window covers it (the outputs still open are carried in registers),
// so an output pixel costs kW / strideW column loads instead of kH * kW. Each window column's dot product
// is summed first and then added to the output's accumulator (bias, then the window columns left to
// right), in the same order wherever a chunk starts or ends. 3x3: kernel rows outside the input read the
// zero row with a column step of 0 (q0..q2: a kernel row's column 0 for one channel group, or the zero
// row; s0..s2: its bytes per column, 0 for the zero row), and columns outside it read the zero row too
// (the "checked" steps at the edges). 5x5: kernel rows outside the input are skipped, and so are columns.

/** d = ((v0 w0 + v1 w1) + v2 w2) for one window column of a 3-row window. */
@inline function dot3(v0: v128, v1: v128, v2: v128, w0: v128, w1: v128, w2: v128): v128 {
  return madd(v2, w2, madd(v1, w1, f32x4.mul(v0, w0)));
}

/** The same for five rows, the weights of window column `kw` read from the packed group `g`. */
@inline function dot5(v0: v128, v1: v128, v2: v128, v3: v128, v4: v128, g: usize, kw: i32): v128 {
  // tap t = kh * 5 + kw sits at g + 32 * (t + 1)
  let d = f32x4.mul(v0, v128.load(g + <usize>(32 * (kw + 1))));
  d = madd(v1, v128.load(g + <usize>(32 * (kw + 6))), d);
  d = madd(v2, v128.load(g + <usize>(32 * (kw + 11))), d);
  d = madd(v3, v128.load(g + <usize>(32 * (kw + 16))), d);
  return madd(v4, v128.load(g + <usize>(32 * (kw + 21))), d);
}

/** Address of input column `j` in the kernel row at `q` with column step `st`, or `zc` outside [0, inW). */
@inline function colAt(q: usize, st: usize, j: i32, inW: i32, zc: usize): usize {
  return select<usize>(q + <usize>j * st, zc, <u32>j < <u32>inW);
}

/**
 * Output columns of a sliding-row chunk, so that the chunk's input pixels (kH rows of chunk * sW + kW
 * columns) stay in L1 (32 KB, 8-way, 64 sets of 64-byte lines) from one channel group to the next: at
 * most 16 KB of them, where a pixel stride that is a multiple of 64 bytes counts one line per pixel (the
 * line of the current groups) but reaches only some sets (3/4 of what those sets hold); at least 8.
 */
function slideChunk(pixelBytes: usize, kH: i32, kW: i32, sW: i32): i32 {
  let budget = 16384;
  let colBytes = kH * <i32>pixelBytes;
  if ((pixelBytes & 63) == 0) {
    colBytes = kH * 64;
    let lines = <i32>(pixelBytes >> 6);
    let sets = 64;
    while (sets > 1 && (lines & 1) == 0) {
      lines >>= 1;
      sets >>= 1;
    }
    budget = min(budget, sets * 8 * 48);
  }
  return max(8, (budget / colBytes - kW) / sW);
}

/** Column 0 of input row `ih` of `image`, or the zero row outside [0, inH). */
@inline function rowAt(image: usize, ih: i32, inH: i32, rowBytes: usize, zero: usize): usize {
  return select<usize>(image + <usize>ih * rowBytes, zero, <u32>ih < <u32>inH);
}

/** Bytes per column of input row `ih`: a pixel, or 0 outside [0, inH) (the zero row stays put). */
@inline function stepAt(ih: i32, inH: i32, pixelBytes: usize): usize {
  return select<usize>(pixelBytes, 0, <u32>ih < <u32>inH);
}

/** Stores the clamped output `v` of `n` channels (4 or fewer) at `o`. */
@inline function put(o: usize, v: v128, n: i32, lo: v128, hi: v128): void {
  const r = clamp(v, lo, hi);
  if (n >= 4) v128.store(o, r);
  else storeLanes(o, r, n);
}

/** 3x3, stride 1 across: outputs [o0, o1) of one row, four channels (`n` of them stored). */
@inline function dwSlide3s1(
  q0: usize, q1: usize, q2: usize, s0: usize, s1: usize, s2: usize, o0: i32, o1: i32, padW: i32, inW: i32,
  zc: usize, g: usize, out: usize, pixelBytes: usize, n: i32, lo: v128, hi: v128,
): void {
  const bias = v128.load(g);
  const w0 = v128.load(g, 32), w1 = v128.load(g, 64), w2 = v128.load(g, 96);
  const w3 = v128.load(g, 128), w4 = v128.load(g, 160), w5 = v128.load(g, 192);
  const w6 = v128.load(g, 224), w7 = v128.load(g, 256), w8 = v128.load(g, 288);
  // a: output o's window columns 0-1, b: output o + 1's column 0
  let j = o0 - padW;
  let x0 = v128.load(colAt(q0, s0, j, inW, zc)), x1 = v128.load(colAt(q1, s1, j, inW, zc)), x2 = v128.load(colAt(q2, s2, j, inW, zc));
  let a = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
  j++;
  x0 = v128.load(colAt(q0, s0, j, inW, zc));
  x1 = v128.load(colAt(q1, s1, j, inW, zc));
  x2 = v128.load(colAt(q2, s2, j, inW, zc));
  a = f32x4.add(a, dot3(x0, x1, x2, w1, w4, w7));
  let b = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
  // output o takes column o - padW + 2: checked before fast0 and from fast1 on, where it may lie outside
  const fast0 = min(o1, max(o0, padW - 2));
  const fast1 = max(fast0, min(o1, inW + padW - 2));
  let o = o0;
  let oc = out + <usize>o0 * pixelBytes;
  for (; o < fast0; o++) {
    j = o - padW + 2;
    x0 = v128.load(colAt(q0, s0, j, inW, zc));
    x1 = v128.load(colAt(q1, s1, j, inW, zc));
    x2 = v128.load(colAt(q2, s2, j, inW, zc));
    put(oc, f32x4.add(a, dot3(x0, x1, x2, w2, w5, w8)), n, lo, hi);
    a = f32x4.add(b, dot3(x0, x1, x2, w1, w4, w7));
    b = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
    oc += pixelBytes;
  }
  j = o - padW + 2;
  let p0 = q0 + <usize>j * s0, p1 = q1 + <usize>j * s1, p2 = q2 + <usize>j * s2;
  for (; o < fast1; o++) {
    x0 = v128.load(p0);
    x1 = v128.load(p1);
    x2 = v128.load(p2);
    put(oc, f32x4.add(a, dot3(x0, x1, x2, w2, w5, w8)), n, lo, hi);
    a = f32x4.add(b, dot3(x0, x1, x2, w1, w4, w7));
    b = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
    p0 += s0;
    p1 += s1;
    p2 += s2;
    oc += pixelBytes;
  }
  for (; o < o1; o++) {
    j = o - padW + 2;
    x0 = v128.load(colAt(q0, s0, j, inW, zc));
    x1 = v128.load(colAt(q1, s1, j, inW, zc));
    x2 = v128.load(colAt(q2, s2, j, inW, zc));
    put(oc, f32x4.add(a, dot3(x0, x1, x2, w2, w5, w8)), n, lo, hi);
    a = f32x4.add(b, dot3(x0, x1, x2, w1, w4, w7));
    b = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
    oc += pixelBytes;
  }
}

/** 3x3, stride 2 across: outputs [o0, o1) of one row, four channels (`n` of them stored). */
@inline function dwSlide3s2(
  q0: usize, q1: usize, q2: usize, s0: usize, s1: usize, s2: usize, o0: i32, o1: i32, padW: i32, inW: i32,
  zc: usize, g: usize, out: usize, pixelBytes: usize, n: i32, lo: v128, hi: v128,
): void {
  const bias = v128.load(g);
  const w0 = v128.load(g, 32), w1 = v128.load(g, 64), w2 = v128.load(g, 96);
  const w3 = v128.load(g, 128), w4 = v128.load(g, 160), w5 = v128.load(g, 192);
  const w6 = v128.load(g, 224), w7 = v128.load(g, 256), w8 = v128.load(g, 288);
  // a: output o's window column 0
  let j = 2 * o0 - padW;
  let x0 = v128.load(colAt(q0, s0, j, inW, zc)), x1 = v128.load(colAt(q1, s1, j, inW, zc)), x2 = v128.load(colAt(q2, s2, j, inW, zc));
  let a = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
  // output o takes columns 2o - padW + 1 and + 2: checked before fast0 and from fast1 on
  const fast0 = min(o1, max(o0, padW / 2));
  const fast1 = max(fast0, min(o1, (inW + padW - 1) / 2));
  let o = o0;
  let oc = out + <usize>o0 * pixelBytes;
  for (; o < fast0; o++) {
    j = 2 * o - padW + 1;
    x0 = v128.load(colAt(q0, s0, j, inW, zc));
    x1 = v128.load(colAt(q1, s1, j, inW, zc));
    x2 = v128.load(colAt(q2, s2, j, inW, zc));
    a = f32x4.add(a, dot3(x0, x1, x2, w1, w4, w7));
    j++;
    x0 = v128.load(colAt(q0, s0, j, inW, zc));
    x1 = v128.load(colAt(q1, s1, j, inW, zc));
    x2 = v128.load(colAt(q2, s2, j, inW, zc));
    put(oc, f32x4.add(a, dot3(x0, x1, x2, w2, w5, w8)), n, lo, hi);
    a = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
    oc += pixelBytes;
  }
  j = 2 * o - padW + 1;
  let p0 = q0 + <usize>j * s0, p1 = q1 + <usize>j * s1, p2 = q2 + <usize>j * s2;
  for (; o < fast1; o++) {
    x0 = v128.load(p0);
    x1 = v128.load(p1);
    x2 = v128.load(p2);
    a = f32x4.add(a, dot3(x0, x1, x2, w1, w4, w7));
    p0 += s0;
    p1 += s1;
    p2 += s2;
    x0 = v128.load(p0);
    x1 = v128.load(p1);
    x2 = v128.load(p2);
    put(oc, f32x4.add(a, dot3(x0, x1, x2, w2, w5, w8)), n, lo, hi);
    a = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
    p0 += s0;
    p1 += s1;
    p2 += s2;
    oc += pixelBytes;
  }
  for (; o < o1; o++) {
    j = 2 * o - padW + 1;
    x0 = v128.load(colAt(q0, s0, j, inW, zc));
    x1 = v128.load(colAt(q1, s1, j, inW, zc));
    x2 = v128.load(colAt(q2, s2, j, inW, zc));
    a = f32x4.add(a, dot3(x0, x1, x2, w1, w4, w7));
    j++;
    x0 = v128.load(colAt(q0, s0, j, inW, zc));
    x1 = v128.load(colAt(q1, s1, j, inW, zc));
    x2 = v128.load(colAt(q2, s2, j, inW, zc));
    put(oc, f32x4.add(a, dot3(x0, x1, x2, w2, w5, w8)), n, lo, hi);
    a = f32x4.add(bias, dot3(x0, x1, x2, w0, w3, w6));
    oc += pixelBytes;
  }
}

/**
 * 5x5, stride 1 across: outputs [o0, o1) of one row, four channels. The window's kernel rows inside the
 * input are `rows` rows from `x0` (column 0, this channel group), `rs` bytes apart, their weights from `gw`
 * (the packed group's first such row); the weights are read as used, one kernel row per loop turn (the
 * five partial dot products of a column stay in registers). The four steps before o0 only start the
 * accumulators of o0 .. o0 + 3.
 */
@inline function dwSlide5s1(
  x0: usize, rs: usize, rows: i32, gw: usize, o0: i32, o1: i32, padW: i32, inW: i32, bias: v128, out: usize,
  pixelBytes: usize, n: i32, lo: v128, hi: v128,
): void {
  // a, b, c, d: outputs o .. o + 3, holding their window columns 0-3, 0-2, 0-1 and 0
  let a = bias, b = bias, c = bias, d = bias;
  const zero = f32x4.splat(0);
  // output o takes column o - padW + 4
  let x = x0 + <usize>(o0 - padW) * pixelBytes;
  let oc = out + <usize>o0 * pixelBytes;
  for (let o = o0 - 4; o < o1; o++) {
    const j = o - padW + 4;
    let p4 = zero, p3 = zero, p2 = zero, p1 = zero, p0 = zero;
    if (<u32>j < <u32>inW) {
      let xr = x, w = gw;
      for (let r = 0; r < rows; r++) {
        const v = v128.load(xr);
        p4 = madd(v, v128.load(w, 160), p4);
        p3 = madd(v, v128.load(w, 128), p3);
        p2 = madd(v, v128.load(w, 96), p2);
        p1 = madd(v, v128.load(w, 64), p1);
        p0 = madd(v, v128.load(w, 32), p0);
        xr += rs;
        w += 160;
      }
    }
    if (o >= o0) {
      put(oc, f32x4.add(a, p4), n, lo, hi);
      oc += pixelBytes;
    }
    a = f32x4.add(b, p3);
    b = f32x4.add(c, p2);
    c = f32x4.add(d, p1);
    d = f32x4.add(bias, p0);
    x += pixelBytes;
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
  const ptrs = threadSlot(<usize>load<u32>(pp, D_PTRS), tid, <usize>(kH * kW * 8));
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
  // (a 5x5 stride-2 sliding row, two columns per step, measured 4 % slower than the tap pointers)
  const slide = dW == 1 && kH == kW && ((kW == 3 && (sW == 1 || sW == 2)) || (kW == 5 && sW == 1));
  const chunk = slide ? slideChunk(pixelBytes, kH, kW, sW) : 0;
  for (let row = r0; row < r1; row++) {
    const b = row / outH;
    const oh = row - b * outH;
    const image = input + <usize>(b * inH) * rowBytes;
    if (slide) {
      const ih0 = oh * sH - padH;
      const outRow = output + <usize>(b * outH + oh) * outRowBytes;
      // each kernel row's column 0 (the zero row outside the input) and column step (0 there)
      if (kW == 3) {
        // each kernel row's column 0 (the zero row outside the input) and column step (0 there)
        const q0 = rowAt(image, ih0, inH, rowBytes, zero), t0 = stepAt(ih0, inH, pixelBytes);
        const q1 = rowAt(image, ih0 + dH, inH, rowBytes, zero), t1 = stepAt(ih0 + dH, inH, pixelBytes);
        const q2 = rowAt(image, ih0 + 2 * dH, inH, rowBytes, zero), t2 = stepAt(ih0 + 2 * dH, inH, pixelBytes);
        for (let o0 = 0; o0 < outW; o0 += chunk) {
          const o1 = min(outW, o0 + chunk);
          for (let c = 0; c < C; c += 4) {
            const cb = <usize>(c << 2);
            const g = packed + <usize>(c >> 3) * groupBytes + <usize>((c & 4) << 2);
            const zc = zero + cb, oRow = outRow + cb, n = C - c;
            // (a whole group of four stores without the lane tests)
            if (sW == 1) {
              if (n >= 4) dwSlide3s1(q0 + cb, q1 + cb, q2 + cb, t0, t1, t2, o0, o1, padW, inW, zc, g, oRow, pixelBytes, 4, lo, hi);
              else dwSlide3s1(q0 + cb, q1 + cb, q2 + cb, t0, t1, t2, o0, o1, padW, inW, zc, g, oRow, pixelBytes, n, lo, hi);
            } else if (n >= 4) dwSlide3s2(q0 + cb, q1 + cb, q2 + cb, t0, t1, t2, o0, o1, padW, inW, zc, g, oRow, pixelBytes, 4, lo, hi);
            else dwSlide3s2(q0 + cb, q1 + cb, q2 + cb, t0, t1, t2, o0, o1, padW, inW, zc, g, oRow, pixelBytes, n, lo, hi);
          }
        }
      } else {
        // the kernel rows inside the input: [khLo, khHi)
        let khLo = 0;
        while (khLo < 5 && ih0 + khLo * dH < 0) khLo++;
        let khHi = khLo;
        while (khHi < 5 && ih0 + khHi * dH < inH) khHi++;
        const rows = khHi - khLo;
        const x0 = image + <usize>max(0, ih0 + khLo * dH) * rowBytes;
        const rs = <usize>dH * rowBytes;
        for (let o0 = 0; o0 < outW; o0 += chunk) {
          const o1 = min(outW, o0 + chunk);
          for (let c = 0; c < C; c += 4) {
            const cb = <usize>(c << 2);
            const g = packed + <usize>(c >> 3) * groupBytes + <usize>((c & 4) << 2);
            const gw = g + <usize>(khLo * 160);
            const bias = v128.load(g);
            const oRow = outRow + cb, n = C - c;
            if (n >= 4) dwSlide5s1(x0 + cb, rs, rows, gw, o0, o1, padW, inW, bias, oRow, pixelBytes, 4, lo, hi);
            else dwSlide5s1(x0 + cb, rs, rows, gw, o0, o1, padW, inW, bias, oRow, pixelBytes, n, lo, hi);
          }
        }
      }
      continue;
    }
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
