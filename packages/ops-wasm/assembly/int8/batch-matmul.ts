// int8 BATCH_MATMUL (TFLite reference_ops::BatchMatMul, TFLM batch_matmul.cc): per output matrix,
//   out[a][c] = clamp(MultiplyByQuantizedMultiplier(sum_k (lhs[a][k] - zp_lhs) * rhs[k][c]', M, shift) + zp_out)
// with rhs' the RHS values less their zero point. The RHS is packed (src/kernels/batch-matmul.ts) as
// int16 columns of Depth8 values (zeros past K, zero columns up to a multiple of four); two LHS rows are
// widened to int16 less the zero point (zeros past K) into the Row scratch, so every product is one lane
// of i32x4.dot_i16x8_s (|value| <= 255, a pair sums below 2^17). The int32 sums wrap as TFLite's do
// (the order of wrapping additions does not matter). A 2-row x 4-column tile: eight accumulators, reduced
// across lanes to one i32x4 per row, requantized by requantLanes (exact MultiplyByQuantizedMultiplier).
//
// int16 (qs16_bmm, zero points 0): the same packing of the RHS (its values as they are), LHS rows copied
// into the Row scratch, products widened to int64 (extmul to i32, each below 2^30 in magnitude, then
// extended), and TFLite's int16 MultiplyByQuantizedMultiplier on the int64 sum.
//
// A call (qs8_bmm_run, qs16_bmm_run) covers rows [r0, r1) of the node's output matrices stacked one after
// the other (BM Calls matrices of Rows rows), each matrix's LHS and packed RHS found in the Index table,
// with thread `tid`'s share of the Row scratch: the pool's threads split the rows (src/kernels/
// batch-matmul.ts). Every output value is one row's dot products with one column, so its bytes do not
// depend on the split.
import { threadSlot } from '../thread-slot';
import { requantLanes, narrow8, storeBytes } from './requant';
import { clamp16, requant64 } from './acc16x8';
import {
  BM_ACT_MAX,
  BM_ACT_MIN,
  BM_CALLS,
  BM_COLS,
  BM_DEPTH,
  BM_DEPTH8,
  BM_INDEX,
  BM_LHS_ROW,
  BM_LHS_STEP,
  BM_MULT16,
  BM_ROW,
  BM_ROWS,
  BM_RQ,
  BM_SHIFT16,
  BM_ZP_LHS,
  BM_ZP_OUT,
} from '../generated/abi';

/** Widens LHS row `src` (K values `step` bytes apart) to int16 less `zp` at `dst`, zeros up to `k8`. */
@inline export function widenRow(src: usize, step: usize, K: i32, k8: i32, zp: i32, dst: usize): void {
  let k = 0;
  if (step == 1) {
    const z = i16x8.splat(<i16>zp);
    for (; k + 8 <= K; k += 8) v128.store(dst + <usize>(k << 1), i16x8.sub(v128.load8x8_s(src + <usize>k), z));
  }
  for (; k < K; k++) store<i16>(dst + <usize>(k << 1), <i16>(<i32>load<i8>(src + <usize>k * step) - zp));
  for (; k < k8; k++) store<i16>(dst + <usize>(k << 1), 0);
}

/** The four lane sums of a, b, c, d as one i32x4 [sum a, sum b, sum c, sum d]. */
@inline export function sum4(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = i32x4.add(v128.shuffle<i32>(a, b, 0, 4, 1, 5), v128.shuffle<i32>(a, b, 2, 6, 3, 7));
  const cd = i32x4.add(v128.shuffle<i32>(c, d, 0, 4, 1, 5), v128.shuffle<i32>(c, d, 2, 6, 3, 7));
  return i32x4.add(v128.shuffle<i32>(ab, cd, 0, 1, 4, 5), v128.shuffle<i32>(ab, cd, 2, 3, 6, 7));
}

/** Requantizes, offsets, clamps and stores `n` (1-4) int8 outputs of one row. */
@inline function storeRow(acc: v128, rq: usize, zp: v128, lo: v128, hi: v128, dst: usize, n: i32): void {
  const q = i32x4.min_s(i32x4.max_s(i32x4.add(requantLanes(acc, rq), zp), lo), hi);
  const b = narrow8(q, q);
  if (n == 4) v128.store32_lane(dst, b, 0);
  else storeBytes(dst, b, n);
}

/**
 * Rows [r0, r1) of the stacked output matrices: for each matrix they reach, its rows among them, with its
 * LHS, packed RHS and output (int16: 2 bytes per value) and thread `tid`'s Row scratch.
 */
function bmmRun(pp: usize, lhs: usize, output: usize, r0: i32, r1: i32, tid: i32, int16: bool): void {
  const rows = load<i32>(pp, BM_ROWS);
  const calls = load<i32>(pp, BM_CALLS);
  const index = <usize>load<u32>(pp, BM_INDEX);
  const outBytes = <usize>(rows * load<i32>(pp, BM_COLS)) << <usize>int16;
  const x = threadSlot(<usize>load<u32>(pp, BM_ROW), tid, <usize>load<i32>(pp, BM_DEPTH8) << 2);
  for (let i = r0 / rows; i < calls; i++) {
    const first = i * rows;
    if (first >= r1) break;
    const e = index + (<usize>i << 3);
    const a = lhs + <usize>load<u32>(e);
    const w = <usize>load<u32>(e, 4);
    const o = output + <usize>i * outBytes;
    const a0 = max(r0 - first, 0);
    const a1 = min(r1 - first, rows);
    if (int16) qs16_bmm(pp, a, w, o, a0, a1, x);
    else qs8_bmm(pp, a, w, o, a0, a1, x);
  }
}

/** int8 BATCH_MATMUL over rows [r0, r1) of the stacked output matrices, with thread `tid`'s scratch. */
export function qs8_bmm_run(pp: usize, lhs: usize, output: usize, r0: i32, r1: i32, tid: i32): void {
  bmmRun(pp, lhs, output, r0, r1, tid, false);
}

/** int16 BATCH_MATMUL over rows [r0, r1) of the stacked output matrices, with thread `tid`'s scratch. */
export function qs16_bmm_run(pp: usize, lhs: usize, output: usize, r0: i32, r1: i32, tid: i32): void {
  bmmRun(pp, lhs, output, r0, r1, tid, true);
}

/** Rows [a0, a1) of one output matrix: LHS at `lhs` (rows LhsRow bytes apart), packed RHS at `packed`, int8 output at `output`, scratch `x0`. */
function qs8_bmm(pp: usize, lhs: usize, packed: usize, output: usize, a0: i32, a1: i32, x0: usize): void {
  const rows = a1;
  const cols = load<i32>(pp, BM_COLS);
  const K = load<i32>(pp, BM_DEPTH);
  const k8 = load<i32>(pp, BM_DEPTH8);
  const rowBytes = <usize>load<i32>(pp, BM_LHS_ROW);
  const step = <usize>load<i32>(pp, BM_LHS_STEP);
  const zpL = load<i32>(pp, BM_ZP_LHS);
  const zp = i32x4.splat(load<i32>(pp, BM_ZP_OUT));
  const lo = i32x4.splat(load<i32>(pp, BM_ACT_MIN));
  const hi = i32x4.splat(load<i32>(pp, BM_ACT_MAX));
  const rq = <usize>load<u32>(pp, BM_RQ);
  const colBytes = <usize>(k8 << 1);
  const x1 = x0 + colBytes;
  for (let a = a0; a < rows; a += 2) {
    const two = a + 1 < rows;
    widenRow(lhs + <usize>a * rowBytes, step, K, k8, zpL, x0);
    if (two) widenRow(lhs + <usize>(a + 1) * rowBytes, step, K, k8, zpL, x1);
    const o0 = output + <usize>(a * cols);
    const o1 = o0 + <usize>cols;
    let w = packed;
    for (let c = 0; c < cols; c += 4) {
      let s00 = i32x4.splat(0), s01 = s00, s02 = s00, s03 = s00;
      let s10 = s00, s11 = s00, s12 = s00, s13 = s00;
      const w1 = w + colBytes;
      const w2 = w1 + colBytes;
      const w3 = w2 + colBytes;
      for (let k: usize = 0; k < colBytes; k += 16) {
        const b0 = v128.load(w + k);
        const b1 = v128.load(w1 + k);
        const b2 = v128.load(w2 + k);
        const b3 = v128.load(w3 + k);
        const v0 = v128.load(x0 + k);
        s00 = i32x4.add(s00, i32x4.dot_i16x8_s(v0, b0));
        s01 = i32x4.add(s01, i32x4.dot_i16x8_s(v0, b1));
        s02 = i32x4.add(s02, i32x4.dot_i16x8_s(v0, b2));
        s03 = i32x4.add(s03, i32x4.dot_i16x8_s(v0, b3));
        const v1 = v128.load(x1 + k);
        s10 = i32x4.add(s10, i32x4.dot_i16x8_s(v1, b0));
        s11 = i32x4.add(s11, i32x4.dot_i16x8_s(v1, b1));
        s12 = i32x4.add(s12, i32x4.dot_i16x8_s(v1, b2));
        s13 = i32x4.add(s13, i32x4.dot_i16x8_s(v1, b3));
      }
      const n = min(4, cols - c);
      storeRow(sum4(s00, s01, s02, s03), rq, zp, lo, hi, o0 + <usize>c, n);
      if (two) storeRow(sum4(s10, s11, s12, s13), rq, zp, lo, hi, o1 + <usize>c, n);
      w = w3 + colBytes;
    }
  }
}

/** Copies LHS row `src` (K int16 values `step` bytes apart) to `dst`, zeros up to `k8`. */
@inline function copyRow16(src: usize, step: usize, K: i32, k8: i32, dst: usize): void {
  let k = 0;
  if (step == 2) for (; k + 8 <= K; k += 8) v128.store(dst + <usize>(k << 1), v128.load(src + <usize>(k << 1)));
  for (; k < K; k++) store<i16>(dst + <usize>(k << 1), load<i16>(src + <usize>k * step));
  for (; k < k8; k++) store<i16>(dst + <usize>(k << 1), 0);
}

/** `acc` plus the eight products of the int16 lanes of `x` and `w`, as two i64 lanes (no overflow). */
@inline function madd64(acc: v128, x: v128, w: v128): v128 {
  const lo = i32x4.extmul_low_i16x8_s(x, w);
  const hi = i32x4.extmul_high_i16x8_s(x, w);
  return i64x2.add(i64x2.add(acc, i64x2.add(i64x2.extend_low_i32x4_s(lo), i64x2.extend_high_i32x4_s(lo))), i64x2.add(i64x2.extend_low_i32x4_s(hi), i64x2.extend_high_i32x4_s(hi)));
}

/** TFLite's int16 MultiplyByQuantizedMultiplier (acc16x8.ts's requant64) of the sum of the two int64 lanes of `acc`. */
@inline function requant16(acc: v128, reduced: i64, t: i64): i32 {
  return requant64(i64x2.extract_lane(acc, 0) + i64x2.extract_lane(acc, 1), reduced, t);
}

/** int16 BATCH_MATMUL (zero points 0): rows [a0, a1) of one output matrix, int64 sums, one row by four columns per step, scratch `x`. */
function qs16_bmm(pp: usize, lhs: usize, packed: usize, output: usize, a0: i32, a1: i32, x: usize): void {
  const cols = load<i32>(pp, BM_COLS);
  const K = load<i32>(pp, BM_DEPTH);
  const k8 = load<i32>(pp, BM_DEPTH8);
  const rowBytes = <usize>load<i32>(pp, BM_LHS_ROW);
  const step = <usize>load<i32>(pp, BM_LHS_STEP);
  const lo = load<i32>(pp, BM_ACT_MIN);
  const hi = load<i32>(pp, BM_ACT_MAX);
  const reduced = <i64>load<i32>(pp, BM_MULT16);
  const t = <i64>load<i32>(pp, BM_SHIFT16);
  const colBytes = <usize>(k8 << 1);
  for (let a = a0; a < a1; a++) {
    copyRow16(lhs + <usize>a * rowBytes, step, K, k8, x);
    const o = output + <usize>(a * cols) * 2;
    let w = packed;
    for (let c = 0; c < cols; c += 4) {
      let s0 = i64x2.splat(0), s1 = s0, s2 = s0, s3 = s0;
      const w1 = w + colBytes;
      const w2 = w1 + colBytes;
      const w3 = w2 + colBytes;
      for (let k: usize = 0; k < colBytes; k += 16) {
        const v = v128.load(x + k);
        s0 = madd64(s0, v, v128.load(w + k));
        s1 = madd64(s1, v, v128.load(w1 + k));
        s2 = madd64(s2, v, v128.load(w2 + k));
        s3 = madd64(s3, v, v128.load(w3 + k));
      }
      const n = min(4, cols - c);
      const dst = o + <usize>(c << 1);
      store<i16>(dst, <i16>clamp16(requant16(s0, reduced, t), lo, hi));
      if (n > 1) store<i16>(dst, <i16>clamp16(requant16(s1, reduced, t), lo, hi), 2);
      if (n > 2) store<i16>(dst, <i16>clamp16(requant16(s2, reduced, t), lo, hi), 4);
      if (n > 3) store<i16>(dst, <i16>clamp16(requant16(s3, reduced, t), lo, hi), 6);
      w = w3 + colBytes;
    }
  }
}
