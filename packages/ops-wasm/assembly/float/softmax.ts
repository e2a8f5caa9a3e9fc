// float32 SOFTMAX over the last axis, as TFLite's reference_ops::Softmax (ops-reference's softmaxFloat): per
// row the maximum (from -FLT_MAX, NaN skipped as its `max < x` does), then e = exp((x - max) * beta) written
// to the output and summed, then each e divided by the sum. exp is unary.ts's expNeg of z = (max - x) * beta
// >= 0 (beta >= 0; the kernel declines others); past z = 87, where expNeg stops, e is 0 (TFLite's expf gives
// a denormal below 1.7e-38 there, or 0). The sum runs in four lanes, so it rounds differently from the
// reference's sequential float32 sum (relative differences of a few ulp).
import { expNeg } from './unary';
import { storeLanes } from './common';
import { FS_BETA, FS_DEPTH, FS_OUTER } from '../generated/abi';

// Parameter block FS (scripts/abi.mjs), written by src/kernels/float/softmax.ts.

@inline function expScaled(m: v128, x: v128, beta: v128): v128 {
  const z = f32x4.mul(f32x4.sub(m, x), beta);
  return v128.and(expNeg(z), f32x4.lt(z, f32x4.splat(87.0)));
}

export function f32_softmax(pp: usize, input: usize, output: usize): void {
  const outer = load<i32>(pp, FS_OUTER);
  const depth = load<i32>(pp, FS_DEPTH);
  const beta = v128.load32_splat(pp, FS_BETA);
  const rowBytes = <usize>(depth << 2);
  const body = depth & ~3;
  for (let r = 0; r < outer; r++) {
    const x = input + <usize>r * rowBytes;
    const o = output + <usize>r * rowBytes;
    let mv = f32x4.splat(-3.4028234663852886e38);
    for (let c = 0; c < body; c += 4) mv = f32x4.pmax(mv, v128.load(x + <usize>(c << 2)));
    let m = max(max(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)), max(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)));
    for (let c = body; c < depth; c++) {
      const v = load<f32>(x + <usize>(c << 2));
      if (m < v) m = v;
    }
    const ms = f32x4.splat(m);
    let sv = f32x4.splat(0);
    for (let c = 0; c < body; c += 4) {
      const e = expScaled(ms, v128.load(x + <usize>(c << 2)), beta);
      v128.store(o + <usize>(c << 2), e);
      sv = f32x4.add(sv, e);
    }
    let sum: f32 = (f32x4.extract_lane(sv, 0) + f32x4.extract_lane(sv, 1)) + (f32x4.extract_lane(sv, 2) + f32x4.extract_lane(sv, 3));
    if (body < depth) {
      // the last 1-3 values: the lanes past the row read slack or the next row, and are neither stored nor summed
      const e = expScaled(ms, v128.load(x + <usize>(body << 2)), beta);
      const left = depth - body;
      storeLanes(o + <usize>(body << 2), e, left);
      sum += f32x4.extract_lane(e, 0);
      if (left > 1) sum += f32x4.extract_lane(e, 1);
      if (left > 2) sum += f32x4.extract_lane(e, 2);
    }
    const s = f32x4.splat(sum);
    for (let c = 0; c < body; c += 4) v128.store(o + <usize>(c << 2), f32x4.div(v128.load(o + <usize>(c << 2)), s));
    for (let c = body; c < depth; c++) store<f32>(o + <usize>(c << 2), load<f32>(o + <usize>(c << 2)) / sum);
  }
}
