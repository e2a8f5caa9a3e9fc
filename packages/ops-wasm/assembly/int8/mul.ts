// int8 MUL, TFLM's MulElementwise exactly, with broadcasting (the loops of assembly/int8/add.ts):
//   out = clamp(zp_out + MultiplyByQuantizedMultiplier((x1 - zp1) * (x2 - zp2), M, shift), act_min, act_max)
// eight elements per step (the tail from a full-width read, stored lane by lane). TFLite's uint8 (M_U8,
// reference_ops::Mul): the same arithmetic on zero-extended values, outputs narrowed to uint8.
import { narrowClamp8, narrowClampU8, rdbpot, srdhm, storeBytes } from './requant';
import { M_ACT_MAX, M_ACT_MIN, M_INNER, M_LEFT, M_MODE, M_MULT, M_N, M_OFF1, M_OFF2, M_RIGHT, M_S1, M_S2, M_U8, M_ZP_OUT } from '../generated/abi';

// Parameter block M (scripts/abi.mjs), written by src/kernels/mul.ts.

@inline function lanes(x1: v128, x2: v128, off1: v128, off2: v128, m: v128, left: i32, right: i32, mask: v128, half: v128, zp: v128): v128 {
  const prod = i32x4.shl(i32x4.mul(i32x4.add(x1, off1), i32x4.add(x2, off2)), left);
  return i32x4.add(rdbpot(srdhm(prod, m), right, mask, half), zp);
}

/** Eight values as i16x8 (`repeat`: one value eight times): int8 sign-extended, or (`u8`) uint8 zero-extended. */
@inline function load8(p: usize, repeat: bool, u8: bool): v128 {
  if (u8) return repeat ? i16x8.splat(<i16>load<u8>(p)) : v128.load8x8_u(p);
  return repeat ? i16x8.splat(<i16>load<i8>(p)) : v128.load8x8_s(p);
}

export function qs8_mul(p: usize, in1: usize, in2: usize, output: usize): void {
  if (load<i32>(p, M_U8) != 0) mul(p, in1, in2, output, true);
  else mul(p, in1, in2, output, false);
}

/** qs8_mul with `u8` constant: uint8 values (zero-extended) and outputs. */
@inline function mul(p: usize, in1: usize, in2: usize, output: usize, u8: bool): void {
  const off1 = i32x4.splat(load<i32>(p, M_OFF1));
  const off2 = i32x4.splat(load<i32>(p, M_OFF2));
  const m = i32x4.splat(load<i32>(p, M_MULT));
  const left = load<i32>(p, M_LEFT);
  const right = load<i32>(p, M_RIGHT);
  const mask = i32x4.splat(right >= 31 ? 0x7fffffff : (1 << right) - 1);
  const half = i32x4.shr_s(mask, 1);
  const zp = i32x4.splat(load<i32>(p, M_ZP_OUT));
  const lo = i8x16.splat(<i8>load<i32>(p, M_ACT_MIN)); // uint8: the same low byte
  const hi = i8x16.splat(<i8>load<i32>(p, M_ACT_MAX));
  const n = load<i32>(p, M_INNER);
  const mode = load<i32>(p, M_MODE);
  const r1 = mode == 1, r2 = mode == 2;
  const d1: usize = r1 ? 0 : 8, d2: usize = r2 ? 0 : 8;
  let o = output;
  for (let i0 = 0; i0 < load<i32>(p, M_N); i0++) {
    for (let i1 = 0; i1 < load<i32>(p, M_N + 4); i1++) {
      for (let i2 = 0; i2 < load<i32>(p, M_N + 8); i2++) {
        let a = in1 + <usize>(i0 * load<i32>(p, M_S1) + i1 * load<i32>(p, M_S1 + 4) + i2 * load<i32>(p, M_S1 + 8));
        let b = in2 + <usize>(i0 * load<i32>(p, M_S2) + i1 * load<i32>(p, M_S2 + 4) + i2 * load<i32>(p, M_S2 + 8));
        for (let i = 0; i < n; i += 8) {
          const x1 = load8(a, r1, u8);
          const x2 = load8(b, r2, u8);
          const r0 = lanes(i32x4.extend_low_i16x8_s(x1), i32x4.extend_low_i16x8_s(x2), off1, off2, m, left, right, mask, half, zp);
          const rr = lanes(i32x4.extend_high_i16x8_s(x1), i32x4.extend_high_i16x8_s(x2), off1, off2, m, left, right, mask, half, zp);
          const out = u8 ? narrowClampU8(r0, rr, lo, hi) : narrowClamp8(r0, rr, lo, hi);
          if (n - i >= 8) v128.store64_lane(o + <usize>i, out, 0);
          else storeBytes(o + <usize>i, out, n - i);
          a += d1;
          b += d2;
        }
        o += <usize>n;
      }
    }
  }
}
