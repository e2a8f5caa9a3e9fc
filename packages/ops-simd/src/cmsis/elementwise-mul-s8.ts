/**
 * arm_elementwise_mul_s8 (DSP build): four elements per step. Both input words are widened with
 * read_and_pad_reordered, offset with SADD16, multiplied halfword by halfword with SMULBB / SMULTT and
 * each product requantized (arm_nn_requantize), offset and clamped, as TFLM's quantized MUL. Leftover
 * elements are scalar.
 */
import { requantizeFast } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';

/** Parameters of one MUL node (TFLM's OpDataMul for int8). */
export interface MulParams {
  size: number;
  in1Offset: number;
  in2Offset: number;
  outOffset: number;
  outMult: number;
  outShift: number;
  actMin: number;
  actMax: number;
}

/** Fast mode. */
export function elementwiseMulS8Fast(g: MulParams, in1: Int8Array, in2: Int8Array, out: Int8Array): void {
  for (let i = 0; i < g.size; i++) {
    let r = requantizeFast(Math.imul(in1[i]! + g.in1Offset, in2[i]! + g.in2Offset), g.outMult, g.outShift) + g.outOffset;
    r = r > g.actMin ? r : g.actMin;
    out[i] = r < g.actMax ? r : g.actMax;
  }
}

function finishEmu(m: SimdMachine, g: MulParams, product: number): number {
  let r = m.add(m.requantize(product, g.outMult, g.outShift), g.outOffset);
  r = m.max(r, g.actMin);
  return m.min(r, g.actMax);
}

/** Emulated mode. */
export function elementwiseMulS8Emu(m: SimdMachine, g: MulParams, in1: Int8Array, in2: Int8Array, out: Int8Array): void {
  m.call();
  m.alu(4);
  const off1 = (g.in1Offset << 16) | (g.in1Offset & 0xffff);
  const off2 = (g.in2Offset << 16) | (g.in2Offset & 0xffff);
  let i = 0;
  for (; i + 4 <= g.size; i += 4) {
    const w1 = m.ldS8x4(in1, i);
    let a1 = m.sxtb16Ror8(w1);
    let b1 = m.sxtb16(w1);
    const w2 = m.ldS8x4(in2, i);
    let a2 = m.sxtb16Ror8(w2);
    let b2 = m.sxtb16(w2);
    a1 = m.sadd16(a1, off1);
    b1 = m.sadd16(b1, off1);
    a2 = m.sadd16(a2, off2);
    b2 = m.sadd16(b2, off2);
    const r1 = finishEmu(m, g, m.smulbb(b1, b2));
    const r3 = finishEmu(m, g, m.smultt(b1, b2));
    const r2 = finishEmu(m, g, m.smulbb(a1, a2));
    const r4 = finishEmu(m, g, m.smultt(a1, a2));
    m.alu(6); // PACK_S8x4_32x1
    m.stS8x4(out, i, (r1 & 0xff) | ((r2 & 0xff) << 8) | ((r3 & 0xff) << 16) | (r4 << 24));
    m.loop();
  }
  for (; i < g.size; i++) {
    const x = m.add(m.ldS8(in1, i), g.in1Offset);
    const y = m.add(m.ldS8(in2, i), g.in2Offset);
    m.stB(out, i, finishEmu(m, g, m.mul(x, y)));
    m.loop();
  }
}
