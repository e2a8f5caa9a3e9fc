/**
 * arm_depthwise_conv_3x3_s8 (DSP): depth multiplier 1, 3x3 filter, padding at most 1, batch 1, no
 * dilation. No im2col: for each output pixel four channels are accumulated at once straight from the
 * input. Per filter tap one word of four input bytes and one word of four weights are widened with
 * SXTAB16 (input, adding the offset) / SXTB16 (weights), each with and without ROR #8, and the four
 * channels are accumulated with SMLABB (bottom halves: channels 0 and 1) and SMLATT (top halves:
 * channels 2 and 3). Padding is handled by skipping the filter rows and columns that fall outside the
 * image (`ker_h_start`, the `input_y - in_h` bound, `ker_w_start` and the `input_x - in_w >= 3` test).
 * Leftover channels (C % 4) are done one at a time. No scratch.
 */
import { requantizeFast } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';
import type { ConvParams } from './types.js';
import type { WordOperands } from './word-view.js';

function finish(acc: number, p: ConvParams, ch: number): number {
  let r = requantizeFast(acc, p.multiplier[ch]!, p.shift[ch]!) + p.outputOffset;
  r = r > p.actMin ? r : p.actMin;
  return r < p.actMax ? r : p.actMax;
}

/** Fast mode: word reads when both operands are viewable, else byte reads. */
export function depthwiseConv3x3Fast(p: ConvParams, input: Int8Array, kernel: Int8Array, bias: Int32Array | null, output: Int8Array, w: WordOperands): void {
  if (w.inBase >= 0 && w.wBase >= 0) depthwiseConv3x3Words(p, input, kernel, bias, output, w);
  else depthwiseConv3x3Bytes(p, input, kernel, bias, output);
}

/**
 * Fast mode with word reads: per tap, one word of four input channels and one of their four weights
 * (arm_nn_read_s8x4), bytes sign-extended with shifts, offset added to the inputs (SXTAB16), four
 * multiply-adds (SMLABB / SMLATT). Two horizontally adjacent pixels with the same filter window share
 * each weight word (a JS-side blocking; the arithmetic per output is CMSIS-NN's).
 */
function depthwiseConv3x3Words(p: ConvParams, input: Int8Array, kernel: Int8Array, bias: Int32Array | null, output: Int8Array, w: WordOperands): void {
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const rowStride = ch * inX;
  const pixelStride = p.strideW * ch;
  let outIdx = 0;
  for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
    const kerHStart = Math.max(0, -inH);
    const rows = Math.min(3, inY - inH) - kerHStart;
    for (let inW = -p.padW, ox = 0; ox < p.outW; ) {
      const kerWStart = Math.max(0, -inW);
      const kerWEnd = inX - inW >= 3 ? 3 : 2;
      const ip = (inH + kerHStart) * rowStride + (inW + kerWStart) * ch;
      const kp = kerHStart * ch * 3 + kerWStart * ch;
      const next = inW + p.strideW;
      if (ox + 1 < p.outW && Math.max(0, -next) === kerWStart && (inX - next >= 3 ? 3 : 2) === kerWEnd) {
        pixelPairWords(p, input, kernel, bias, output, w, outIdx, ip, pixelStride, kp, rows, kerWEnd - kerWStart, rowStride);
        outIdx += 2 * ch;
        ox += 2;
        inW += 2 * p.strideW;
      } else {
        pixelWords(p, input, kernel, bias, output, w, outIdx, ip, kp, rows, kerWEnd - kerWStart, rowStride);
        outIdx += ch;
        ox += 1;
        inW += p.strideW;
      }
    }
  }
}

/**
 * All channels of the pixel whose first in-image tap is `input[ip]` (filter tap `kernel[kp]`), over `rows`
 * filter rows of `taps` taps.
 */
function pixelWords(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  w: WordOperands,
  outIdx: number,
  ip: number,
  kp: number,
  rows: number,
  taps: number,
  rowStride: number,
): void {
  const iv = w.inView!;
  const kv = w.wView!;
  const ib = w.inBase;
  const kb = w.wBase;
  const acc = w.acc;
  const ch = p.inC;
  const off = p.inputOffset;
  const kRowStride = ch * 3;
  let c = 0;
  for (; c <= ch - 4; c += 4) {
    let o0 = 0;
    let o1 = 0;
    let o2 = 0;
    let o3 = 0;
    if (bias !== null) {
      o0 = bias[c]!;
      o1 = bias[c + 1]!;
      o2 = bias[c + 2]!;
      o3 = bias[c + 3]!;
    }
    for (let r = 0, ir = ib + ip + c, kr = kb + kp + c; r < rows; r++, ir += rowStride, kr += kRowStride) {
      for (let t = 0, i = ir, k = kr; t < taps; t++, i += ch, k += ch) {
        const x = iv.getInt32(i, true);
        const f = kv.getInt32(k, true);
        o0 = (o0 + Math.imul((((x << 24) >> 24) + off) | 0, (f << 24) >> 24)) | 0;
        o1 = (o1 + Math.imul((((x << 16) >> 24) + off) | 0, (f << 16) >> 24)) | 0;
        o2 = (o2 + Math.imul((((x << 8) >> 24) + off) | 0, (f << 8) >> 24)) | 0;
        o3 = (o3 + Math.imul(((x >> 24) + off) | 0, f >> 24)) | 0;
      }
    }
    acc[0] = o0;
    acc[1] = o1;
    acc[2] = o2;
    acc[3] = o3;
    storeBlock(p, acc, 4, c, output, outIdx + c);
  }
  for (; c < ch; c++) {
    let o = bias !== null ? bias[c]! : 0;
    for (let r = 0, ir = ip + c, kr = kp + c; r < rows; r++, ir += rowStride, kr += kRowStride) {
      for (let t = 0, i = ir, k = kr; t < taps; t++, i += ch, k += ch) o = (o + Math.imul((input[i]! + off) | 0, kernel[k]!)) | 0;
    }
    acc[0] = o;
    storeBlock(p, acc, 1, c, output, outIdx + c);
  }
}

/** Two adjacent pixels (first taps `pixelStride` apart, same window): each weight word serves both. */
function pixelPairWords(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  w: WordOperands,
  outIdx: number,
  ip: number,
  pixelStride: number,
  kp: number,
  rows: number,
  taps: number,
  rowStride: number,
): void {
  const iv = w.inView!;
  const kv = w.wView!;
  const ib = w.inBase;
  const kb = w.wBase;
  const acc = w.acc;
  const ch = p.inC;
  const off = p.inputOffset;
  const kRowStride = ch * 3;
  const outIdx2 = outIdx + ch;
  let c = 0;
  for (; c <= ch - 4; c += 4) {
    let o0 = 0;
    let o1 = 0;
    let o2 = 0;
    let o3 = 0;
    if (bias !== null) {
      o0 = bias[c]!;
      o1 = bias[c + 1]!;
      o2 = bias[c + 2]!;
      o3 = bias[c + 3]!;
    }
    let q0 = o0;
    let q1 = o1;
    let q2 = o2;
    let q3 = o3;
    for (let r = 0, ir = ib + ip + c, kr = kb + kp + c; r < rows; r++, ir += rowStride, kr += kRowStride) {
      for (let t = 0, i = ir, k = kr; t < taps; t++, i += ch, k += ch) {
        const f = kv.getInt32(k, true);
        const f0 = (f << 24) >> 24;
        const f1 = (f << 16) >> 24;
        const f2 = (f << 8) >> 24;
        const f3 = f >> 24;
        const x = iv.getInt32(i, true);
        const y = iv.getInt32(i + pixelStride, true);
        o0 = (o0 + Math.imul((((x << 24) >> 24) + off) | 0, f0)) | 0;
        o1 = (o1 + Math.imul((((x << 16) >> 24) + off) | 0, f1)) | 0;
        o2 = (o2 + Math.imul((((x << 8) >> 24) + off) | 0, f2)) | 0;
        o3 = (o3 + Math.imul(((x >> 24) + off) | 0, f3)) | 0;
        q0 = (q0 + Math.imul((((y << 24) >> 24) + off) | 0, f0)) | 0;
        q1 = (q1 + Math.imul((((y << 16) >> 24) + off) | 0, f1)) | 0;
        q2 = (q2 + Math.imul((((y << 8) >> 24) + off) | 0, f2)) | 0;
        q3 = (q3 + Math.imul(((y >> 24) + off) | 0, f3)) | 0;
      }
    }
    acc[0] = o0;
    acc[1] = o1;
    acc[2] = o2;
    acc[3] = o3;
    storeBlock(p, acc, 4, c, output, outIdx + c);
    acc[0] = q0;
    acc[1] = q1;
    acc[2] = q2;
    acc[3] = q3;
    storeBlock(p, acc, 4, c, output, outIdx2 + c);
  }
  for (; c < ch; c++) {
    let o = bias !== null ? bias[c]! : 0;
    let q = o;
    for (let r = 0, ir = ip + c, kr = kp + c; r < rows; r++, ir += rowStride, kr += kRowStride) {
      for (let t = 0, i = ir, k = kr; t < taps; t++, i += ch, k += ch) {
        const f = kernel[k]!;
        o = (o + Math.imul((input[i]! + off) | 0, f)) | 0;
        q = (q + Math.imul((input[i + pixelStride]! + off) | 0, f)) | 0;
      }
    }
    acc[0] = o;
    storeBlock(p, acc, 1, c, output, outIdx + c);
    acc[0] = q;
    storeBlock(p, acc, 1, c, output, outIdx2 + c);
  }
}

/** Requantizes `acc[0..n)` (channels `ch..ch+n`) into `output[idx..]`: one call site, which V8 inlines. */
function storeBlock(p: ConvParams, acc: Int32Array, n: number, ch: number, output: Int8Array, idx: number): void {
  const { multiplier, shift, outputOffset, actMin, actMax } = p;
  for (let j = 0; j < n; j++) {
    const r = requantizeFast(acc[j]!, multiplier[ch + j]!, shift[ch + j]!) + outputOffset;
    output[idx + j] = r < actMin ? actMin : r > actMax ? actMax : r;
  }
}

/** Fast mode, byte by byte (operands outside the viewed buffers). */
function depthwiseConv3x3Bytes(p: ConvParams, input: Int8Array, kernel: Int8Array, bias: Int32Array | null, output: Int8Array): void {
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const off = p.inputOffset;
  const rowStride = ch * inX;
  let outIdx = 0;
  for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
    const kerHStart = Math.max(0, -inH);
    const kerHEnd = Math.min(3, inY - inH);
    for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
      const kerWStart = Math.max(0, -inW);
      const lastCol = inX - inW >= 3;
      let c = 0;
      for (; c <= ch - 4; c += 4) {
        let o0 = 0;
        let o1 = 0;
        let o2 = 0;
        let o3 = 0;
        if (bias !== null) {
          o0 = bias[c]!;
          o1 = bias[c + 1]!;
          o2 = bias[c + 2]!;
          o3 = bias[c + 3]!;
        }
        let ip = (inH + kerHStart) * rowStride + inW * ch + c;
        let kp = kerHStart * ch * 3 + c;
        for (let kh = kerHStart; kh < kerHEnd; kh++) {
          for (let col = kerWStart; col < (lastCol ? 3 : 2); col++) {
            const i = ip + col * ch;
            const k = kp + col * ch;
            o0 = (o0 + (input[i]! + off) * kernel[k]!) | 0;
            o1 = (o1 + (input[i + 1]! + off) * kernel[k + 1]!) | 0;
            o2 = (o2 + (input[i + 2]! + off) * kernel[k + 2]!) | 0;
            o3 = (o3 + (input[i + 3]! + off) * kernel[k + 3]!) | 0;
          }
          ip += rowStride;
          kp += ch * 3;
        }
        output[outIdx++] = finish(o0, p, c);
        output[outIdx++] = finish(o1, p, c + 1);
        output[outIdx++] = finish(o2, p, c + 2);
        output[outIdx++] = finish(o3, p, c + 3);
      }
      for (; c < ch; c++) {
        let o = bias !== null ? bias[c]! : 0;
        let ip = (inH + kerHStart) * rowStride + inW * ch + c;
        let kp = kerHStart * ch * 3 + c;
        for (let kh = kerHStart; kh < kerHEnd; kh++) {
          for (let col = kerWStart; col < (lastCol ? 3 : 2); col++) {
            o = (o + (input[ip + col * ch]! + off) * kernel[kp + col * ch]!) | 0;
          }
          ip += rowStride;
          kp += ch * 3;
        }
        output[outIdx++] = finish(o, p, c);
      }
    }
  }
}

/** One filter tap of four channels (emulated): 2 loads, 4 SIMD widenings, 2 SMLABB + 2 SMLATT. */
function tapEmu(m: SimdMachine, input: Int8Array, i: number, kernel: Int8Array, k: number, offX2: number, acc: Int32Array): void {
  let inVal = m.ldS8x4(input, i);
  let kerVal = m.ldcS8x4(kernel, k);
  const inVal1 = m.sxtab16Ror8(offX2, inVal);
  const kerVal1 = m.sxtb16Ror8(kerVal);
  acc[1] = m.smlabb(inVal1, kerVal1, acc[1]!);
  inVal = m.sxtab16(offX2, inVal);
  acc[3] = m.smlatt(inVal1, kerVal1, acc[3]!);
  kerVal = m.sxtb16(kerVal);
  acc[0] = m.smlabb(inVal, kerVal, acc[0]!);
  acc[2] = m.smlatt(inVal, kerVal, acc[2]!);
}

function storeEmu(m: SimdMachine, p: ConvParams, acc: number, ch: number, output: Int8Array, idx: number): void {
  let r = m.add(m.requantize(acc, m.ldW(p.multiplier, ch), m.ldW(p.shift, ch)), p.outputOffset);
  r = m.max(r, p.actMin);
  r = m.min(r, p.actMax);
  m.stB(output, idx, r);
}

/** Emulated mode. `acc` is a 4-element scratch of the node (no allocation). */
export function depthwiseConv3x3Emu(m: SimdMachine, p: ConvParams, input: Int8Array, kernel: Int8Array, bias: Int32Array | null, output: Int8Array, acc: Int32Array): void {
  m.call();
  m.alu(12);
  m.branch(2); // argument checks
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const off = p.inputOffset;
  const rowStride = ch * inX;
  const offX2 = m.pkhbt(off, off, 16);
  let outIdx = 0;
  for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
    const kerHStart = Math.max(0, -inH);
    const kerHEnd = Math.min(3, inY - inH);
    m.alu(6);
    for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
      const kerWStart = Math.max(0, -inW);
      const lastCol = inX - inW >= 3;
      m.alu(3);
      let c = 0;
      for (; c <= ch - 4; c += 4) {
        acc[0] = acc[1] = acc[2] = acc[3] = 0;
        m.branch();
        if (bias !== null) {
          acc[0] = m.ldcW(bias, c);
          acc[1] = m.ldcW(bias, c + 1);
          acc[2] = m.ldcW(bias, c + 2);
          acc[3] = m.ldcW(bias, c + 3);
        }
        let ip = (inH + kerHStart) * rowStride + inW * ch + c;
        let kp = kerHStart * ch * 3 + c;
        m.alu(6);
        for (let kh = kerHStart; kh < kerHEnd; kh++) {
          m.branch();
          if (kerWStart === 0) tapEmu(m, input, ip, kernel, kp, offX2, acc);
          m.alu(2);
          tapEmu(m, input, ip + ch, kernel, kp + ch, offX2, acc);
          m.alu(1);
          m.branch();
          if (lastCol) {
            m.alu(2);
            tapEmu(m, input, ip + 2 * ch, kernel, kp + 2 * ch, offX2, acc);
          }
          ip += rowStride;
          kp += ch * 3;
          m.alu(4); // pointer steps, MIN(3, input_y - in_h)
          m.loop();
        }
        storeEmu(m, p, acc[0]!, c, output, outIdx++);
        storeEmu(m, p, acc[1]!, c + 1, output, outIdx++);
        storeEmu(m, p, acc[2]!, c + 2, output, outIdx++);
        storeEmu(m, p, acc[3]!, c + 3, output, outIdx++);
        m.loop();
      }
      for (; c < ch; c++) {
        let o = 0;
        m.branch();
        if (bias !== null) o = m.ldcW(bias, c);
        let ip = (inH + kerHStart) * rowStride + inW * ch + c;
        let kp = kerHStart * ch * 3 + c;
        m.alu(6);
        for (let kh = kerHStart; kh < kerHEnd; kh++) {
          for (let col = kerWStart; col < (lastCol ? 3 : 2); col++) {
            o = m.mla(m.add(m.ldS8(input, ip + col * ch), off), m.ldcS8(kernel, kp + col * ch), o);
            m.alu(2);
            m.branch();
          }
          ip += rowStride;
          kp += ch * 3;
          m.alu(4);
          m.loop();
        }
        storeEmu(m, p, o, c, output, outIdx++);
        m.loop();
      }
      m.loop();
    }
    m.loop();
  }
}
