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
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';
import type { ConvParams } from './types.js';
import type { WordOperands } from './word-view.js';

/** Fast mode: word reads when both operands are viewable, else byte reads. */
export function depthwiseConv3x3Fast(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  w: WordOperands,
): void {
  if (w.inBase >= 0 && w.wBase >= 0) depthwiseConv3x3Words(p, input, kernel, bias, output, w);
  else depthwiseConv3x3Bytes(p, input, kernel, bias, output);
}

/**
 * Fast mode with word reads, CMSIS-NN's loops exactly: one output pixel at a time, four channels at a
 * time, per filter row the taps at columns 0 (when `ker_w_start == 0`), 1 and 2 (when
 * `input_x - in_w >= 3`), each one word of four input channels and then one word of their four weights
 * (arm_nn_read_s8x4 as DataView reads). SXTAB16 (offset added) / SXTB16 and SMLABB / SMLATT become
 * sign-extending shifts and multiply-adds per channel. Leftover channels (C % 4) one at a time, bytewise.
 */
function depthwiseConv3x3Words(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  w: WordOperands,
): void {
  const iv = w.inView!;
  const kv = w.wView!;
  const ib = w.inBase;
  const kb = w.wBase;
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const ch2 = 2 * ch;
  const off = p.inputOffset;
  const rowStride = ch * inX;
  const kRowStride = ch * 3;
  const multiplier = p.multiplier;
  const shift = p.shift;
  const outOff = p.outputOffset;
  const actMin = p.actMin;
  const actMax = p.actMax;
  let outIdx = 0;
  for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
    const kerHStart = inH < 0 ? -inH : 0;
    const kerHEnd = inY - inH < 3 ? inY - inH : 3;
    for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
      const firstCol = inW >= 0; // ker_w_start == 0
      const lastCol = inX - inW >= 3;
      const ip0 = (inH + kerHStart) * rowStride + inW * ch;
      const kp0 = kerHStart * kRowStride;
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
        let i = ib + ip0 + c;
        let k = kb + kp0 + c;
        for (let kh = kerHStart; kh < kerHEnd; kh++, i += rowStride, k += kRowStride) {
          if (firstCol) {
            const x = iv.getInt32(i, true);
            const f = kv.getInt32(k, true);
            o0 = (o0 + Math.imul((((x << 24) >> 24) + off) | 0, (f << 24) >> 24)) | 0;
            o1 = (o1 + Math.imul((((x << 16) >> 24) + off) | 0, (f << 16) >> 24)) | 0;
            o2 = (o2 + Math.imul((((x << 8) >> 24) + off) | 0, (f << 8) >> 24)) | 0;
            o3 = (o3 + Math.imul(((x >> 24) + off) | 0, f >> 24)) | 0;
          }
          const x = iv.getInt32(i + ch, true);
          const f = kv.getInt32(k + ch, true);
          o0 = (o0 + Math.imul((((x << 24) >> 24) + off) | 0, (f << 24) >> 24)) | 0;
          o1 = (o1 + Math.imul((((x << 16) >> 24) + off) | 0, (f << 16) >> 24)) | 0;
          o2 = (o2 + Math.imul((((x << 8) >> 24) + off) | 0, (f << 8) >> 24)) | 0;
          o3 = (o3 + Math.imul(((x >> 24) + off) | 0, f >> 24)) | 0;
          if (lastCol) {
            const y = iv.getInt32(i + ch2, true);
            const g = kv.getInt32(k + ch2, true);
            o0 = (o0 + Math.imul((((y << 24) >> 24) + off) | 0, (g << 24) >> 24)) | 0;
            o1 = (o1 + Math.imul((((y << 16) >> 24) + off) | 0, (g << 16) >> 24)) | 0;
            o2 = (o2 + Math.imul((((y << 8) >> 24) + off) | 0, (g << 8) >> 24)) | 0;
            o3 = (o3 + Math.imul(((y >> 24) + off) | 0, g >> 24)) | 0;
          }
        }
        output[outIdx++] = requantizeClamp(o0, multiplier[c]!, shift[c]!, outOff, actMin, actMax);
        output[outIdx++] = requantizeClamp(o1, multiplier[c + 1]!, shift[c + 1]!, outOff, actMin, actMax);
        output[outIdx++] = requantizeClamp(o2, multiplier[c + 2]!, shift[c + 2]!, outOff, actMin, actMax);
        output[outIdx++] = requantizeClamp(o3, multiplier[c + 3]!, shift[c + 3]!, outOff, actMin, actMax);
      }
      for (; c < ch; c++) {
        output[outIdx++] = leftoverChannel(p, input, kernel, bias, c, ip0 + c, kp0 + c, kerHStart, kerHEnd, firstCol, lastCol);
      }
    }
  }
}

/** One leftover channel of one pixel (CMSIS-NN's scalar loop), requantized. */
function leftoverChannel(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  c: number,
  ip: number,
  kp: number,
  kerHStart: number,
  kerHEnd: number,
  firstCol: boolean,
  lastCol: boolean,
): number {
  const ch = p.inC;
  const off = p.inputOffset;
  const rowStride = ch * p.inW;
  let o = bias !== null ? bias[c]! : 0;
  for (let kh = kerHStart; kh < kerHEnd; kh++, ip += rowStride, kp += 3 * ch) {
    if (firstCol) o = (o + Math.imul((input[ip]! + off) | 0, kernel[kp]!)) | 0;
    o = (o + Math.imul((input[ip + ch]! + off) | 0, kernel[kp + ch]!)) | 0;
    if (lastCol) o = (o + Math.imul((input[ip + 2 * ch]! + off) | 0, kernel[kp + 2 * ch]!)) | 0;
  }
  return requantizeClamp(o, p.multiplier[c]!, p.shift[c]!, p.outputOffset, p.actMin, p.actMax);
}

/** Fast mode, byte by byte (operands outside the viewed buffers): the word version's loops. */
function depthwiseConv3x3Bytes(p: ConvParams, input: Int8Array, kernel: Int8Array, bias: Int32Array | null, output: Int8Array): void {
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const ch2 = 2 * ch;
  const off = p.inputOffset;
  const rowStride = ch * inX;
  const kRowStride = ch * 3;
  const multiplier = p.multiplier;
  const shift = p.shift;
  const outOff = p.outputOffset;
  const actMin = p.actMin;
  const actMax = p.actMax;
  let outIdx = 0;
  for (let inH = -p.padH, oy = 0; oy < p.outH; inH += p.strideH, oy++) {
    const kerHStart = inH < 0 ? -inH : 0;
    const kerHEnd = inY - inH < 3 ? inY - inH : 3;
    for (let inW = -p.padW, ox = 0; ox < p.outW; inW += p.strideW, ox++) {
      const firstCol = inW >= 0;
      const lastCol = inX - inW >= 3;
      const ip0 = (inH + kerHStart) * rowStride + inW * ch;
      const kp0 = kerHStart * kRowStride;
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
        let i = ip0 + c;
        let k = kp0 + c;
        for (let kh = kerHStart; kh < kerHEnd; kh++, i += rowStride, k += kRowStride) {
          if (firstCol) {
            o0 = (o0 + Math.imul((input[i]! + off) | 0, kernel[k]!)) | 0;
            o1 = (o1 + Math.imul((input[i + 1]! + off) | 0, kernel[k + 1]!)) | 0;
            o2 = (o2 + Math.imul((input[i + 2]! + off) | 0, kernel[k + 2]!)) | 0;
            o3 = (o3 + Math.imul((input[i + 3]! + off) | 0, kernel[k + 3]!)) | 0;
          }
          const j = i + ch;
          const l = k + ch;
          o0 = (o0 + Math.imul((input[j]! + off) | 0, kernel[l]!)) | 0;
          o1 = (o1 + Math.imul((input[j + 1]! + off) | 0, kernel[l + 1]!)) | 0;
          o2 = (o2 + Math.imul((input[j + 2]! + off) | 0, kernel[l + 2]!)) | 0;
          o3 = (o3 + Math.imul((input[j + 3]! + off) | 0, kernel[l + 3]!)) | 0;
          if (lastCol) {
            const j2 = i + ch2;
            const l2 = k + ch2;
            o0 = (o0 + Math.imul((input[j2]! + off) | 0, kernel[l2]!)) | 0;
            o1 = (o1 + Math.imul((input[j2 + 1]! + off) | 0, kernel[l2 + 1]!)) | 0;
            o2 = (o2 + Math.imul((input[j2 + 2]! + off) | 0, kernel[l2 + 2]!)) | 0;
            o3 = (o3 + Math.imul((input[j2 + 3]! + off) | 0, kernel[l2 + 3]!)) | 0;
          }
        }
        output[outIdx++] = requantizeClamp(o0, multiplier[c]!, shift[c]!, outOff, actMin, actMax);
        output[outIdx++] = requantizeClamp(o1, multiplier[c + 1]!, shift[c + 1]!, outOff, actMin, actMax);
        output[outIdx++] = requantizeClamp(o2, multiplier[c + 2]!, shift[c + 2]!, outOff, actMin, actMax);
        output[outIdx++] = requantizeClamp(o3, multiplier[c + 3]!, shift[c + 3]!, outOff, actMin, actMax);
      }
      for (; c < ch; c++) {
        output[outIdx++] = leftoverChannel(p, input, kernel, bias, c, ip0 + c, kp0 + c, kerHStart, kerHEnd, firstCol, lastCol);
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
export function depthwiseConv3x3Emu(
  m: SimdMachine,
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  acc: Int32Array,
): void {
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
