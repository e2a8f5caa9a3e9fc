/**
 * arm_elementwise_add_s8 (DSP build): four elements per step. Each input word is widened with
 * read_and_pad_reordered (bytes 0/2 and 1/3), the input offsets are added to both halfwords with SADD16,
 * and each of the four sums is computed as TFLM's quantized ADD: both operands shifted left by
 * `left_shift` (20), rescaled with arm_nn_requantize, added, rescaled to the output, offset and clamped.
 * The low halfword is taken as `(h & 0xFFFF) << left_shift`, exactly as CMSIS-NN (with left_shift >= 16
 * the masked bits fall off the word). Leftover elements are scalar.
 */
import { requantizeFast } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';

/** Parameters of one ADD node (TFLM's OpDataAdd for int8). */
export interface AddParams {
  size: number;
  in1Offset: number;
  in1Mult: number;
  in1Shift: number;
  in2Offset: number;
  in2Mult: number;
  in2Shift: number;
  leftShift: number;
  outOffset: number;
  outMult: number;
  outShift: number;
  actMin: number;
  actMax: number;
}

function addOne(g: AddParams, s1: number, s2: number): number {
  const a = requantizeFast(s1, g.in1Mult, g.in1Shift);
  const b = requantizeFast(s2, g.in2Mult, g.in2Shift);
  let sum = requantizeFast((a + b) | 0, g.outMult, g.outShift) + g.outOffset;
  sum = sum > g.actMin ? sum : g.actMin;
  return sum < g.actMax ? sum : g.actMax;
}

/** Fast mode. */
export function elementwiseAddS8Fast(g: AddParams, in1: Int8Array, in2: Int8Array, out: Int8Array): void {
  const ls = g.leftShift;
  const o1 = g.in1Offset;
  const o2 = g.in2Offset;
  let i = 0;
  for (; i + 4 <= g.size; i += 4) {
    for (let k = 0; k < 4; k++) out[i + k] = addOne(g, ((in1[i + k]! + o1) & 0xffff) << ls, ((in2[i + k]! + o2) & 0xffff) << ls);
  }
  for (; i < g.size; i++) out[i] = addOne(g, (in1[i]! + o1) << ls, (in2[i]! + o2) << ls);
}

function sumEmu(m: SimdMachine, g: AddParams, s1: number, s2: number): number {
  const a = m.requantize(s1, g.in1Mult, g.in1Shift);
  const b = m.requantize(s2, g.in2Mult, g.in2Shift);
  let sum = m.add(m.requantize(m.add(a, b), g.outMult, g.outShift), g.outOffset);
  sum = m.max(sum, g.actMin);
  return m.min(sum, g.actMax);
}

/** Emulated mode. `w` is a 2-element scratch for read_and_pad_reordered. */
export function elementwiseAddS8Emu(m: SimdMachine, g: AddParams, in1: Int8Array, in2: Int8Array, out: Int8Array): void {
  m.call();
  const ls = g.leftShift;
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
    m.alu(8); // halfword extraction and left shifts
    const r1 = sumEmu(m, g, (b1 & 0xffff) << ls, (b2 & 0xffff) << ls);
    const r3 = sumEmu(m, g, ((b1 >> 16) & 0xffff) << ls, ((b2 >> 16) & 0xffff) << ls);
    const r2 = sumEmu(m, g, (a1 & 0xffff) << ls, (a2 & 0xffff) << ls);
    const r4 = sumEmu(m, g, ((a1 >> 16) & 0xffff) << ls, ((a2 >> 16) & 0xffff) << ls);
    m.alu(6); // PACK_S8x4_32x1
    m.stS8x4(out, i, (r1 & 0xff) | ((r2 & 0xff) << 8) | ((r3 & 0xff) << 16) | (r4 << 24));
    m.loop();
  }
  for (; i < g.size; i++) {
    const s1 = m.add(m.ldS8(in1, i), g.in1Offset) << ls;
    const s2 = m.add(m.ldS8(in2, i), g.in2Offset) << ls;
    m.alu(2);
    m.stB(out, i, sumEmu(m, g, s1, s2));
    m.loop();
  }
}
