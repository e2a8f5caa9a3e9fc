/**
 * arm_fully_connected_s8 and its core arm_nn_vec_mat_mult_t_s8 (one input vector times the transposed
 * weight matrix, per batch), plus arm_vector_sum_s8 (the weight-row sums).
 *
 * Two row-pair formulations, both 2 weight rows per pass, 4 columns per step:
 * - DSP build (no kernel sums): the input word is widened with SXTAB16 / SXTAB16 ROR #8, adding the input
 *   offset on the fly; weights with SXTB16 / SXTB16 ROR #8; 4 SMLADs per 4 columns of two rows.
 * - kernel sums (the Helium build's formulation, which TFLM's kernel prepares for whenever CMSIS-NN asks
 *   for a buffer): `input_offset * sum(row)` is precomputed per row (arm_vector_sum_s8) and folded into the
 *   accumulator with the bias, so the input is widened with plain SXTB16.
 * Both give `bias + sum((x + input_offset) * w)` modulo 2^32, i.e. TFLM's result.
 */
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';

/** Arguments of one FULLY_CONNECTED node (bound in prepare / invoke, reused). */
export interface FullyConnectedArgs {
  batches: number;
  /** rhs_cols: accumulation depth. */
  depth: number;
  /** rhs_rows: output depth. */
  rows: number;
  lhsOffset: number;
  dstOffset: number;
  multiplier: number;
  shift: number;
  actMin: number;
  actMax: number;
  /** Weight-row sums (kernel-sum formulation) or null (DSP formulation). */
  kernelSums: Int32Array | null;
}

function finish(acc: number, g: FullyConnectedArgs): number {
  return requantizeClamp(acc, g.multiplier, g.shift, g.dstOffset, g.actMin, g.actMax);
}

/** arm_vector_sum_s8 (non-MVE): `buf[r] = (bias ? bias[r] : 0) + lhsOffset * sum(row r)`. */
export function vectorSumS8Fast(
  buf: Int32Array,
  cols: number,
  rows: number,
  data: Int8Array,
  lhsOffset: number,
  bias: Int32Array | null,
): void {
  for (let r = 0; r < rows; r++) buf[r] = bias !== null ? bias[r]! : 0;
  if (lhsOffset === 0) return;
  let k = 0;
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += data[k++]!;
    buf[r] = (buf[r]! + Math.imul(sum, lhsOffset)) | 0;
  }
}

/** arm_vector_sum_s8, emulated. */
export function vectorSumS8Emu(
  m: SimdMachine,
  buf: Int32Array,
  cols: number,
  rows: number,
  data: Int8Array,
  lhsOffset: number,
  bias: Int32Array | null,
): void {
  m.call();
  m.branch();
  for (let r = 0; r < rows; r++) {
    m.stW(buf, r, bias !== null ? m.ldcW(bias, r) : 0);
    m.loop();
  }
  m.branch();
  if (lhsOffset === 0) return;
  let k = 0;
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < cols; c++) {
      sum = m.add(sum, m.ldcS8(data, k++));
      m.loop();
    }
    m.stW(buf, r, m.add(m.ldW(buf, r), m.mul(sum, lhsOffset)));
    m.loop();
  }
}

/** arm_fully_connected_s8 over all batches, fast mode. */
export function fullyConnectedS8Fast(
  g: FullyConnectedArgs,
  input: Int8Array,
  weights: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  const cols = g.depth;
  const rows = g.rows;
  const sums = g.kernelSums;
  const off = g.lhsOffset;
  for (let b = 0; b < g.batches; b++) {
    const lhs = b * cols;
    const dstBase = b * rows;
    let rhs = 0;
    let r = 0;
    for (; r + 1 < rows; r += 2) {
      let a0 = bias !== null ? bias[r]! : 0;
      let a1 = bias !== null ? bias[r + 1]! : 0;
      const lo = sums !== null ? 0 : off; // offset added to each input element
      if (sums !== null) {
        a0 = (a0 + Math.imul(sums[r]!, off)) | 0;
        a1 = (a1 + Math.imul(sums[r + 1]!, off)) | 0;
      }
      const r1 = rhs + cols;
      let j = 0;
      for (; j + 4 <= cols; j += 4) {
        const x0 = input[lhs + j]! + lo,
          x1 = input[lhs + j + 1]! + lo,
          x2 = input[lhs + j + 2]! + lo,
          x3 = input[lhs + j + 3]! + lo;
        a0 = (a0 + x1 * weights[rhs + j + 1]! + x3 * weights[rhs + j + 3]! + x0 * weights[rhs + j]! + x2 * weights[rhs + j + 2]!) | 0;
        a1 = (a1 + x1 * weights[r1 + j + 1]! + x3 * weights[r1 + j + 3]! + x0 * weights[r1 + j]! + x2 * weights[r1 + j + 2]!) | 0;
      }
      for (; j < cols; j++) {
        const x = input[lhs + j]! + lo;
        a0 = (a0 + x * weights[rhs + j]!) | 0;
        a1 = (a1 + x * weights[r1 + j]!) | 0;
      }
      output[dstBase + r] = finish(a0, g);
      output[dstBase + r + 1] = finish(a1, g);
      rhs += 2 * cols;
    }
    if (rows & 1) {
      let a0 = bias !== null ? bias[r]! : 0;
      const lo = sums !== null ? 0 : off;
      if (sums !== null) a0 = (a0 + Math.imul(sums[r]!, off)) | 0;
      let j = 0;
      for (; j + 4 <= cols; j += 4) {
        const x0 = input[lhs + j]! + lo,
          x1 = input[lhs + j + 1]! + lo,
          x2 = input[lhs + j + 2]! + lo,
          x3 = input[lhs + j + 3]! + lo;
        a0 = (a0 + x1 * weights[rhs + j + 1]! + x3 * weights[rhs + j + 3]! + (x0 * weights[rhs + j]! + x2 * weights[rhs + j + 2]!)) | 0;
      }
      for (; j < cols; j++) a0 = (a0 + (input[lhs + j]! + lo) * weights[rhs + j]!) | 0;
      output[dstBase + r] = finish(a0, g);
    }
  }
}

function storeEmu(m: SimdMachine, g: FullyConnectedArgs, acc: number, output: Int8Array, idx: number): void {
  let r = m.add(m.requantize(acc, g.multiplier, g.shift), g.dstOffset);
  r = m.max(r, g.actMin);
  r = m.min(r, g.actMax);
  m.stB(output, idx, r);
}

/** arm_fully_connected_s8 over all batches, emulated. */
export function fullyConnectedS8Emu(
  m: SimdMachine,
  g: FullyConnectedArgs,
  input: Int8Array,
  weights: Int8Array,
  bias: Int32Array | null,
  output: Int8Array,
): void {
  m.call(); // arm_fully_connected_s8
  m.alu(2);
  const cols = g.depth;
  const rows = g.rows;
  const sums = g.kernelSums;
  const off = g.lhsOffset;
  for (let b = 0; b < g.batches; b++) {
    m.call(); // arm_nn_vec_mat_mult_t_s8
    const lhs = b * cols;
    const dstBase = b * rows;
    const offX2 = m.pkhbt(off, off, 16);
    m.alu(3);
    let rhs = 0;
    let r = 0;
    for (; r + 1 < rows; r += 2) {
      let a0 = 0;
      let a1 = 0;
      m.branch();
      if (bias !== null) {
        a0 = m.ldcW(bias, r);
        a1 = m.ldcW(bias, r + 1);
      }
      if (sums !== null) {
        a0 = m.mla(m.ldW(sums, r), off, a0);
        a1 = m.mla(m.ldW(sums, r + 1), off, a1);
      }
      const r1 = rhs + cols;
      m.alu(3);
      let j = 0;
      for (; j + 4 <= cols; j += 4) {
        let vec0 = m.ldS8x4(input, lhs + j);
        let vec1: number;
        if (sums !== null) {
          vec1 = m.sxtb16Ror8(vec0);
          vec0 = m.sxtb16(vec0);
        } else {
          vec1 = m.sxtab16Ror8(offX2, vec0);
          vec0 = m.sxtab16(offX2, vec0);
        }
        let ker0 = m.ldcS8x4(weights, rhs + j);
        let ker1 = m.sxtb16Ror8(ker0);
        ker0 = m.sxtb16(ker0);
        a0 = m.smlad(ker1, vec1, a0);
        a0 = m.smlad(ker0, vec0, a0);
        ker0 = m.ldcS8x4(weights, r1 + j);
        ker1 = m.sxtb16Ror8(ker0);
        ker0 = m.sxtb16(ker0);
        a1 = m.smlad(ker1, vec1, a1);
        a1 = m.smlad(ker0, vec0, a1);
        m.alu(3);
        m.loop();
      }
      for (; j < cols; j++) {
        const x = sums !== null ? m.ldS8(input, lhs + j) : m.add(m.ldS8(input, lhs + j), off);
        a0 = m.mla(x, m.ldcS8(weights, rhs + j), a0);
        a1 = m.mla(x, m.ldcS8(weights, r1 + j), a1);
        m.alu(3);
        m.loop();
      }
      storeEmu(m, g, a0, output, dstBase + r);
      storeEmu(m, g, a1, output, dstBase + r + 1);
      rhs += 2 * cols;
      m.alu(2);
      m.loop();
    }
    m.branch();
    if (rows & 1) {
      let a0 = 0;
      m.branch();
      if (bias !== null) a0 = m.ldcW(bias, r);
      if (sums !== null) a0 = m.mla(m.ldW(sums, r), off, a0);
      let j = 0;
      for (; j + 4 <= cols; j += 4) {
        let vec0 = m.ldS8x4(input, lhs + j);
        let vec1: number;
        if (sums !== null) {
          vec1 = m.sxtb16Ror8(vec0);
          vec0 = m.sxtb16(vec0);
        } else {
          vec1 = m.sxtab16Ror8(offX2, vec0);
          vec0 = m.sxtab16(offX2, vec0);
        }
        let ker0 = m.ldcS8x4(weights, rhs + j);
        const ker1 = m.sxtb16Ror8(ker0);
        ker0 = m.sxtb16(ker0);
        a0 = m.smlad(ker1, vec1, a0);
        a0 = m.smlad(ker0, vec0, a0);
        m.alu(2);
        m.loop();
      }
      for (; j < cols; j++) {
        const x = sums !== null ? m.ldS8(input, lhs + j) : m.add(m.ldS8(input, lhs + j), off);
        a0 = m.mla(x, m.ldcS8(weights, rhs + j), a0);
        m.alu(2);
        m.loop();
      }
      storeEmu(m, g, a0, output, dstBase + r);
    }
    m.loop();
  }
}
