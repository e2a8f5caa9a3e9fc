// The float32 half of the hybrid SVDF (TFLite reference svdf.h EvalHybridSVDF, as ops-reference's
// svdf-common.ts evalSvdfHybrid): src/kernels/hybrid/svdf.ts quantizes the input rows (hybrid_quantize),
// the int8 GEMM (qs8_conv with W_RAW) and hybrid_epilogue give every filter's feature activation in
// float32 (`features`, batch-major); hybrid_svdf then, with the SV block at `pp`,
//   shifts the state [batch, filters * memory] left by one element;
//   writes 0 + feature into the newest column of every filter row (TFLite's result buffer starts at
//   zero, so -0 becomes +0 as there; 0 when `hasFeatures` is 0: TFLite skips an all-zero input);
//   per filter, the time matmul acc = 0; acc = f32(acc + f32(w[j] * s[j])) for j = 0 .. memory - 1 in
//   order, four filters per step in the lanes of one f32x4 (the time weights, dequantized at prepare,
//   interleaved as [filters / 4][memory][4]; the state values gathered lane by lane), into SV_ACC;
//   per unit, bias (or 0) plus its `rank` filters' sums in order, into `output`.
// Each lane's steps are the scalar operations in ops-reference's order (f32x4.mul and add round each lane
// once, as the scalar ones; no fused multiply-add), so the outputs are equal bit for bit. The fused
// activation is applied by the TypeScript side (kernel-support's applyActivationToVector).
import { rankSums, shiftState } from '../float/svdf';
import { SV_ACC, SV_BATCHES, SV_FILTERS, SV_HAS_BIAS, SV_MEMORY, SV_RANK, SV_UNITS } from '../generated/abi';

/** The hybrid SVDF after its feature matmul (see above): the state updated, `output` before the activation. */
export function hybrid_svdf(pp: usize, features: usize, hasFeatures: i32, time: usize, bias: usize, state: usize, output: usize): void {
  const B = load<i32>(pp, SV_BATCHES);
  const F = load<i32>(pp, SV_FILTERS);
  const M = load<i32>(pp, SV_MEMORY);
  const U = load<i32>(pp, SV_UNITS);
  const rank = load<i32>(pp, SV_RANK);
  const hasBias = load<i32>(pp, SV_HAS_BIAS) != 0;
  const acc = <usize>load<u32>(pp, SV_ACC);
  shiftState(state, B * F * M);
  const sRow = <usize>M << 2;
  const rows = B * F;
  for (let i = 0; i < rows; i++) {
    const v: f32 = hasFeatures != 0 ? load<f32>(features + (<usize>i << 2)) : 0;
    store<f32>(state + <usize>i * sRow + sRow - 4, <f32>0 + v);
  }
  const groupBytes = sRow << 2;
  for (let b = 0; b < B; b++) {
    const s = state + <usize>(b * F) * sRow;
    let w = time;
    for (let f = 0; f < F; f += 4) {
      // lanes past the last filter read its row again (their weights are zero, their sums unused)
      const r0 = s + <usize>f * sRow;
      const r1 = s + <usize>min(f + 1, F - 1) * sRow;
      const r2 = s + <usize>min(f + 2, F - 1) * sRow;
      const r3 = s + <usize>min(f + 3, F - 1) * sRow;
      let a = f32x4.splat(0);
      for (let j: usize = 0; j < sRow; j += 4) {
        let x = v128.load32_zero(r0 + j);
        x = v128.load32_lane(r1 + j, x, 1);
        x = v128.load32_lane(r2 + j, x, 2);
        x = v128.load32_lane(r3 + j, x, 3);
        a = f32x4.add(a, f32x4.mul(v128.load(w + (j << 2)), x));
      }
      v128.store(acc + (<usize>f << 2), a);
      w += groupBytes;
    }
    rankSums(acc, bias, hasBias, U, rank, output + (<usize>(b * U) << 2));
  }
}
