// float32 SVDF (TFLM svdf_common.cc EvalFloatSvdfReference), within micrort's float tolerance (sums in
// another order). Per invoke: the whole state [batch, filters * memory] moves left by one element; per
// batch row, the input row is copied into the Row scratch (zeros past InputSize), each filter's dot
// product with its packed weights row (Input8 floats, four filters per step, four lanes each) goes into
// the newest column of its state row; each filter's time dot product (four lanes, a scalar tail) into
// Acc; per unit, bias plus its `rank` filters. The fused activation is applied by the TypeScript side
// (kernel-support's applyActivationToVector, as ops-reference). Parameter block SV (scripts/abi.mjs).
import { madd } from './common';
import { SV_ACC, SV_BATCHES, SV_FEATURE, SV_FILTERS, SV_HAS_BIAS, SV_INPUT8, SV_INPUT_SIZE, SV_MEMORY, SV_RANK, SV_ROW, SV_UNITS } from '../generated/abi';

/** The four lane sums of a, b, c, d as one f32x4 [sum a, sum b, sum c, sum d]. */
@inline function sum4f(a: v128, b: v128, c: v128, d: v128): v128 {
  const ab = f32x4.add(v128.shuffle<f32>(a, b, 0, 4, 1, 5), v128.shuffle<f32>(a, b, 2, 6, 3, 7));
  const cd = f32x4.add(v128.shuffle<f32>(c, d, 0, 4, 1, 5), v128.shuffle<f32>(c, d, 2, 6, 3, 7));
  return f32x4.add(v128.shuffle<f32>(ab, cd, 0, 1, 4, 5), v128.shuffle<f32>(ab, cd, 2, 3, 6, 7));
}

/** Moves the state's `n` floats left by one element (the oldest value of the first row drops out). */
@inline export function shiftState(state: usize, n: i32): void {
  if (n > 1) memory.copy(state, state + 4, <usize>(n - 1) << 2);
}

/**
 * Per unit u < `units`: bias[u] (or 0 without `hasBias`) plus the `rank` filter sums at `acc` (u * rank ..
 * u * rank + rank - 1), added in order in float32, into `out` (the float and hybrid SVDF's last step).
 */
@inline export function rankSums(acc: usize, bias: usize, hasBias: bool, units: i32, rank: i32, out: usize): void {
  let a = acc;
  for (let u = 0; u < units; u++) {
    let sum: f32 = hasBias ? load<f32>(bias + (<usize>u << 2)) : 0;
    for (let r = 0; r < rank; r++) {
      sum += load<f32>(a);
      a += 4;
    }
    store<f32>(out + (<usize>u << 2), sum);
  }
}

/** SVDF on `input`, time weights `time`, `bias` (read when SV_HAS_BIAS), the state (updated) and `output` (before the activation). */
export function f32_svdf(pp: usize, input: usize, time: usize, bias: usize, state: usize, output: usize): void {
  const B = load<i32>(pp, SV_BATCHES);
  const K = load<i32>(pp, SV_INPUT_SIZE);
  const k8 = load<i32>(pp, SV_INPUT8);
  const F = load<i32>(pp, SV_FILTERS);
  const M = load<i32>(pp, SV_MEMORY);
  const U = load<i32>(pp, SV_UNITS);
  const rank = load<i32>(pp, SV_RANK);
  const hasBias = load<i32>(pp, SV_HAS_BIAS) != 0;
  const feature = <usize>load<u32>(pp, SV_FEATURE);
  const row = <usize>load<u32>(pp, SV_ROW);
  const acc = <usize>load<u32>(pp, SV_ACC);
  shiftState(state, B * F * M);
  const wRow = <usize>k8 << 2;
  const sRow = <usize>M << 2;
  for (let b = 0; b < B; b++) {
    memory.copy(row, input + (<usize>(b * K) << 2), <usize>K << 2);
    memory.fill(row + (<usize>K << 2), 0, <usize>(k8 - K) << 2);
    const s = state + <usize>(b * F) * sRow;
    // feature matmul into the newest column
    let w = feature;
    let dst = s + sRow - 4;
    for (let f = 0; f < F; f += 4) {
      let a0 = f32x4.splat(0), a1 = a0, a2 = a0, a3 = a0;
      for (let k: usize = 0; k < wRow; k += 16) {
        const v = v128.load(row + k);
        a0 = madd(v128.load(w + k), v, a0);
        a1 = madd(v128.load(w + wRow + k), v, a1);
        a2 = madd(v128.load(w + 2 * wRow + k), v, a2);
        a3 = madd(v128.load(w + 3 * wRow + k), v, a3);
      }
      const q = sum4f(a0, a1, a2, a3);
      const count = min(4, F - f);
      store<f32>(dst, f32x4.extract_lane(q, 0));
      if (count > 1) store<f32>(dst + sRow, f32x4.extract_lane(q, 1));
      if (count > 2) store<f32>(dst + 2 * sRow, f32x4.extract_lane(q, 2));
      if (count > 3) store<f32>(dst + 3 * sRow, f32x4.extract_lane(q, 3));
      dst += 4 * sRow;
      w += 4 * wRow;
    }
    // time matmul, one filter at a time
    for (let f = 0; f < F; f++) {
      const t = time + <usize>f * sRow;
      const x = s + <usize>f * sRow;
      let a = f32x4.splat(0);
      let j = 0;
      for (; j + 4 <= M; j += 4) a = madd(v128.load(t + (<usize>j << 2)), v128.load(x + (<usize>j << 2)), a);
      let sum = f32x4.extract_lane(a, 0) + f32x4.extract_lane(a, 1) + (f32x4.extract_lane(a, 2) + f32x4.extract_lane(a, 3));
      for (; j < M; j++) sum += load<f32>(t + (<usize>j << 2)) * load<f32>(x + (<usize>j << 2));
      store<f32>(acc + (<usize>f << 2), sum);
    }
    rankSums(acc, bias, hasBias, U, rank, output + (<usize>(b * U) << 2));
  }
}
