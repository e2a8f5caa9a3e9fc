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

function finish(acc: number, p: ConvParams, ch: number): number {
  let r = requantizeFast(acc, p.multiplier[ch]!, p.shift[ch]!) + p.outputOffset;
  r = r > p.actMin ? r : p.actMin;
  return r < p.actMax ? r : p.actMax;
}

/** Fast mode. */
export function depthwiseConv3x3Fast(p: ConvParams, input: Int8Array, kernel: Int8Array, bias: Int32Array | null, output: Int8Array): void {
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
