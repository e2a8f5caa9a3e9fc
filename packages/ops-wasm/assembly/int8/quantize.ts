// int8 QUANTIZE and DEQUANTIZE (TFLM reference_ops::AffineQuantize, Requantize, Dequantize), in the
// arithmetic TFLM's C++ has on x86-64:
//   float32 -> int8: q = clamp((int32)roundf(x / (float)scale) + zp, -128, 127), with the float32
//     division, round half away from zero, and cvttss2si's INT32_MIN for NaN and out-of-range values;
//   int8 -> int8:    q = clamp(MultiplyByQuantizedMultiplier(x - zp_in, M, shift) + zp_out, -128, 127),
//     and so between any of int8, uint8, int16 and int32 (requantize_int);
//   int8 -> float32: x = (float)scale * (float)(q - zp).
// TFLite's uint8 as well (Z_IN_U8: zero-extended inputs; Z_OUT_U8: outputs clamped to [0, 255]): float32
// -> uint8, uint8 <-> int8, uint8 -> uint8 and uint8 -> float32, the same arithmetic.
import { narrow8, narrowU8, rdbpot, srdhm, storeBytes } from './requant';
import { Z_COUNT, Z_IN_BYTES, Z_IN_U8, Z_LEFT, Z_MULT, Z_OUT_BYTES, Z_OUT_U8, Z_RIGHT, Z_SCALE, Z_ZP_IN, Z_ZP_OUT } from '../generated/abi';

// Parameter block Z (scripts/abi.mjs), written by src/kernels/quantize.ts and dequantize.ts.

/** roundf (half away from zero), exact: the integer part plus the sign when the fraction is >= 1/2. */
@inline export function roundAway(x: v128): v128 {
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

/** The int32 result, wrapped as C adds it; the output type's clamp is the narrowing's saturation. */
@inline function quantize4(x: v128, scale: v128, zp: v128): v128 {
  return i32x4.add(truncX86(roundAway(f32x4.div(x, scale))), zp);
}

/** Eight int32 lanes narrowed with saturation to int8, or (`u8`) to uint8. */
@inline function narrowTo(a: v128, b: v128, u8: bool): v128 {
  return u8 ? narrowU8(a, b) : narrow8(a, b);
}

/** float32 -> int8 (or, Z_OUT_U8, uint8), eight elements per step. */
export function quantize_f32_s8(p: usize, input: usize, output: usize): void {
  if (load<i32>(p, Z_OUT_U8) != 0) quantizeF32(p, input, output, true);
  else quantizeF32(p, input, output, false);
}

@inline function quantizeF32(p: usize, input: usize, output: usize, u8: bool): void {
  const n = load<i32>(p, Z_COUNT);
  const scale = f32x4.splat(load<f32>(p, Z_SCALE));
  const zp = i32x4.splat(load<i32>(p, Z_ZP_OUT));
  for (let i = 0; i < n; i += 8) {
    // reads up to 28 bytes past the end (never used); the arena keeps slack after its last byte
    const a = quantize4(v128.load(input + <usize>(i << 2)), scale, zp);
    const b = quantize4(v128.load(input + <usize>(i << 2), 16), scale, zp);
    const out = narrowTo(a, b, u8);
    if (n - i >= 8) v128.store64_lane(output + <usize>i, out, 0);
    else storeBytes(output + <usize>i, out, n - i);
  }
}

/** Eight values as i16x8: int8 sign-extended, or (`u8`) uint8 zero-extended. */
@inline function load8(p: usize, u8: bool): v128 {
  return u8 ? v128.load8x8_u(p) : v128.load8x8_s(p);
}

// requantize_int's element kinds (Z_IN_BYTES / Z_OUT_BYTES with Z_IN_U8 / Z_OUT_U8).
const K_S8: i32 = 0;
const K_U8: i32 = 1;
const K_S16: i32 = 2;
const K_S32: i32 = 3;

/** The kind of an element of `bytes` bytes (`u8`: a byte is uint8). */
@inline function kindOf(bytes: i32, u8: bool): i32 {
  return bytes == 4 ? K_S32 : bytes == 2 ? K_S16 : u8 ? K_U8 : K_S8;
}

/** Input elements i..i+7 of kind `k` at `input` as 16-bit lanes (8-bit kinds) or the 16 bytes of eight int16. */
@inline function loadEight(input: usize, i: i32, k: i32): v128 {
  if (k == K_S16) return v128.load(input + <usize>(i << 1));
  return k == K_U8 ? v128.load8x8_u(input + <usize>i) : v128.load8x8_s(input + <usize>i);
}

/**
 * Stores eight int32 results `a` (elements i..i+3) and `b` (i+4..i+7) as kind `k` (saturated to the type
 * as TFLM's clamp; int32 as they are), only the first `m` (1..8) of them.
 */
@inline function storeLanes(output: usize, i: i32, a: v128, b: v128, k: i32, m: i32): void {
  if (k == K_S32) {
    const o = output + <usize>(i << 2);
    if (m >= 8) {
      v128.store(o, a);
      v128.store(o, b, 16);
    } else if (m > 4) {
      v128.store(o, a);
      storeBytes(o + 16, b, (m - 4) << 2);
    } else if (m == 4) v128.store(o, a);
    else storeBytes(o, a, m << 2);
    return;
  }
  if (k == K_S16) {
    const v = i16x8.narrow_i32x4_s(a, b);
    const o = output + <usize>(i << 1);
    if (m >= 8) v128.store(o, v);
    else storeBytes(o, v, m << 1);
    return;
  }
  const out = narrowTo(a, b, k == K_U8);
  if (m >= 8) v128.store64_lane(output + <usize>i, out, 0);
  else storeBytes(output + <usize>i, out, m);
}

/**
 * TFLM's Requantize between integer types (Z_IN_BYTES, Z_OUT_BYTES: 1 int8 or, with Z_IN_U8 / Z_OUT_U8,
 * uint8; 2 int16; 4 int32): q = clamp(MultiplyByQuantizedMultiplier(x - zp_in, M, shift) + zp_out), the
 * subtraction and addition wrapping as int32, the clamp the narrowing's saturation (none for int32),
 * eight elements per step.
 */
export function requantize_int(p: usize, input: usize, output: usize): void {
  const inK = kindOf(load<i32>(p, Z_IN_BYTES), load<i32>(p, Z_IN_U8) != 0);
  const outK = kindOf(load<i32>(p, Z_OUT_BYTES), load<i32>(p, Z_OUT_U8) != 0);
  // the pairs QUANTIZE takes (src/kernels/quantize.ts)
  if (inK == K_S8) {
    if (outK == K_S8) requantize(p, input, output, K_S8, K_S8);
    else if (outK == K_U8) requantize(p, input, output, K_S8, K_U8);
    else if (outK == K_S16) requantize(p, input, output, K_S8, K_S16);
    else requantize(p, input, output, K_S8, K_S32);
  } else if (inK == K_U8) {
    if (outK == K_U8) requantize(p, input, output, K_U8, K_U8);
    else requantize(p, input, output, K_U8, K_S8);
  } else if (inK == K_S16) {
    if (outK == K_S8) requantize(p, input, output, K_S16, K_S8);
    else if (outK == K_S16) requantize(p, input, output, K_S16, K_S16);
    else requantize(p, input, output, K_S16, K_S32);
  } else if (outK == K_S8) requantize(p, input, output, K_S32, K_S8);
  else requantize(p, input, output, K_S32, K_S16);
}

@inline function requantize(p: usize, input: usize, output: usize, inK: i32, outK: i32): void {
  const n = load<i32>(p, Z_COUNT);
  const m = i32x4.splat(load<i32>(p, Z_MULT));
  const left = load<i32>(p, Z_LEFT);
  const right = load<i32>(p, Z_RIGHT);
  const mask = i32x4.splat(right >= 31 ? 0x7fffffff : (1 << right) - 1);
  const half = i32x4.shr_s(mask, 1);
  const zpIn = i32x4.splat(load<i32>(p, Z_ZP_IN));
  const zpOut = i32x4.splat(load<i32>(p, Z_ZP_OUT));
  // reads up to 28 bytes past the end (never used); the arena keeps slack after its last byte
  for (let i = 0; i < n; i += 8) {
    let x0: v128, x1: v128;
    if (inK == K_S32) {
      x0 = v128.load(input + <usize>(i << 2));
      x1 = v128.load(input + <usize>(i << 2), 16);
    } else {
      // 8-bit kinds as eight 16-bit lanes, int16 as they are: sign-extended halves
      const v = loadEight(input, i, inK);
      x0 = i32x4.extend_low_i16x8_s(v);
      x1 = i32x4.extend_high_i16x8_s(v);
    }
    const a = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(x0, zpIn), left), m), right, mask, half), zpOut);
    const b = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(x1, zpIn), left), m), right, mask, half), zpOut);
    storeLanes(output, i, a, b, outK, n - i);
  }
}

/** int8 (Z_IN_U8: uint8) -> float32, eight elements per step (the tail element by element). */
export function dequantize_s8_f32(p: usize, input: usize, output: usize): void {
  if (load<i32>(p, Z_IN_U8) != 0) dequantize(p, input, output, true);
  else dequantize(p, input, output, false);
}

@inline function dequantize(p: usize, input: usize, output: usize, u8: bool): void {
  const n = load<i32>(p, Z_COUNT);
  const scale = f32x4.splat(load<f32>(p, Z_SCALE));
  const zp = i32x4.splat(load<i32>(p, Z_ZP_OUT));
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const x = load8(input + <usize>i, u8);
    v128.store(output + <usize>(i << 2), f32x4.mul(scale, f32x4.convert_i32x4_s(i32x4.sub(i32x4.extend_low_i16x8_s(x), zp))));
    v128.store(output + <usize>(i << 2), f32x4.mul(scale, f32x4.convert_i32x4_s(i32x4.sub(i32x4.extend_high_i16x8_s(x), zp))), 16);
  }
  const s = load<f32>(p, Z_SCALE);
  const z = load<i32>(p, Z_ZP_OUT);
  for (; i < n; i++) {
    const q = u8 ? <i32>load<u8>(input + <usize>i) : <i32>load<i8>(input + <usize>i);
    store<f32>(output + <usize>(i << 2), s * <f32>(q - z));
  }
}
