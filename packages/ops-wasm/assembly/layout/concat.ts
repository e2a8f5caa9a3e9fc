// CONCATENATION of same-typed tensors along one axis, in bytes: for each of the `outer` slices before
// the axis, every input contributes one run of (its axis size x the inner size x element size) bytes,
// moved with memory.copy. src/kernels/concatenation.ts writes the parameter block and, at each invoke,
// the inputs' offsets (they are fixed once the arena is planned, but known only then).

// TFLite's uint8 inputs quantized unlike the output (CC_RESCALE) are requantized instead, as TFLite's
// ConcatenationWithScaling (and ops-reference) in float32: clamp(roundf(x * scale + bias) + zp_out, 0, 255).

// Parameter block CC (scripts/abi.mjs): outer, input count, the rescale table, the output zero point,
// then per input its run in bytes; the input offsets are in the table at `ptrs`.
import { narrowU8, storeBytes } from '../int8/requant';
import { roundAway } from '../int8/quantize';
import { CC_INPUTS, CC_OUTER, CC_RESCALE, CC_RUN, CC_ZP_OUT } from '../generated/abi';

export function concat_bytes(p: usize, ptrs: usize, output: usize): void {
  const outer = load<i32>(p, CC_OUTER);
  const n = load<i32>(p, CC_INPUTS);
  const rescale = <usize>load<u32>(p, CC_RESCALE);
  const zp = load<i32>(p, CC_ZP_OUT);
  let o = output;
  for (let k = 0; k < outer; k++) {
    for (let i = 0; i < n; i++) {
      const run = <usize>load<i32>(p + <usize>(i << 2), CC_RUN);
      const src = <usize>load<u32>(ptrs + <usize>(i << 2)) + <usize>k * run;
      const scale = rescale != 0 ? load<f32>(rescale + <usize>(i << 3)) : NaN;
      if (scale != scale) memory.copy(o, src, run);
      else requantizeRun(o, src, <i32>run, scale, load<f32>(rescale + <usize>(i << 3), 4), zp);
      o += run;
    }
  }
}

/** Four uint8 lanes (as i32) requantized: roundf(x * scale + bias) + zp as int32, NaN to 0 (the clamp is the narrowing's). */
@inline function requant4(x: v128, scale: v128, bias: v128, zp: v128): v128 {
  const t = f32x4.add(f32x4.mul(f32x4.convert_i32x4_s(x), scale), bias);
  // beyond +-1024 the clamp to [0, 255] decides alone; NaN (an overflowed scale) gives 0, as the reference's store
  const r = f32x4.pmax(f32x4.pmin(roundAway(t), f32x4.splat(1024)), f32x4.splat(-1024));
  return v128.and(i32x4.add(i32x4.trunc_sat_f32x4_s(r), zp), f32x4.eq(t, t));
}

/** `n` uint8 values from `src` requantized into `dst`, eight per step (reads up to 7 bytes past the end, never used). */
function requantizeRun(dst: usize, src: usize, n: i32, s: f32, b: f32, z: i32): void {
  const scale = f32x4.splat(s);
  const bias = f32x4.splat(b);
  const zp = i32x4.splat(z);
  for (let i = 0; i < n; i += 8) {
    const x = v128.load8x8_u(src + <usize>i);
    const out = narrowU8(requant4(i32x4.extend_low_i16x8_u(x), scale, bias, zp), requant4(i32x4.extend_high_i16x8_u(x), scale, bias, zp));
    if (n - i >= 8) v128.store64_lane(dst + <usize>i, out, 0);
    else storeBytes(dst + <usize>i, out, n - i);
  }
}
