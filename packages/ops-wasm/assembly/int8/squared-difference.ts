// int8 and int16 SQUARED_DIFFERENCE, TFLM's quantized squared_difference.cc exactly, with the broadcasting
// of MUL (three outer loops around one inner run):
//   x = MultiplyByQuantizedMultiplierSmallerThanOneExp((x1 - zp1) << shift, M1, -r1), y likewise
//   out = clamp(zp_out + MultiplyByQuantizedMultiplier((x - y)^2, Mo, shift_o), type min, type max)
// (shift 7 for int8, 0 for int16), eight elements per step; int16 (SD_I16) outputs narrowed to int16.
import { narrow8, rdbpot, srdhm, storeBytes } from './requant';
import { SD_I16, SD_INNER, SD_LO, SD_M1, SD_M2, SD_MO, SD_MODE, SD_N, SD_OFF1, SD_OFF2, SD_R1, SD_R2, SD_RO, SD_S1, SD_S2, SD_SHIFT, SD_ZP_OUT } from '../generated/abi';

// Parameter block SD (scripts/abi.mjs), written by src/kernels/squared-difference.ts.

/** rdbpot's mask 2^r - 1 (splat) for a right shift `r` in 0..31. */
@inline function maskOf(r: i32): v128 {
  return i32x4.splat(r >= 31 ? 0x7fffffff : (1 << r) - 1);
}

/** Eight values as i16x8 (`repeat`: one value eight times): int8 sign-extended, or (`i16`) int16. */
@inline function load8(p: usize, repeat: bool, i16: bool): v128 {
  if (i16) return repeat ? i16x8.splat(load<i16>(p)) : v128.load(p);
  return repeat ? i16x8.splat(<i16>load<i8>(p)) : v128.load8x8_s(p);
}

export function qs_squared_difference(p: usize, in1: usize, in2: usize, output: usize): void {
  if (load<i32>(p, SD_I16) != 0) squaredDifference(p, in1, in2, output, true);
  else squaredDifference(p, in1, in2, output, false);
}

/** qs_squared_difference with `i16` constant: int16 tensors. */
@inline function squaredDifference(p: usize, in1: usize, in2: usize, output: usize, i16: bool): void {
  const off1 = i32x4.splat(load<i32>(p, SD_OFF1));
  const off2 = i32x4.splat(load<i32>(p, SD_OFF2));
  const zp = i32x4.splat(load<i32>(p, SD_ZP_OUT));
  const shift = load<i32>(p, SD_SHIFT);
  const m1 = i32x4.splat(load<i32>(p, SD_M1));
  const r1 = load<i32>(p, SD_R1);
  const mask1 = maskOf(r1);
  const half1 = i32x4.shr_s(mask1, 1);
  const m2 = i32x4.splat(load<i32>(p, SD_M2));
  const r2 = load<i32>(p, SD_R2);
  const mask2 = maskOf(r2);
  const half2 = i32x4.shr_s(mask2, 1);
  const mo = i32x4.splat(load<i32>(p, SD_MO));
  const lo = load<i32>(p, SD_LO);
  const ro = load<i32>(p, SD_RO);
  const masko = maskOf(ro);
  const halfo = i32x4.shr_s(masko, 1);
  const n = load<i32>(p, SD_INNER);
  const mode = load<i32>(p, SD_MODE);
  const rep1 = mode == 1, rep2 = mode == 2;
  const size: usize = i16 ? 2 : 1;
  const d1: usize = rep1 ? 0 : 8 * size, d2: usize = rep2 ? 0 : 8 * size;
  let o = output;
  for (let i0 = 0; i0 < load<i32>(p, SD_N); i0++) {
    for (let i1 = 0; i1 < load<i32>(p, SD_N + 4); i1++) {
      for (let i2 = 0; i2 < load<i32>(p, SD_N + 8); i2++) {
        let a = in1 + <usize>(i0 * load<i32>(p, SD_S1) + i1 * load<i32>(p, SD_S1 + 4) + i2 * load<i32>(p, SD_S1 + 8));
        let b = in2 + <usize>(i0 * load<i32>(p, SD_S2) + i1 * load<i32>(p, SD_S2 + 4) + i2 * load<i32>(p, SD_S2 + 8));
        for (let i = 0; i < n; i += 8) {
          // reads up to 14 bytes past each run (never used); the arena keeps slack after its last byte
          const x1 = load8(a, rep1, i16);
          const x2 = load8(b, rep2, i16);
          const a0 = rdbpot(srdhm(i32x4.shl(i32x4.add(i32x4.extend_low_i16x8_s(x1), off1), shift), m1), r1, mask1, half1);
          const a1 = rdbpot(srdhm(i32x4.shl(i32x4.add(i32x4.extend_high_i16x8_s(x1), off1), shift), m1), r1, mask1, half1);
          const b0 = rdbpot(srdhm(i32x4.shl(i32x4.add(i32x4.extend_low_i16x8_s(x2), off2), shift), m2), r2, mask2, half2);
          const b1 = rdbpot(srdhm(i32x4.shl(i32x4.add(i32x4.extend_high_i16x8_s(x2), off2), shift), m2), r2, mask2, half2);
          const e0 = i32x4.sub(a0, b0);
          const e1 = i32x4.sub(a1, b1);
          const y0 = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.mul(e0, e0), lo), mo), ro, masko, halfo), zp);
          const y1 = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.mul(e1, e1), lo), mo), ro, masko, halfo), zp);
          if (i16) {
            const out = i16x8.narrow_i32x4_s(y0, y1);
            const at = o + (<usize>i << 1);
            if (n - i >= 8) v128.store(at, out);
            else storeBytes(at, out, (n - i) << 1);
          } else {
            const out = narrow8(y0, y1);
            if (n - i >= 8) v128.store64_lane(o + <usize>i, out, 0);
            else storeBytes(o + <usize>i, out, n - i);
          }
          a += d1;
          b += d2;
        }
        o += <usize>n * size;
      }
    }
  }
}
