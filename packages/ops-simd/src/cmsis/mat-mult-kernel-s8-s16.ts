/**
 * arm_nn_mat_mult_kernel_s8_s16 (DSP): the 2x2 register-blocked core of arm_convolve_s8. Multiplies the
 * int8 weight rows of two output channels with two int16 im2col columns (two output positions) at once,
 * keeping four accumulators (channel 0/1 x position 0/1). Each pass over four columns loads one word of
 * each column (already widened, "unordered" `x0 x2 | x1 x3`), widens four weights of each channel with
 * read_and_pad_reordered (`w0 w2 | w1 w3`) and issues eight SMLADs: sixteen MACs. Then each accumulator
 * is requantized with its channel's multiplier/shift, offset, clamped and stored.
 *
 * `out0` / `out1` are the output indices of channel 0 of this block for position 0 / position 1 (CMSIS's
 * `out_0` and `out_0 + output_ch`; with groups, `output_ch` of the whole layer apart).
 */
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';

/** Shared arguments of both modes. */
export interface MatMultKernelArgs {
  /** Weights, `outCh` rows of `numColA` int8 starting at `aBase`. */
  a: Int8Array;
  aBase: number;
  /** Two im2col columns: column 0 at 0, column 1 at `alignedNumColA`. */
  b: Int16Array;
  outCh: number;
  /** Index of this block's first channel in multiplier/shift/bias. */
  chBase: number;
  multiplier: Int32Array;
  shift: Int32Array;
  bias: Int32Array | null;
  outOffset: number;
  actMin: number;
  actMax: number;
  numColA: number;
  alignedNumColA: number;
  out: Int8Array;
  out0: number;
  out1: number;
  /**
   * Fast mode word access (see word-view.ts): views covering `a` and `b` and the byte offsets of `a[0]` /
   * `b[0]` in them, or -1 to run the element loops.
   */
  aView: DataView | null;
  aViewBase: number;
  bView: DataView | null;
  bViewBase: number;
}

/** Fast mode: the word version when both operands are viewable, else the element version. */
export function matMultKernelS8S16Fast(g: MatMultKernelArgs): void {
  if (g.aViewBase >= 0 && g.bViewBase >= 0) matMultKernelS8S16Words(g);
  else matMultKernelS8S16Elements(g);
}

/**
 * Fast mode with word reads, CMSIS-NN's blocking: two channels x two columns, four columns per step,
 * words read in CMSIS-NN's order (column 0 and column 1 halfword pairs, then the two channels' weight
 * words, then the next halfword pairs). read_and_pad_reordered + SMLAD become sign-extending shifts and
 * multiply-adds in the same pairs: `(w0, w2) . (x0, x2)` then `(w1, w3) . (x1, x3)`.
 */
function matMultKernelS8S16Words(g: MatMultKernelArgs): void {
  const av = g.aView!;
  const bv = g.bView!;
  const a = g.a;
  const b = g.b;
  const out = g.out;
  const bias = g.bias;
  const mult = g.multiplier;
  const shift = g.shift;
  const numColA = g.numColA;
  const off = g.outOffset;
  const lo = g.actMin;
  const hi = g.actMax;
  const outCh = g.outCh;
  const bBase = g.bViewBase;
  const bBase1 = bBase + 2 * g.alignedNumColA;
  let out0 = g.out0;
  let out1 = g.out1;
  let ch = g.chBase;
  let ia0 = g.aBase;
  for (let rowCount = outCh >> 1; rowCount > 0; rowCount--) {
    let c00 = 0;
    let c01 = 0;
    let c10 = 0;
    let c11 = 0;
    if (bias !== null) {
      c00 = c01 = bias[ch]!;
      c10 = c11 = bias[ch + 1]!;
    }
    let pa = g.aViewBase + ia0;
    let pb0 = bBase;
    let pb1 = bBase1;
    for (let colCount = numColA >> 2; colCount > 0; colCount--, pa += 4, pb0 += 8, pb1 += 8) {
      let x = bv.getInt32(pb0, true); // x0 | x2 (unordered column)
      let y = bv.getInt32(pb1, true);
      const wa = av.getInt32(pa, true);
      const wb = av.getInt32(pa + numColA, true);
      const w0 = (wa << 24) >> 24,
        w2 = (wa << 8) >> 24,
        w1 = (wa << 16) >> 24,
        w3 = wa >> 24;
      const v0 = (wb << 24) >> 24,
        v2 = (wb << 8) >> 24,
        v1 = (wb << 16) >> 24,
        v3 = wb >> 24;
      let xl = (x << 16) >> 16;
      let xh = x >> 16;
      let yl = (y << 16) >> 16;
      let yh = y >> 16;
      c00 = (c00 + w0 * xl + w2 * xh) | 0;
      c01 = (c01 + w0 * yl + w2 * yh) | 0;
      c10 = (c10 + v0 * xl + v2 * xh) | 0;
      c11 = (c11 + v0 * yl + v2 * yh) | 0;
      x = bv.getInt32(pb0 + 4, true); // x1 | x3
      y = bv.getInt32(pb1 + 4, true);
      xl = (x << 16) >> 16;
      xh = x >> 16;
      yl = (y << 16) >> 16;
      yh = y >> 16;
      c00 = (c00 + w1 * xl + w3 * xh) | 0;
      c01 = (c01 + w1 * yl + w3 * yh) | 0;
      c10 = (c10 + v1 * xl + v3 * xh) | 0;
      c11 = (c11 + v1 * yl + v3 * yh) | 0;
    }
    const tail = numColA & ~3;
    let ib0 = tail;
    let ib1 = g.alignedNumColA + tail;
    ia0 += tail;
    let ia1 = ia0 + numColA;
    for (let colCount = numColA & 3; colCount > 0; colCount--) {
      const a0 = a[ia0++]!;
      const b0 = b[ib0++]!;
      const a1 = a[ia1++]!;
      const b1 = b[ib1++]!;
      c00 = (c00 + a0 * b0) | 0;
      c01 = (c01 + a0 * b1) | 0;
      c10 = (c10 + a1 * b0) | 0;
      c11 = (c11 + a1 * b1) | 0;
    }
    const m0 = mult[ch]!;
    const s0 = shift[ch]!;
    const m1 = mult[ch + 1]!;
    const s1 = shift[ch + 1]!;
    out[out0++] = requantizeClamp(c00, m0, s0, off, lo, hi);
    out[out1++] = requantizeClamp(c01, m0, s0, off, lo, hi);
    out[out0++] = requantizeClamp(c10, m1, s1, off, lo, hi);
    out[out1++] = requantizeClamp(c11, m1, s1, off, lo, hi);
    ch += 2;
    ia0 += numColA; // skip the second row of the pair
  }
  if (outCh & 1) {
    let c00 = 0;
    let c01 = 0;
    if (bias !== null) c00 = c01 = bias[ch]!;
    let pa = g.aViewBase + ia0;
    let pb0 = bBase;
    let pb1 = bBase1;
    for (let colCount = numColA >> 2; colCount > 0; colCount--, pa += 4, pb0 += 8, pb1 += 8) {
      let x = bv.getInt32(pb0, true);
      let y = bv.getInt32(pb1, true);
      const wa = av.getInt32(pa, true);
      const w0 = (wa << 24) >> 24,
        w2 = (wa << 8) >> 24,
        w1 = (wa << 16) >> 24,
        w3 = wa >> 24;
      c00 = (c00 + w0 * ((x << 16) >> 16) + w2 * (x >> 16)) | 0;
      c01 = (c01 + w0 * ((y << 16) >> 16) + w2 * (y >> 16)) | 0;
      x = bv.getInt32(pb0 + 4, true);
      y = bv.getInt32(pb1 + 4, true);
      c00 = (c00 + w1 * ((x << 16) >> 16) + w3 * (x >> 16)) | 0;
      c01 = (c01 + w1 * ((y << 16) >> 16) + w3 * (y >> 16)) | 0;
    }
    const tail = numColA & ~3;
    let ib0 = tail;
    let ib1 = g.alignedNumColA + tail;
    ia0 += tail;
    for (let colCount = numColA & 3; colCount > 0; colCount--) {
      const a0 = a[ia0++]!;
      c00 = (c00 + a0 * b[ib0++]!) | 0;
      c01 = (c01 + a0 * b[ib1++]!) | 0;
    }
    out[out0] = requantizeClamp(c00, mult[ch]!, shift[ch]!, off, lo, hi);
    out[out1] = requantizeClamp(c01, mult[ch]!, shift[ch]!, off, lo, hi);
  }
}

/** Fast mode, element by element (operands outside the viewed buffers): the word version's loops. */
function matMultKernelS8S16Elements(g: MatMultKernelArgs): void {
  const a = g.a;
  const b = g.b;
  const out = g.out;
  const bias = g.bias;
  const mult = g.multiplier;
  const shift = g.shift;
  const numColA = g.numColA;
  const aligned = g.alignedNumColA;
  const off = g.outOffset;
  const lo = g.actMin;
  const hi = g.actMax;
  const outCh = g.outCh;
  let out0 = g.out0;
  let out1 = g.out1;
  let ch = g.chBase;
  let ia0 = g.aBase;
  let rowCount = outCh >> 1;
  while (rowCount > 0) {
    let ib0 = 0;
    let ib1 = aligned;
    let ia1 = ia0 + numColA;
    let c00 = 0;
    let c01 = 0;
    let c10 = 0;
    let c11 = 0;
    if (bias !== null) {
      c00 = c01 = bias[ch]!;
      c10 = c11 = bias[ch + 1]!;
    }
    let colCount = numColA >> 2;
    while (colCount > 0) {
      // columns stored unordered: x0 x2 x1 x3; weights in read_and_pad_reordered order (w0, w2) (w1, w3)
      const x0 = b[ib0]!;
      const x2 = b[ib0 + 1]!;
      const y0 = b[ib1]!;
      const y2 = b[ib1 + 1]!;
      const w0 = a[ia0]!;
      const w1 = a[ia0 + 1]!;
      const w2 = a[ia0 + 2]!;
      const w3 = a[ia0 + 3]!;
      const v0 = a[ia1]!;
      const v1 = a[ia1 + 1]!;
      const v2 = a[ia1 + 2]!;
      const v3 = a[ia1 + 3]!;
      const x1 = b[ib0 + 2]!;
      const x3 = b[ib0 + 3]!;
      const y1 = b[ib1 + 2]!;
      const y3 = b[ib1 + 3]!;
      c00 = (c00 + w0 * x0 + w2 * x2 + (w1 * x1 + w3 * x3)) | 0;
      c01 = (c01 + w0 * y0 + w2 * y2 + (w1 * y1 + w3 * y3)) | 0;
      c10 = (c10 + v0 * x0 + v2 * x2 + (v1 * x1 + v3 * x3)) | 0;
      c11 = (c11 + v0 * y0 + v2 * y2 + (v1 * y1 + v3 * y3)) | 0;
      ia0 += 4;
      ia1 += 4;
      ib0 += 4;
      ib1 += 4;
      colCount--;
    }
    colCount = numColA & 3;
    while (colCount > 0) {
      const a0 = a[ia0++]!;
      const b0 = b[ib0++]!;
      const a1 = a[ia1++]!;
      const b1 = b[ib1++]!;
      c00 = (c00 + a0 * b0) | 0;
      c01 = (c01 + a0 * b1) | 0;
      c10 = (c10 + a1 * b0) | 0;
      c11 = (c11 + a1 * b1) | 0;
      colCount--;
    }
    out[out0++] = requantizeClamp(c00, mult[ch]!, shift[ch]!, off, lo, hi);
    out[out1++] = requantizeClamp(c01, mult[ch]!, shift[ch]!, off, lo, hi);
    out[out0++] = requantizeClamp(c10, mult[ch + 1]!, shift[ch + 1]!, off, lo, hi);
    out[out1++] = requantizeClamp(c11, mult[ch + 1]!, shift[ch + 1]!, off, lo, hi);
    ch += 2;
    ia0 += numColA; // skip the second row of the pair
    rowCount--;
  }
  if (outCh & 1) {
    let ib0 = 0;
    let ib1 = aligned;
    let c00 = 0;
    let c01 = 0;
    if (bias !== null) c00 = c01 = bias[ch]!;
    let colCount = numColA >> 2;
    while (colCount > 0) {
      const w0 = a[ia0]!;
      const w1 = a[ia0 + 1]!;
      const w2 = a[ia0 + 2]!;
      const w3 = a[ia0 + 3]!;
      c00 = (c00 + w0 * b[ib0]! + w2 * b[ib0 + 1]! + (w1 * b[ib0 + 2]! + w3 * b[ib0 + 3]!)) | 0;
      c01 = (c01 + w0 * b[ib1]! + w2 * b[ib1 + 1]! + (w1 * b[ib1 + 2]! + w3 * b[ib1 + 3]!)) | 0;
      ia0 += 4;
      ib0 += 4;
      ib1 += 4;
      colCount--;
    }
    colCount = numColA & 3;
    while (colCount > 0) {
      const a0 = a[ia0++]!;
      c00 = (c00 + a0 * b[ib0++]!) | 0;
      c01 = (c01 + a0 * b[ib1++]!) | 0;
      colCount--;
    }
    out[out0] = requantizeClamp(c00, mult[ch]!, shift[ch]!, off, lo, hi);
    out[out1] = requantizeClamp(c01, mult[ch]!, shift[ch]!, off, lo, hi);
  }
}

/** Requantize, offset, clamp and store one accumulator (emulated). */
function storeEmu(m: SimdMachine, acc: number, mult: number, shift: number, g: MatMultKernelArgs, idx: number): void {
  let r = m.add(m.requantize(acc, mult, shift), g.outOffset);
  r = m.max(r, g.actMin);
  r = m.min(r, g.actMax);
  m.stB(g.out, idx, r);
}

/** Emulated mode: the same loops through the instruction machine. */
export function matMultKernelS8S16Emu(m: SimdMachine, g: MatMultKernelArgs): void {
  m.call();
  const a = g.a;
  const b = g.b;
  const bias = g.bias;
  const numColA = g.numColA;
  const outCh = g.outCh;
  let out0 = g.out0;
  let out1 = g.out1;
  let ch = g.chBase;
  let ia0 = g.aBase;
  m.alu(4); // out_1, bias, row_count, ip_a0 setup
  let rowCount = outCh >> 1;
  while (rowCount > 0) {
    let ib0 = 0;
    let ib1 = g.alignedNumColA;
    let ia1 = ia0 + numColA;
    m.alu(3);
    let c00 = 0;
    let c01 = 0;
    let c10 = 0;
    let c11 = 0;
    m.branch();
    if (bias !== null) {
      c00 = c01 = m.ldcW(bias, ch);
      c10 = c11 = m.ldcW(bias, ch + 1);
      m.alu(2);
    }
    let colCount = numColA >> 2;
    m.alu(1);
    while (colCount > 0) {
      let b0 = m.ldQ15x2(b, ib0);
      let b1 = m.ldQ15x2(b, ib1);
      const wa = m.ldcS8x4(a, ia0);
      const a02 = m.sxtb16Ror8(wa);
      const a01 = m.sxtb16(wa);
      const wb = m.ldcS8x4(a, ia1);
      const a12 = m.sxtb16Ror8(wb);
      const a11 = m.sxtb16(wb);
      c00 = m.smlad(a01, b0, c00);
      c01 = m.smlad(a01, b1, c01);
      c10 = m.smlad(a11, b0, c10);
      c11 = m.smlad(a11, b1, c11);
      b0 = m.ldQ15x2(b, ib0 + 2);
      b1 = m.ldQ15x2(b, ib1 + 2);
      c00 = m.smlad(a02, b0, c00);
      c01 = m.smlad(a02, b1, c01);
      c10 = m.smlad(a12, b0, c10);
      c11 = m.smlad(a12, b1, c11);
      ia0 += 4;
      ia1 += 4;
      ib0 += 4;
      ib1 += 4;
      m.loop();
      colCount--;
    }
    colCount = numColA & 3;
    m.alu(1);
    while (colCount > 0) {
      const a0 = m.ldcS8(a, ia0++);
      const b0 = m.ldS16(b, ib0++);
      const a1 = m.ldcS8(a, ia1++);
      const b1 = m.ldS16(b, ib1++);
      c00 = m.mla(a0, b0, c00);
      c01 = m.mla(a0, b1, c01);
      c10 = m.mla(a1, b0, c10);
      c11 = m.mla(a1, b1, c11);
      m.loop();
      colCount--;
    }
    const m0 = m.ldW(g.multiplier, ch);
    const s0 = m.ldW(g.shift, ch);
    storeEmu(m, c00, m0, s0, g, out0++);
    storeEmu(m, c01, m0, s0, g, out1++);
    const m1 = m.ldW(g.multiplier, ch + 1);
    const s1 = m.ldW(g.shift, ch + 1);
    storeEmu(m, c10, m1, s1, g, out0++);
    storeEmu(m, c11, m1, s1, g, out1++);
    ch += 2;
    ia0 += numColA;
    m.alu(1);
    m.loop();
    rowCount--;
  }
  m.branch();
  if (outCh & 1) {
    let ib0 = 0;
    let ib1 = g.alignedNumColA;
    let c00 = 0;
    let c01 = 0;
    m.alu(2);
    if (bias !== null) {
      c00 = c01 = m.ldcW(bias, ch);
      m.alu(1);
    }
    let colCount = numColA >> 2;
    while (colCount > 0) {
      let b0 = m.ldQ15x2(b, ib0);
      let b1 = m.ldQ15x2(b, ib1);
      const wa = m.ldcS8x4(a, ia0);
      const a02 = m.sxtb16Ror8(wa);
      const a01 = m.sxtb16(wa);
      c00 = m.smlad(a01, b0, c00);
      c01 = m.smlad(a01, b1, c01);
      b0 = m.ldQ15x2(b, ib0 + 2);
      b1 = m.ldQ15x2(b, ib1 + 2);
      c00 = m.smlad(a02, b0, c00);
      c01 = m.smlad(a02, b1, c01);
      ia0 += 4;
      ib0 += 4;
      ib1 += 4;
      m.loop();
      colCount--;
    }
    colCount = numColA & 3;
    while (colCount > 0) {
      const a0 = m.ldcS8(a, ia0++);
      c00 = m.mla(a0, m.ldS16(b, ib0++), c00);
      c01 = m.mla(a0, m.ldS16(b, ib1++), c01);
      m.loop();
      colCount--;
    }
    const m0 = m.ldW(g.multiplier, ch);
    const s0 = m.ldW(g.shift, ch);
    storeEmu(m, c00, m0, s0, g, out0);
    storeEmu(m, c01, m0, s0, g, out1);
  }
}
