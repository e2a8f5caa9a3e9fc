// int8 SVDF (TFLM svdf_common.cc EvalIntegerSvdfReference<int16_t | int8_t>), byte for byte. Per invoke:
//   1. the whole state [batch, filters * memory] moves left by one element (memory.copy);
//   2. feature matmul: per batch row and filter, sum_k w[f][k] * (x[k] - zp_in) as i32x4.dot_i16x8_s of
//      the packed int8 weights (widened) and the input row widened less its zero point (|w * x| <= 128 * 255,
//      a pair below 2^17), four filters reduced at once (sum4), MultiplyByQuantizedMultiplier (scalar shift),
//      clamped to the state type, plus the state zero point (TFLM's order: an int8 state wraps modulo 256,
//      as the store narrows), stored into the newest column of each filter's row;
//   3. time matmul: per filter, sum_j t[f][j] * (s[f][j] - zp_state) in wrapping int32: int16 state and
//      weights (zero point 0) straight into i32x4.dot_i16x8_s (products wrap only where TFLM's int32 sums
//      do; the order of wrapping additions does not matter), int8 ones widened, less the zero point (within
//      [-255, 255]); a scalar tail past a multiple of 8;
//   4. per unit: bias plus its `rank` filters, MultiplyByQuantizedMultiplier, plus zp_out, clamped to int8.
// TFLM applies no fused activation on this path. Parameter block SV (scripts/abi.mjs).
import { rdbpot, rdbpotScalar, srdhm, srdhmScalar } from './requant';
import { sum4, widenRow } from './batch-matmul';
import {
  SV_ACC,
  SV_BATCHES,
  SV_FEATURE,
  SV_FILTERS,
  SV_HAS_BIAS,
  SV_INPUT8,
  SV_INPUT_SIZE,
  SV_LEFT1,
  SV_LEFT2,
  SV_MEMORY,
  SV_MULT1,
  SV_MULT2,
  SV_RANK,
  SV_RIGHT1,
  SV_RIGHT2,
  SV_ROW,
  SV_STATE16,
  SV_STATE_MAX,
  SV_STATE_MIN,
  SV_UNITS,
  SV_ZP_IN,
  SV_ZP_OUT,
  SV_ZP_STATE,
} from '../generated/abi';

/** SVDF on `input` (int8), time weights `time`, int32 `bias` (read when SV_HAS_BIAS), the state (updated) and the int8 `output`. */
export function qs8_svdf(pp: usize, input: usize, time: usize, bias: usize, state: usize, output: usize): void {
  if (load<i32>(pp, SV_STATE16) != 0) svdf(pp, input, time, bias, state, output, true);
  else svdf(pp, input, time, bias, state, output, false);
}

/** qs8_svdf with `s16` constant: int16 (true) or int8 state and time weights. */
@inline function svdf(pp: usize, input: usize, time: usize, bias: usize, state: usize, output: usize, s16: bool): void {
  const B = load<i32>(pp, SV_BATCHES);
  const F = load<i32>(pp, SV_FILTERS);
  const M = load<i32>(pp, SV_MEMORY);
  const es: usize = s16 ? 2 : 1;
  const n = B * F * M;
  if (n > 1) memory.copy(state, state + es, <usize>(n - 1) * es);
  const rowBytes = <usize>(F * M) * es;
  for (let b = 0; b < B; b++) {
    const s = state + <usize>b * rowBytes;
    feature(pp, input + <usize>(b * load<i32>(pp, SV_INPUT_SIZE)), s, s16);
    timeMatmul(pp, time, s, s16);
    units(pp, bias, output + <usize>(b * load<i32>(pp, SV_UNITS)));
  }
}

/** Step 2 for one batch row: the newest state column of every filter. */
@inline function feature(pp: usize, x: usize, s: usize, s16: bool): void {
  const K = load<i32>(pp, SV_INPUT_SIZE);
  const k8 = load<i32>(pp, SV_INPUT8);
  const F = load<i32>(pp, SV_FILTERS);
  const M = load<i32>(pp, SV_MEMORY);
  const row = <usize>load<u32>(pp, SV_ROW);
  widenRow(x, 1, K, k8, load<i32>(pp, SV_ZP_IN), row);
  const m = i32x4.splat(load<i32>(pp, SV_MULT1));
  const left = load<i32>(pp, SV_LEFT1);
  const right = load<i32>(pp, SV_RIGHT1);
  const mask = i32x4.splat(right >= 31 ? 0x7fffffff : (1 << right) - 1);
  const half = i32x4.shr_s(mask, 1);
  const lo = i32x4.splat(load<i32>(pp, SV_STATE_MIN));
  const hi = i32x4.splat(load<i32>(pp, SV_STATE_MAX));
  const zp = i32x4.splat(load<i32>(pp, SV_ZP_STATE));
  const es: usize = s16 ? 2 : 1;
  const step = <usize>M * es; // bytes from one filter's row of the state to the next
  let w = <usize>load<u32>(pp, SV_FEATURE);
  const wRow = <usize>k8;
  let dst = s + <usize>(M - 1) * es;
  for (let f = 0; f < F; f += 4) {
    let a0 = i32x4.splat(0), a1 = a0, a2 = a0, a3 = a0;
    for (let k = 0; k < k8; k += 8) {
      const v = v128.load(row + <usize>(k << 1));
      const at = w + <usize>k;
      a0 = i32x4.add(a0, i32x4.dot_i16x8_s(v, v128.load8x8_s(at)));
      a1 = i32x4.add(a1, i32x4.dot_i16x8_s(v, v128.load8x8_s(at + wRow)));
      a2 = i32x4.add(a2, i32x4.dot_i16x8_s(v, v128.load8x8_s(at + 2 * wRow)));
      a3 = i32x4.add(a3, i32x4.dot_i16x8_s(v, v128.load8x8_s(at + 3 * wRow)));
    }
    const y = rdbpot(srdhm(i32x4.shl(sum4(a0, a1, a2, a3), left), m), right, mask, half);
    const q = i32x4.add(i32x4.min_s(i32x4.max_s(y, lo), hi), zp);
    const count = min(4, F - f);
    storeColumn(dst, step, q, count, s16);
    dst += step * 4;
    w += wRow * 4;
  }
}

/** Stores the first `count` (1-4) lanes of `q` (narrowed to the state type, wrapping) `step` bytes apart. */
@inline function storeColumn(dst: usize, step: usize, q: v128, count: i32, s16: bool): void {
  if (s16) {
    store<i16>(dst, <i16>i32x4.extract_lane(q, 0));
    if (count > 1) store<i16>(dst + step, <i16>i32x4.extract_lane(q, 1));
    if (count > 2) store<i16>(dst + 2 * step, <i16>i32x4.extract_lane(q, 2));
    if (count > 3) store<i16>(dst + 3 * step, <i16>i32x4.extract_lane(q, 3));
  } else {
    store<i8>(dst, <i8>i32x4.extract_lane(q, 0));
    if (count > 1) store<i8>(dst + step, <i8>i32x4.extract_lane(q, 1));
    if (count > 2) store<i8>(dst + 2 * step, <i8>i32x4.extract_lane(q, 2));
    if (count > 3) store<i8>(dst + 3 * step, <i8>i32x4.extract_lane(q, 3));
  }
}

/** Step 3 for one batch row: the time matmul of every filter into the Acc scratch. */
@inline function timeMatmul(pp: usize, time: usize, s: usize, s16: bool): void {
  const F = load<i32>(pp, SV_FILTERS);
  const M = load<i32>(pp, SV_MEMORY);
  const zp = load<i32>(pp, SV_ZP_STATE);
  const acc = <usize>load<u32>(pp, SV_ACC);
  const es: usize = s16 ? 2 : 1;
  const row = <usize>M * es;
  const zero = i32x4.splat(0);
  for (let f = 0; f < F; f += 4) {
    const at = <usize>f * row;
    const d0 = timeDot(time + at, s + at, M, zp, s16);
    const d1 = f + 1 < F ? timeDot(time + at + row, s + at + row, M, zp, s16) : zero;
    const d2 = f + 2 < F ? timeDot(time + at + 2 * row, s + at + 2 * row, M, zp, s16) : zero;
    const d3 = f + 3 < F ? timeDot(time + at + 3 * row, s + at + 3 * row, M, zp, s16) : zero;
    v128.store(acc + <usize>(f << 2), sum4(d0, d1, d2, d3));
  }
}

/** One filter's sum_j t[j] * (s[j] - zp) as four lanes (the scalar tail in lane 0). */
@inline function timeDot(t: usize, s: usize, M: i32, zp: i32, s16: bool): v128 {
  let a = i32x4.splat(0);
  let j = 0;
  if (s16) {
    for (; j + 8 <= M; j += 8) a = i32x4.add(a, i32x4.dot_i16x8_s(v128.load(t + <usize>(j << 1)), v128.load(s + <usize>(j << 1))));
  } else {
    const z = i16x8.splat(<i16>zp);
    for (; j + 8 <= M; j += 8) a = i32x4.add(a, i32x4.dot_i16x8_s(v128.load8x8_s(t + <usize>j), i16x8.sub(v128.load8x8_s(s + <usize>j), z)));
  }
  let tail = 0;
  for (; j < M; j++)
    tail += s16 ? <i32>load<i16>(t + <usize>(j << 1)) * (<i32>load<i16>(s + <usize>(j << 1)) - zp) : <i32>load<i8>(t + <usize>j) * (<i32>load<i8>(s + <usize>j) - zp);
  return i32x4.add(a, i32x4.replace_lane(i32x4.splat(0), 0, tail));
}

/** Step 4 for one batch row: bias plus rank sums, requantized into the int8 output. */
@inline function units(pp: usize, bias: usize, out: usize): void {
  const U = load<i32>(pp, SV_UNITS);
  const rank = load<i32>(pp, SV_RANK);
  const m = load<i32>(pp, SV_MULT2);
  const left = load<i32>(pp, SV_LEFT2);
  const right = load<i32>(pp, SV_RIGHT2);
  const zp = load<i32>(pp, SV_ZP_OUT);
  const hasBias = load<i32>(pp, SV_HAS_BIAS) != 0;
  let acc = <usize>load<u32>(pp, SV_ACC);
  for (let u = 0; u < U; u++) {
    let sum = hasBias ? load<i32>(bias + <usize>(u << 2)) : 0;
    for (let r = 0; r < rank; r++) {
      sum += load<i32>(acc);
      acc += 4;
    }
    const q = rdbpotScalar(srdhmScalar(sum << left, m), right) + zp;
    store<i8>(out + <usize>u, <i8>(q < -128 ? -128 : q > 127 ? 127 : q));
  }
}
