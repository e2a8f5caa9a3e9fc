/**
 * arm_depthwise_conv_s8_opt (DSP): depth multiplier 1, batch 1, no dilation, any filter size. For each
 * output pixel the whole `kH x kW x C` window is copied to an int16 im2col buffer with the input offset
 * added (arm_q7_to_q15_with_offset, in order; taps outside the image are zeroed), then four channels are
 * computed at a time, two filter taps per step: two weight words and two input words are re-paired with
 * SXTB16 / SXTB16 ROR #8 and PKHBT / PKHTB so that one SMLAD per channel adds both taps. An odd last tap
 * and leftover channels (C % 4) are scalar.
 *
 * Scratch (arm_depthwise_conv_s8_opt_get_buffer_size, DSP): `C * kH * kW` int16.
 */
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';
import type { ConvParams } from './types.js';

/** Bytes of scratch arm_depthwise_conv_s8_opt needs (DSP build). */
export function depthwiseConvS8OptBufferSize(inC: number, kH: number, kW: number): number {
  return inC * kW * kH * 2;
}

function finish(acc: number, p: ConvParams, ch: number): number {
  return requantizeClamp(acc, p.multiplier[ch]!, p.shift[ch]!, p.outputOffset, p.actMin, p.actMax);
}

/** Fast mode. `col` is the scratch buffer as int16. */
export function depthwiseConvS8OptFast(
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  col: Int16Array,
): void {
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const kX = p.kW;
  const kY = p.kH;
  const off = p.inputOffset;
  const taps = kX * kY;
  let outIdx = 0;
  for (let oy = 0; oy < p.outH; oy++) {
    const baseY = oy * p.strideH - p.padH;
    for (let ox = 0; ox < p.outW; ox++) {
      const baseX = ox * p.strideW - p.padW;
      const kerYStart = Math.max(0, -baseY);
      const kerYEnd = Math.min(kY, inY - baseY);
      let index = 0;
      if (kerYStart !== 0) {
        col.fill(0, 0, kX * ch * kerYStart);
        index += kX * ch * kerYStart;
      }
      for (let ky = kerYStart; ky < kerYEnd; ky++) {
        const y = baseY + ky;
        for (let kx = 0; kx < kX; kx++) {
          const x = baseX + kx;
          if (x < 0 || x >= inX) {
            col.fill(0, index, index + ch);
          } else {
            const src = (y * inX + x) * ch;
            for (let c = 0; c < ch; c++) col[index + c] = input[src + c]! + off;
          }
          index += ch;
        }
      }
      const diff = kY - kerYEnd;
      if (diff !== 0) col.fill(0, index, index + kX * ch * diff);

      let rowShift = 0;
      let rowCount = ch >> 2;
      while (rowCount > 0) {
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        if (bias !== null) {
          s0 = bias[rowShift]!;
          s1 = bias[rowShift + 1]!;
          s2 = bias[rowShift + 2]!;
          s3 = bias[rowShift + 3]!;
        }
        let cp = rowShift;
        let rp = rowShift;
        let colCount = taps >> 1;
        while (colCount > 0) {
          // taps t and t+1 of channels rowShift..rowShift+3
          s0 = (s0 + col[cp]! * kernel[rp]! + col[cp + ch]! * kernel[rp + ch]!) | 0;
          s1 = (s1 + col[cp + 1]! * kernel[rp + 1]! + col[cp + ch + 1]! * kernel[rp + ch + 1]!) | 0;
          s2 = (s2 + col[cp + 2]! * kernel[rp + 2]! + col[cp + ch + 2]! * kernel[rp + ch + 2]!) | 0;
          s3 = (s3 + col[cp + 3]! * kernel[rp + 3]! + col[cp + ch + 3]! * kernel[rp + ch + 3]!) | 0;
          rp += ch << 1;
          cp += ch << 1;
          colCount--;
        }
        if (taps & 1) {
          s0 = (s0 + kernel[rp]! * col[cp]!) | 0;
          s1 = (s1 + kernel[rp + 1]! * col[cp + 1]!) | 0;
          s2 = (s2 + kernel[rp + 2]! * col[cp + 2]!) | 0;
          s3 = (s3 + kernel[rp + 3]! * col[cp + 3]!) | 0;
        }
        output[outIdx++] = finish(s0, p, rowShift);
        output[outIdx++] = finish(s1, p, rowShift + 1);
        output[outIdx++] = finish(s2, p, rowShift + 2);
        output[outIdx++] = finish(s3, p, rowShift + 3);
        rowShift += 4;
        rowCount--;
      }
      rowCount = ch & 3;
      while (rowCount > 0) {
        let s = bias !== null ? bias[rowShift]! : 0;
        for (let i = 0; i < taps; i++) s = (s + kernel[rowShift + i * ch]! * col[rowShift + i * ch]!) | 0;
        output[outIdx++] = finish(s, p, rowShift);
        rowShift++;
        rowCount--;
      }
    }
  }
}

/** arm_q7_to_q15_with_offset (DSP), emulated: in-order widening with SXTAB16 and PKHBT/PKHTB. */
export function q7ToQ15WithOffsetEmu(
  m: SimdMachine,
  src: Int8Array,
  si: number,
  dst: Int16Array,
  di: number,
  n: number,
  offset: number,
): void {
  m.call();
  const offX2 = m.pkhbt(offset, offset, 16);
  let blocks = n >> 2;
  while (blocks > 0) {
    const w = m.ldS8x4(src, si);
    const odd = m.sxtab16Ror8(offX2, w);
    const even = m.sxtab16(offX2, w);
    const hiPair = m.pkhtb(odd, even, 16);
    const loPair = m.pkhbt(even, odd, 16);
    m.stQ15x2(dst, di, loPair);
    m.stQ15x2(dst, di + 2, hiPair);
    si += 4;
    di += 4;
    m.alu(2);
    m.loop();
    blocks--;
  }
  let tail = n & 3;
  while (tail > 0) {
    m.stH(dst, di++, m.add(m.ldS8(src, si++), offset));
    m.loop();
    tail--;
  }
}

function storeEmu(m: SimdMachine, p: ConvParams, acc: number, ch: number, output: Int8Array, idx: number): void {
  let r = m.add(m.requantize(acc, m.ldW(p.multiplier, ch), m.ldW(p.shift, ch)), p.outputOffset);
  r = m.max(r, p.actMin);
  r = m.min(r, p.actMax);
  m.stB(output, idx, r);
}

/** Emulated mode. */
export function depthwiseConvS8OptEmu(
  m: SimdMachine,
  p: ConvParams,
  input: Int8Array,
  kernel: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
  col: Int16Array,
): void {
  m.call();
  m.alu(16);
  m.branch(2);
  const inX = p.inW;
  const inY = p.inH;
  const ch = p.inC;
  const kX = p.kW;
  const kY = p.kH;
  const taps = kX * kY;
  let outIdx = 0;
  for (let oy = 0; oy < p.outH; oy++) {
    const baseY = oy * p.strideH - p.padH;
    m.alu(2);
    for (let ox = 0; ox < p.outW; ox++) {
      const baseX = ox * p.strideW - p.padW;
      const kerYStart = Math.max(0, -baseY);
      const kerYEnd = Math.min(kY, inY - baseY);
      m.alu(8);
      let index = 0;
      m.branch();
      if (kerYStart !== 0) {
        m.memset16Zero(col, 0, kX * ch * kerYStart);
        index += kX * ch * kerYStart;
        m.alu(3);
      }
      for (let ky = kerYStart; ky < kerYEnd; ky++) {
        const y = baseY + ky;
        for (let kx = 0; kx < kX; kx++) {
          const x = baseX + kx;
          m.alu(3);
          m.branch();
          if (x < 0 || x >= inX) {
            m.memset16Zero(col, index, ch);
          } else {
            m.alu(3);
            q7ToQ15WithOffsetEmu(m, input, (y * inX + x) * ch, col, index, ch, p.inputOffset);
          }
          index += ch;
          m.loop();
        }
        m.loop();
      }
      const diff = kY - kerYEnd;
      m.alu(1);
      m.branch();
      if (diff !== 0) m.memset16Zero(col, index, kX * ch * diff);

      let rowShift = 0;
      let rowCount = ch >> 2;
      m.alu(5);
      while (rowCount > 0) {
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        m.branch();
        if (bias !== null) {
          s0 = m.ldcW(bias, rowShift);
          s1 = m.ldcW(bias, rowShift + 1);
          s2 = m.ldcW(bias, rowShift + 2);
          s3 = m.ldcW(bias, rowShift + 3);
        }
        let cp = rowShift;
        let rp = rowShift;
        let colCount = taps >> 1;
        m.alu(4);
        while (colCount > 0) {
          let ipB1 = m.ldcS8x4(kernel, rp);
          let ipA1 = m.ldcS8x4(kernel, rp + ch);
          let opA = m.ldQ15x2(col, cp);
          let opB = m.ldQ15x2(col, cp + ch);
          const ipA2 = m.sxtb16(ipB1);
          ipB1 = m.sxtb16Ror8(ipB1);
          const ipB2 = m.sxtb16(ipA1);
          ipA1 = m.sxtb16Ror8(ipA1);
          let opC = m.pkhbt(opB, opA, 16);
          opA = m.pkhtb(opB, opA, 16);
          opB = m.pkhbt(ipB2, ipA2, 16);
          s0 = m.smlad(opC, opB, s0);
          opB = m.pkhbt(ipB1, ipA1, 16);
          s1 = m.smlad(opA, opB, s1);
          opA = m.ldQ15x2(col, cp + 2);
          opB = m.ldQ15x2(col, cp + ch + 2);
          opC = m.pkhbt(opB, opA, 16);
          opA = m.pkhtb(opB, opA, 16);
          opB = m.pkhtb(ipA2, ipB2, 16);
          s2 = m.smlad(opC, opB, s2);
          opB = m.pkhtb(ipA1, ipB1, 16);
          s3 = m.smlad(opA, opB, s3);
          rp += ch << 1;
          cp += ch << 1;
          m.alu(2);
          m.loop();
          colCount--;
        }
        m.alu(1);
        if (taps & 1) {
          s0 = m.mla(m.ldcS8(kernel, rp), m.ldS16(col, cp), s0);
          s1 = m.mla(m.ldcS8(kernel, rp + 1), m.ldS16(col, cp + 1), s1);
          s2 = m.mla(m.ldcS8(kernel, rp + 2), m.ldS16(col, cp + 2), s2);
          s3 = m.mla(m.ldcS8(kernel, rp + 3), m.ldS16(col, cp + 3), s3);
          m.alu(2);
          m.loop();
        }
        storeEmu(m, p, s0, rowShift, output, outIdx++);
        storeEmu(m, p, s1, rowShift + 1, output, outIdx++);
        storeEmu(m, p, s2, rowShift + 2, output, outIdx++);
        storeEmu(m, p, s3, rowShift + 3, output, outIdx++);
        rowShift += 4;
        m.alu(1);
        m.loop();
        rowCount--;
      }
      rowCount = ch & 3;
      while (rowCount > 0) {
        let s = 0;
        m.branch();
        if (bias !== null) s = m.ldcW(bias, rowShift);
        m.alu(3);
        for (let i = 0; i < taps; i++) {
          s = m.mla(m.ldcS8(kernel, rowShift + i * ch), m.ldS16(col, rowShift + i * ch), s);
          m.alu(2);
          m.loop();
        }
        storeEmu(m, p, s, rowShift, output, outIdx++);
        rowShift++;
        m.loop();
        rowCount--;
      }
      m.loop();
    }
    m.loop();
  }
}
