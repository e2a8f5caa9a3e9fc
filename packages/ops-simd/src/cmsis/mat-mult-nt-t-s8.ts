/**
 * arm_nn_mat_mult_nt_t_s8 (DSP build): `dst = requant(lhs x rhs^T + bias)` with int8 lhs (activations,
 * one row per output position, `lhsColsOffset` apart) and int8 rhs (weights, one row per output
 * channel). Used by the 1x1 convolutions (and FULLY_CONNECTED shaped like one).
 *
 * Blocking is 2x2 as in the im2col kernel, but on int8 data: for each pair of rhs rows the input-offset
 * contribution `lhs_offset * sum(rhs row) + bias` is computed once, then each pair of lhs rows is
 * accumulated four columns at a time: one word of each of the four rows, SXTB16 / SXTB16 ROR #8 on each
 * (even and odd bytes), eight SMLADs. The column loop is unrolled by 16 as in CMSIS-NN. An odd last rhs
 * row is done with plain scalar MLAs, again as in CMSIS-NN. Output rows are `rhsRows` apart.
 */
import { requantizeClamp } from './requantize-fast.js';
import type { SimdMachine } from '../machine.js';
import type { MatMulQuant } from './types.js';

/** Arguments (one reusable block per node; fields are rebound before each call). */
export interface MatMultNtTArgs {
  q: MatMulQuant;
  lhs: Int8Array;
  lhsBase: number;
  rhs: Int8Array;
  bias: Int32Array | null;
  dst: Int8Array;
  dstBase: number;
  lhsRows: number;
  rhsRows: number;
  rhsCols: number;
  /** Distance between consecutive lhs rows (rhsCols, or rhsCols * stride for strided 1x1). */
  lhsColsOffset: number;
  /** Four accumulators used by the emulated block helpers. */
  acc: Int32Array;
  /**
   * Fast mode word access (see word-view.ts): views covering `lhs` and `rhs`, and the byte offsets of
   * `lhs[0]` / `rhs[0]` in them, or -1 to run the byte loops.
   */
  lhsView: DataView | null;
  lhsViewBase: number;
  rhsView: DataView | null;
  rhsViewBase: number;
}

/** Creates an argument block for `q`. */
export function newMatMultNtTArgs(q: MatMulQuant): MatMultNtTArgs {
  const none = new Int8Array(0);
  return {
    q,
    lhs: none,
    lhsBase: 0,
    rhs: none,
    bias: null,
    dst: none,
    dstBase: 0,
    lhsRows: 0,
    rhsRows: 0,
    rhsCols: 0,
    lhsColsOffset: 0,
    acc: new Int32Array(4),
    lhsView: null,
    lhsViewBase: -1,
    rhsView: null,
    rhsViewBase: -1,
  };
}

/**
 * Fast mode: the word version when both operands are viewable (4-byte reads as arm_nn_read_s8x4 does),
 * else the byte version.
 */
export function matMultNtTS8Fast(g: MatMultNtTArgs): void {
  if (g.lhsViewBase >= 0 && g.rhsViewBase >= 0) matMultNtTS8Words(g);
  else matMultNtTS8Bytes(g);
}

/**
 * Fast mode with word reads, CMSIS-NN's blocking exactly: per pair of rhs rows, pairs of lhs rows
 * (2 x 2 accumulators), columns 16 at a time (four 4-column steps), then 4 at a time, then one by one;
 * an odd last lhs row with the 1 x 2 step; an odd last rhs row scalar. Within a 4-column step the
 * words are read in CMSIS-NN's order (rhs row 0, lhs row 0, rhs row 1, lhs row 1) with
 * arm_nn_read_s8x4-style DataView reads, and SXTB16 / SXTB16 ROR #8 + SMLAD become sign-extending
 * shifts and multiply-adds summed in the same pairs (even bytes, then odd bytes).
 */
function matMultNtTS8Words(g: MatMultNtTArgs): void {
  const q = g.q;
  const lhs = g.lhs;
  const rhs = g.rhs;
  const lv = g.lhsView!;
  const rv = g.rhsView!;
  const lvb = g.lhsViewBase;
  const rvb = g.rhsViewBase;
  const bias = g.bias;
  const dst = g.dst;
  const lhsRows = g.lhsRows;
  const rhsRows = g.rhsRows;
  const rhsCols = g.rhsCols;
  const lco = g.lhsColsOffset;
  const lhsOffset = q.lhsOffset;
  const multiplier = q.multiplier;
  const shift = q.shift;
  const dstOffset = q.dstOffset;
  const actMin = q.actMin;
  const actMax = q.actMax;
  let rhsIdx = 0;
  let dstIdx = g.dstBase;
  let rr = 0;
  for (; rr <= rhsRows - 2; rr += 2) {
    let c0 = 0;
    let c1 = 0;
    for (let x = 0; x < rhsCols; x++) {
      c0 += rhs[rhsIdx + x]!;
      c1 += rhs[rhsIdx + x + rhsCols]!;
    }
    c0 = Math.imul(c0, lhsOffset);
    c1 = Math.imul(c1, lhsOffset);
    if (bias !== null) {
      c0 = (c0 + bias[rr]!) | 0;
      c1 = (c1 + bias[rr + 1]!) | 0;
    }
    const m0 = multiplier[rr]!;
    const s0 = shift[rr]!;
    const m1 = multiplier[rr + 1]!;
    const s1 = shift[rr + 1]!;
    const ra0 = rvb + rhsIdx; // rhs row 0 in its view; row 1 is rhsCols further
    let lp = g.lhsBase;
    let dp = dstIdx;
    for (let pairs = lhsRows >> 1; pairs > 0; pairs--) {
      let r00 = c0;
      let r01 = c1;
      let r10 = c0;
      let r11 = c1;
      let ra = ra0;
      let la = lvb + lp;
      let col = 0;
      for (; col <= rhsCols - 16; col += 16) {
        for (let end = la + 16; la < end; la += 4, ra += 4) {
          const a = rv.getInt32(ra, true);
          const l = lv.getInt32(la, true);
          const b = rv.getInt32(ra + rhsCols, true);
          const k = lv.getInt32(la + lco, true);
          const a0 = (a << 24) >> 24,
            a2 = (a << 8) >> 24,
            a1 = (a << 16) >> 24,
            a3 = a >> 24;
          const l0 = (l << 24) >> 24,
            l2 = (l << 8) >> 24,
            l1 = (l << 16) >> 24,
            l3 = l >> 24;
          const b0 = (b << 24) >> 24,
            b2 = (b << 8) >> 24,
            b1 = (b << 16) >> 24,
            b3 = b >> 24;
          const k0 = (k << 24) >> 24,
            k2 = (k << 8) >> 24,
            k1 = (k << 16) >> 24,
            k3 = k >> 24;
          r00 = (r00 + l0 * a0 + l2 * a2 + (l1 * a1 + l3 * a3)) | 0;
          r01 = (r01 + l0 * b0 + l2 * b2 + (l1 * b1 + l3 * b3)) | 0;
          r10 = (r10 + k0 * a0 + k2 * a2 + (k1 * a1 + k3 * a3)) | 0;
          r11 = (r11 + k0 * b0 + k2 * b2 + (k1 * b1 + k3 * b3)) | 0;
        }
      }
      for (; col <= rhsCols - 4; col += 4, la += 4, ra += 4) {
        const a = rv.getInt32(ra, true);
        const l = lv.getInt32(la, true);
        const b = rv.getInt32(ra + rhsCols, true);
        const k = lv.getInt32(la + lco, true);
        const a0 = (a << 24) >> 24,
          a2 = (a << 8) >> 24,
          a1 = (a << 16) >> 24,
          a3 = a >> 24;
        const l0 = (l << 24) >> 24,
          l2 = (l << 8) >> 24,
          l1 = (l << 16) >> 24,
          l3 = l >> 24;
        const b0 = (b << 24) >> 24,
          b2 = (b << 8) >> 24,
          b1 = (b << 16) >> 24,
          b3 = b >> 24;
        const k0 = (k << 24) >> 24,
          k2 = (k << 8) >> 24,
          k1 = (k << 16) >> 24,
          k3 = k >> 24;
        r00 = (r00 + l0 * a0 + l2 * a2 + (l1 * a1 + l3 * a3)) | 0;
        r01 = (r01 + l0 * b0 + l2 * b2 + (l1 * b1 + l3 * b3)) | 0;
        r10 = (r10 + k0 * a0 + k2 * a2 + (k1 * a1 + k3 * a3)) | 0;
        r11 = (r11 + k0 * b0 + k2 * b2 + (k1 * b1 + k3 * b3)) | 0;
      }
      for (let li = lp + col, ri = rhsIdx + col; col < rhsCols; col++, li++, ri++) {
        const a = rhs[ri]!;
        const b = rhs[ri + rhsCols]!;
        const l = lhs[li]!;
        const k = lhs[li + lco]!;
        r00 = (r00 + l * a) | 0;
        r01 = (r01 + l * b) | 0;
        r10 = (r10 + k * a) | 0;
        r11 = (r11 + k * b) | 0;
      }
      dst[dp] = requantizeClamp(r00, m0, s0, dstOffset, actMin, actMax);
      dst[dp + 1] = requantizeClamp(r01, m1, s1, dstOffset, actMin, actMax);
      dp += rhsRows;
      dst[dp] = requantizeClamp(r10, m0, s0, dstOffset, actMin, actMax);
      dst[dp + 1] = requantizeClamp(r11, m1, s1, dstOffset, actMin, actMax);
      dp += rhsRows;
      lp += 2 * lco;
    }
    if (lhsRows % 2) {
      let r00 = c0;
      let r01 = c1;
      let ra = ra0;
      let la = lvb + lp;
      let col = 0;
      for (; col <= rhsCols - 16; col += 16) {
        for (let end = la + 16; la < end; la += 4, ra += 4) {
          const a = rv.getInt32(ra, true);
          const b = rv.getInt32(ra + rhsCols, true);
          const l = lv.getInt32(la, true);
          const l0 = (l << 24) >> 24,
            l2 = (l << 8) >> 24,
            l1 = (l << 16) >> 24,
            l3 = l >> 24;
          r00 = (r00 + l0 * ((a << 24) >> 24) + l2 * ((a << 8) >> 24) + (l1 * ((a << 16) >> 24) + l3 * (a >> 24))) | 0;
          r01 = (r01 + l0 * ((b << 24) >> 24) + l2 * ((b << 8) >> 24) + (l1 * ((b << 16) >> 24) + l3 * (b >> 24))) | 0;
        }
      }
      for (; col <= rhsCols - 4; col += 4, la += 4, ra += 4) {
        const a = rv.getInt32(ra, true);
        const b = rv.getInt32(ra + rhsCols, true);
        const l = lv.getInt32(la, true);
        const l0 = (l << 24) >> 24,
          l2 = (l << 8) >> 24,
          l1 = (l << 16) >> 24,
          l3 = l >> 24;
        r00 = (r00 + l0 * ((a << 24) >> 24) + l2 * ((a << 8) >> 24) + (l1 * ((a << 16) >> 24) + l3 * (a >> 24))) | 0;
        r01 = (r01 + l0 * ((b << 24) >> 24) + l2 * ((b << 8) >> 24) + (l1 * ((b << 16) >> 24) + l3 * (b >> 24))) | 0;
      }
      for (let li = lp + col, ri = rhsIdx + col; col < rhsCols; col++, li++, ri++) {
        const l = lhs[li]!;
        r00 = (r00 + l * rhs[ri]!) | 0;
        r01 = (r01 + l * rhs[ri + rhsCols]!) | 0;
      }
      dst[dp] = requantizeClamp(r00, m0, s0, dstOffset, actMin, actMax);
      dst[dp + 1] = requantizeClamp(r01, m1, s1, dstOffset, actMin, actMax);
    }
    rhsIdx += 2 * rhsCols;
    dstIdx += 2;
  }
  if (rhsRows % 2) lastRhsRowFast(g, rhsIdx, dstIdx);
}

/** The odd last rhs row (both fast variants): scalar MLAs with the offset added to each lhs value. */
function lastRhsRowFast(g: MatMultNtTArgs, rhsIdx: number, dstIdx: number): void {
  const q = g.q;
  const lhs = g.lhs;
  const rhs = g.rhs;
  const rhsCols = g.rhsCols;
  const lhsOffset = q.lhsOffset;
  const last = g.rhsRows - 1;
  const m = q.multiplier[last]!;
  const s = q.shift[last]!;
  let lp = g.lhsBase;
  let dp = dstIdx;
  for (let row = 0; row < g.lhsRows; row++) {
    let r = g.bias !== null ? g.bias[last]! : 0;
    for (let col = 0; col < rhsCols; col++) r = (r + Math.imul((lhs[lp + col]! + lhsOffset) | 0, rhs[rhsIdx + col]!)) | 0;
    g.dst[dp] = requantizeClamp(r, m, s, q.dstOffset, q.actMin, q.actMax);
    lp += g.lhsColsOffset;
    dp += g.rhsRows;
  }
}

/**
 * Fast mode, byte by byte (operands outside the viewed buffers): the word version's loops with each word
 * read as its four bytes.
 */
function matMultNtTS8Bytes(g: MatMultNtTArgs): void {
  const q = g.q;
  const lhs = g.lhs;
  const rhs = g.rhs;
  const bias = g.bias;
  const dst = g.dst;
  const lhsRows = g.lhsRows;
  const rhsRows = g.rhsRows;
  const rhsCols = g.rhsCols;
  const lco = g.lhsColsOffset;
  const lhsOffset = q.lhsOffset;
  const multiplier = q.multiplier;
  const shift = q.shift;
  const dstOffset = q.dstOffset;
  const actMin = q.actMin;
  const actMax = q.actMax;
  let rhsIdx = 0;
  let dstIdx = g.dstBase;
  let rr = 0;
  for (; rr <= rhsRows - 2; rr += 2) {
    let c0 = 0;
    let c1 = 0;
    for (let x = 0; x < rhsCols; x++) {
      c0 += rhs[rhsIdx + x]!;
      c1 += rhs[rhsIdx + x + rhsCols]!;
    }
    c0 = Math.imul(c0, lhsOffset);
    c1 = Math.imul(c1, lhsOffset);
    if (bias !== null) {
      c0 = (c0 + bias[rr]!) | 0;
      c1 = (c1 + bias[rr + 1]!) | 0;
    }
    const m0 = multiplier[rr]!;
    const s0 = shift[rr]!;
    const m1 = multiplier[rr + 1]!;
    const s1 = shift[rr + 1]!;
    let lp = g.lhsBase;
    let dp = dstIdx;
    for (let pairs = lhsRows >> 1; pairs > 0; pairs--) {
      let r00 = c0;
      let r01 = c1;
      let r10 = c0;
      let r11 = c1;
      let rp = rhsIdx;
      let li = lp;
      let col = 0;
      for (; col <= rhsCols - 16; col += 16) {
        for (let end = li + 16; li < end; li += 4, rp += 4) {
          const a0 = rhs[rp]!,
            a1 = rhs[rp + 1]!,
            a2 = rhs[rp + 2]!,
            a3 = rhs[rp + 3]!;
          const l0 = lhs[li]!,
            l1 = lhs[li + 1]!,
            l2 = lhs[li + 2]!,
            l3 = lhs[li + 3]!;
          const b0 = rhs[rp + rhsCols]!,
            b1 = rhs[rp + rhsCols + 1]!,
            b2 = rhs[rp + rhsCols + 2]!,
            b3 = rhs[rp + rhsCols + 3]!;
          const k0 = lhs[li + lco]!,
            k1 = lhs[li + lco + 1]!,
            k2 = lhs[li + lco + 2]!,
            k3 = lhs[li + lco + 3]!;
          r00 = (r00 + l0 * a0 + l2 * a2 + (l1 * a1 + l3 * a3)) | 0;
          r01 = (r01 + l0 * b0 + l2 * b2 + (l1 * b1 + l3 * b3)) | 0;
          r10 = (r10 + k0 * a0 + k2 * a2 + (k1 * a1 + k3 * a3)) | 0;
          r11 = (r11 + k0 * b0 + k2 * b2 + (k1 * b1 + k3 * b3)) | 0;
        }
      }
      for (; col <= rhsCols - 4; col += 4, li += 4, rp += 4) {
        const a0 = rhs[rp]!,
          a1 = rhs[rp + 1]!,
          a2 = rhs[rp + 2]!,
          a3 = rhs[rp + 3]!;
        const l0 = lhs[li]!,
          l1 = lhs[li + 1]!,
          l2 = lhs[li + 2]!,
          l3 = lhs[li + 3]!;
        const b0 = rhs[rp + rhsCols]!,
          b1 = rhs[rp + rhsCols + 1]!,
          b2 = rhs[rp + rhsCols + 2]!,
          b3 = rhs[rp + rhsCols + 3]!;
        const k0 = lhs[li + lco]!,
          k1 = lhs[li + lco + 1]!,
          k2 = lhs[li + lco + 2]!,
          k3 = lhs[li + lco + 3]!;
        r00 = (r00 + l0 * a0 + l2 * a2 + (l1 * a1 + l3 * a3)) | 0;
        r01 = (r01 + l0 * b0 + l2 * b2 + (l1 * b1 + l3 * b3)) | 0;
        r10 = (r10 + k0 * a0 + k2 * a2 + (k1 * a1 + k3 * a3)) | 0;
        r11 = (r11 + k0 * b0 + k2 * b2 + (k1 * b1 + k3 * b3)) | 0;
      }
      for (; col < rhsCols; col++, li++, rp++) {
        const a = rhs[rp]!;
        const b = rhs[rp + rhsCols]!;
        const l = lhs[li]!;
        const k = lhs[li + lco]!;
        r00 = (r00 + l * a) | 0;
        r01 = (r01 + l * b) | 0;
        r10 = (r10 + k * a) | 0;
        r11 = (r11 + k * b) | 0;
      }
      dst[dp] = requantizeClamp(r00, m0, s0, dstOffset, actMin, actMax);
      dst[dp + 1] = requantizeClamp(r01, m1, s1, dstOffset, actMin, actMax);
      dp += rhsRows;
      dst[dp] = requantizeClamp(r10, m0, s0, dstOffset, actMin, actMax);
      dst[dp + 1] = requantizeClamp(r11, m1, s1, dstOffset, actMin, actMax);
      dp += rhsRows;
      lp += 2 * lco;
    }
    if (lhsRows % 2) {
      let r00 = c0;
      let r01 = c1;
      let rp = rhsIdx;
      let li = lp;
      let col = 0;
      for (; col <= rhsCols - 16; col += 16) {
        for (let end = li + 16; li < end; li += 4, rp += 4) {
          const l0 = lhs[li]!,
            l1 = lhs[li + 1]!,
            l2 = lhs[li + 2]!,
            l3 = lhs[li + 3]!;
          r00 = (r00 + l0 * rhs[rp]! + l2 * rhs[rp + 2]! + (l1 * rhs[rp + 1]! + l3 * rhs[rp + 3]!)) | 0;
          r01 =
            (r01 + l0 * rhs[rp + rhsCols]! + l2 * rhs[rp + rhsCols + 2]! + (l1 * rhs[rp + rhsCols + 1]! + l3 * rhs[rp + rhsCols + 3]!)) | 0;
        }
      }
      for (; col <= rhsCols - 4; col += 4, li += 4, rp += 4) {
        const l0 = lhs[li]!,
          l1 = lhs[li + 1]!,
          l2 = lhs[li + 2]!,
          l3 = lhs[li + 3]!;
        r00 = (r00 + l0 * rhs[rp]! + l2 * rhs[rp + 2]! + (l1 * rhs[rp + 1]! + l3 * rhs[rp + 3]!)) | 0;
        r01 =
          (r01 + l0 * rhs[rp + rhsCols]! + l2 * rhs[rp + rhsCols + 2]! + (l1 * rhs[rp + rhsCols + 1]! + l3 * rhs[rp + rhsCols + 3]!)) | 0;
      }
      for (; col < rhsCols; col++, li++, rp++) {
        const l = lhs[li]!;
        r00 = (r00 + l * rhs[rp]!) | 0;
        r01 = (r01 + l * rhs[rp + rhsCols]!) | 0;
      }
      dst[dp] = requantizeClamp(r00, m0, s0, dstOffset, actMin, actMax);
      dst[dp + 1] = requantizeClamp(r01, m1, s1, dstOffset, actMin, actMax);
    }
    rhsIdx += 2 * rhsCols;
    dstIdx += 2;
  }
  if (rhsRows % 2) lastRhsRowFast(g, rhsIdx, dstIdx);
}

/** Emulated 4-column block of two lhs rows x two rhs rows: 4 loads, 8 SXTB16, 8 SMLAD. */
function blockPairEmu(
  m: SimdMachine,
  lhs: Int8Array,
  lp: number,
  lco: number,
  rhs: Int8Array,
  rp: number,
  rhsCols: number,
  acc: Int32Array,
): void {
  let val1 = m.ldcS8x4(rhs, rp);
  const val2 = m.sxtb16(val1);
  let val0 = m.ldS8x4(lhs, lp);
  let val3 = m.sxtb16(val0);
  let val4 = m.ldcS8x4(rhs, rp + rhsCols);
  val1 = m.sxtb16Ror8(val1);
  val0 = m.sxtb16Ror8(val0);
  acc[0] = m.smlad(val3, val2, acc[0]!);
  const val5 = m.sxtb16(val4);
  acc[0] = m.smlad(val0, val1, acc[0]!);
  val4 = m.sxtb16Ror8(val4);
  acc[1] = m.smlad(val3, val5, acc[1]!);
  acc[1] = m.smlad(val0, val4, acc[1]!);
  val0 = m.ldS8x4(lhs, lp + lco);
  val3 = m.sxtb16(val0);
  val0 = m.sxtb16Ror8(val0);
  acc[2] = m.smlad(val3, val2, acc[2]!);
  acc[3] = m.smlad(val3, val5, acc[3]!);
  acc[2] = m.smlad(val0, val1, acc[2]!);
  acc[3] = m.smlad(val0, val4, acc[3]!);
  m.alu(2); // post-increments
}

/** Emulated 4-column block of one lhs row x two rhs rows: 3 loads, 6 SXTB16, 4 SMLAD. */
function blockSingleEmu(m: SimdMachine, lhs: Int8Array, lp: number, rhs: Int8Array, rp: number, rhsCols: number, acc: Int32Array): void {
  let val0 = m.ldcS8x4(rhs, rp);
  let val1 = m.ldcS8x4(rhs, rp + rhsCols);
  let val2 = m.ldS8x4(lhs, lp);
  const val3 = m.sxtb16(val0);
  const val5 = m.sxtb16(val2);
  const val4 = m.sxtb16(val1);
  val0 = m.sxtb16Ror8(val0);
  val2 = m.sxtb16Ror8(val2);
  val1 = m.sxtb16Ror8(val1);
  acc[0] = m.smlad(val5, val3, acc[0]!);
  acc[0] = m.smlad(val2, val0, acc[0]!);
  acc[1] = m.smlad(val5, val4, acc[1]!);
  acc[1] = m.smlad(val2, val1, acc[1]!);
  m.alu(2);
}

function storeEmu(m: SimdMachine, q: MatMulQuant, acc: number, ch: number, dst: Int8Array, idx: number): void {
  let r = m.add(m.requantize(acc, m.ldW(q.multiplier, ch), m.ldW(q.shift, ch)), q.dstOffset);
  r = m.max(r, q.actMin);
  r = m.min(r, q.actMax);
  m.stB(dst, idx, r);
}

/** Emulated mode. */
export function matMultNtTS8Emu(m: SimdMachine, g: MatMultNtTArgs): void {
  m.call();
  const q = g.q;
  const lhs = g.lhs;
  const rhs = g.rhs;
  const bias = g.bias;
  const dst = g.dst;
  const lhsRows = g.lhsRows;
  const rhsRows = g.rhsRows;
  const rhsCols = g.rhsCols;
  const lco = g.lhsColsOffset;
  const acc = g.acc;
  let rhsIdx = 0;
  let dstIdx = g.dstBase;
  m.alu(2); // rhs_off0, lhs_off0
  let rr = 0;
  for (; rr <= rhsRows - 2; rr += 2) {
    let lp = g.lhsBase;
    let dp = dstIdx;
    let c0 = 0;
    let c1 = 0;
    m.alu(4);
    for (let x = 0; x < rhsCols; x++) {
      c0 = m.add(c0, m.ldcS8(rhs, rhsIdx + x));
      c1 = m.add(c1, m.ldcS8(rhs, rhsIdx + x + rhsCols));
      m.loop();
    }
    c0 = m.mul(c0, q.lhsOffset);
    c1 = m.mul(c1, q.lhsOffset);
    m.branch();
    if (bias !== null) {
      c0 = m.add(c0, m.ldcW(bias, rr));
      c1 = m.add(c1, m.ldcW(bias, rr + 1));
    }
    let pairs = lhsRows >> 1;
    m.alu(1);
    while (pairs > 0) {
      let rp = rhsIdx;
      acc[0] = c0;
      acc[1] = c1;
      acc[2] = c0;
      acc[3] = c1;
      m.alu(5);
      let col = 0;
      for (; col <= rhsCols - 16; col += 16) {
        blockPairEmu(m, lhs, lp, lco, rhs, rp, rhsCols, acc);
        blockPairEmu(m, lhs, lp + 4, lco, rhs, rp + 4, rhsCols, acc);
        blockPairEmu(m, lhs, lp + 8, lco, rhs, rp + 8, rhsCols, acc);
        blockPairEmu(m, lhs, lp + 12, lco, rhs, rp + 12, rhsCols, acc);
        lp += 16;
        rp += 16;
        m.loop();
      }
      for (; col <= rhsCols - 4; col += 4) {
        blockPairEmu(m, lhs, lp, lco, rhs, rp, rhsCols, acc);
        lp += 4;
        rp += 4;
        m.loop();
      }
      for (; col < rhsCols; col++) {
        const a = m.ldcS8(rhs, rp);
        const b = m.ldcS8(rhs, rp + rhsCols);
        const l = m.ldS8(lhs, lp);
        acc[0] = m.mla(l, a, acc[0]!);
        acc[1] = m.mla(l, b, acc[1]!);
        const k = m.ldS8(lhs, lp + lco);
        acc[2] = m.mla(k, a, acc[2]!);
        acc[3] = m.mla(k, b, acc[3]!);
        lp++;
        rp++;
        m.alu(2);
        m.loop();
      }
      storeEmu(m, q, acc[0]!, rr, dst, dp);
      storeEmu(m, q, acc[1]!, rr + 1, dst, dp + 1);
      dp += rhsRows;
      storeEmu(m, q, acc[2]!, rr, dst, dp);
      storeEmu(m, q, acc[3]!, rr + 1, dst, dp + 1);
      dp += rhsRows;
      lp = lp - rhsCols + 2 * lco;
      m.alu(4);
      m.loop();
      pairs--;
    }
    m.branch();
    if (lhsRows % 2) {
      let rp = rhsIdx;
      acc[0] = c0;
      acc[1] = c1;
      m.alu(3);
      let col = 0;
      for (; col <= rhsCols - 16; col += 16) {
        blockSingleEmu(m, lhs, lp, rhs, rp, rhsCols, acc);
        blockSingleEmu(m, lhs, lp + 4, rhs, rp + 4, rhsCols, acc);
        blockSingleEmu(m, lhs, lp + 8, rhs, rp + 8, rhsCols, acc);
        blockSingleEmu(m, lhs, lp + 12, rhs, rp + 12, rhsCols, acc);
        lp += 16;
        rp += 16;
        m.loop();
      }
      for (; col <= rhsCols - 4; col += 4) {
        blockSingleEmu(m, lhs, lp, rhs, rp, rhsCols, acc);
        lp += 4;
        rp += 4;
        m.loop();
      }
      for (; col < rhsCols; col++) {
        const l = m.ldS8(lhs, lp++);
        acc[0] = m.mla(l, m.ldcS8(rhs, rp), acc[0]!);
        acc[1] = m.mla(l, m.ldcS8(rhs, rp + rhsCols), acc[1]!);
        rp++;
        m.alu(1);
        m.loop();
      }
      storeEmu(m, q, acc[0]!, rr, dst, dp);
      storeEmu(m, q, acc[1]!, rr + 1, dst, dp + 1);
    }
    rhsIdx += 2 * rhsCols;
    dstIdx += 2;
    m.alu(2);
    m.loop();
  }
  m.branch();
  if (rhsRows % 2) {
    let lp = g.lhsBase;
    let dp = dstIdx;
    const last = rhsRows - 1;
    for (let row = 0; row < lhsRows; row++) {
      let rp = rhsIdx;
      let r = 0;
      m.branch();
      if (bias !== null) r = m.ldcW(bias, last);
      for (let col = 0; col < rhsCols; col++) {
        r = m.mla(m.add(m.ldS8(lhs, lp), q.lhsOffset), m.ldcS8(rhs, rp), r);
        rp++;
        lp++;
        m.alu(2);
        m.loop();
      }
      lp = lp - rhsCols + lco;
      m.alu(2);
      storeEmu(m, q, r, last, dst, dp);
      dp += rhsRows;
      m.loop();
    }
  }
}
