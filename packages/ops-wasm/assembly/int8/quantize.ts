// int8 QUANTIZE and DEQUANTIZE (TFLM reference_ops::AffineQuantize, Requantize, Dequantize), in the
// arithmetic TFLM's C++ has on x86-64:
//   float32 -> int8: q = clamp((int32)roundf(x / (float)scale) + zp, -128, 127), with the float32
//     division, round half away from zero, and cvttss2si's INT32_MIN for NaN and out-of-range values;
//   int8 -> int8:    q = clamp(MultiplyByQuantizedMultiplier(x - zp_in, M, shift) + zp_out, -128, 127);
//   int8 -> float32: x = (float)scale * (float)(q - zp).
import { rdbpot, srdhm, storeBytes } from './requant';
import { Z_COUNT, Z_LEFT, Z_MULT, Z_RIGHT, Z_SCALE, Z_ZP_IN, Z_ZP_OUT } from '../generated/abi';

// Parameter block Z (scripts/abi.mjs), written by src/kernels/quantize.ts and dequantize.ts.

/** roundf (half away from zero), exact: the integer part plus the sign when the fraction is >= 1/2. */
@inline function roundAway(x: v128): v128 {
  const t = f32x4.trunc(x);
  const away = f32x4.ge(f32x4.abs(f32x4.sub(x, t)), f32x4.splat(0.5));
  const signedOne = v128.or(v128.and(x, i32x4.splat(0x80000000)), f32x4.splat(1.0));
  return f32x4.add(t, v128.and(away, signedOne));
}

/** (int32) of a float as x86 converts it: INT32_MIN for NaN and values outside [-2^31, 2^31). */
@inline function truncX86(r: v128): v128 {
  const inRange = v128.and(f32x4.ge(r, f32x4.splat(-2147483648.0)), f32x4.lt(r, f32x4.splat(2147483648.0)));
  return v128.bitselect(i32x4.trunc_sat_f32x4_s(r), i32x4.splat(0x80000000), inRange);
}

@inline function quantize4(x: v128, scale: v128, zp: v128): v128 {
  const q = i32x4.add(truncX86(roundAway(f32x4.div(x, scale))), zp);
  return i32x4.min_s(i32x4.max_s(q, i32x4.splat(-128)), i32x4.splat(127));
}

/** float32 -> int8, eight elements per step. */
export function quantize_f32_s8(p: usize, input: usize, output: usize): void {
  const n = load<i32>(p, Z_COUNT);
  const scale = f32x4.splat(load<f32>(p, Z_SCALE));
  const zp = i32x4.splat(load<i32>(p, Z_ZP_OUT));
  for (let i = 0; i < n; i += 8) {
    // reads up to 28 bytes past the end (never used); the arena keeps slack after its last byte
    const a = quantize4(v128.load(input + <usize>(i << 2)), scale, zp);
    const b = quantize4(v128.load(input + <usize>(i << 2), 16), scale, zp);
    const n16 = i16x8.narrow_i32x4_s(a, b);
    const out = i8x16.narrow_i16x8_s(n16, n16);
    if (n - i >= 8) v128.store64_lane(output + <usize>i, out, 0);
    else storeBytes(output + <usize>i, out, n - i);
  }
}

/** int8 -> int8 requantization, eight elements per step. */
export function requantize_s8_s8(p: usize, input: usize, output: usize): void {
  const n = load<i32>(p, Z_COUNT);
  const m = i32x4.splat(load<i32>(p, Z_MULT));
  const left = load<i32>(p, Z_LEFT);
  const right = load<i32>(p, Z_RIGHT);
  const mask = i32x4.splat(right >= 31 ? 0x7fffffff : (1 << right) - 1);
  const half = i32x4.shr_s(mask, 1);
  const zpIn = i32x4.splat(load<i32>(p, Z_ZP_IN));
  const zpOut = i32x4.splat(load<i32>(p, Z_ZP_OUT));
  for (let i = 0; i < n; i += 8) {
    const x = v128.load8x8_s(input + <usize>i);
    const a = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(i32x4.extend_low_i16x8_s(x), zpIn), left), m), right, mask, half), zpOut);
    const b = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(i32x4.extend_high_i16x8_s(x), zpIn), left), m), right, mask, half), zpOut);
    const n16 = i16x8.narrow_i32x4_s(a, b);
    const out = i8x16.narrow_i16x8_s(n16, n16);
    if (n - i >= 8) v128.store64_lane(output + <usize>i, out, 0);
    else storeBytes(output + <usize>i, out, n - i);
  }
}

/** int8 -> float32, eight elements per step (the tail element by element). */
export function dequantize_s8_f32(p: usize, input: usize, output: usize): void {
  const n = load<i32>(p, Z_COUNT);
  const scale = f32x4.splat(load<f32>(p, Z_SCALE));
  const zp = i32x4.splat(load<i32>(p, Z_ZP_OUT));
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const x = v128.load8x8_s(input + <usize>i);
    v128.store(output + <usize>(i << 2), f32x4.mul(scale, f32x4.convert_i32x4_s(i32x4.sub(i32x4.extend_low_i16x8_s(x), zp))));
    v128.store(output + <usize>(i << 2), f32x4.mul(scale, f32x4.convert_i32x4_s(i32x4.sub(i32x4.extend_high_i16x8_s(x), zp))), 16);
  }
  const s = load<f32>(p, Z_SCALE);
  const z = load<i32>(p, Z_ZP_OUT);
  for (; i < n; i++) store<f32>(output + <usize>(i << 2), s * <f32>(<i32>load<i8>(input + <usize>i) - z));
}
