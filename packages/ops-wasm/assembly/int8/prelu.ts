// int8 PRELU, TFLM's reference_ops::BroadcastPrelu4DSlow exactly, with the broadcasting of MUL (three
// outer loops around one inner run; the usual per-channel alpha is a run repeated over the pixels):
//   v = x - zp_in
//   out = clamp(zp_out + (v >= 0 ? MultiplyByQuantizedMultiplier(v, M1, shift1)
//                                : MultiplyByQuantizedMultiplier(v * (alpha - zp_alpha), M2, shift2)), -128, 127)
// eight elements per step (both products computed, the sign of v choosing). TFLite's uint8 (PR_U8): the
// same arithmetic on zero-extended values, outputs narrowed to uint8.
import { narrow8, narrowU8, rdbpot, srdhm, storeBytes } from './requant';
import { PR_INNER, PR_L1, PR_L2, PR_M1, PR_M2, PR_MODE, PR_N, PR_OFF1, PR_OFF2, PR_R1, PR_R2, PR_S1, PR_S2, PR_U8, PR_ZP_OUT } from '../generated/abi';

// Parameter block PR (scripts/abi.mjs), written by src/kernels/prelu.ts.

/** MultiplyByQuantizedMultiplier with one multiplier and shift for every lane (`mask`, `half`: rdbpot's). */
@inline function mbqm(x: v128, m: v128, left: i32, right: i32, mask: v128, half: v128): v128 {
  return rdbpot(srdhm(i32x4.shl(x, left), m), right, mask, half);
}

/** rdbpot's mask 2^r - 1 (splat) for a right shift `r` in 0..31. */
@inline function maskOf(r: i32): v128 {
  return i32x4.splat(r >= 31 ? 0x7fffffff : (1 << r) - 1);
}

/** Eight values as i16x8 (`repeat`: one value eight times): int8 sign-extended, or (`u8`) uint8 zero-extended. */
@inline function load8(p: usize, repeat: bool, u8: bool): v128 {
  if (u8) return repeat ? i16x8.splat(<i16>load<u8>(p)) : v128.load8x8_u(p);
  return repeat ? i16x8.splat(<i16>load<i8>(p)) : v128.load8x8_s(p);
}

export function qs8_prelu(p: usize, input: usize, alpha: usize, output: usize): void {
  if (load<i32>(p, PR_U8) != 0) prelu(p, input, alpha, output, true);
  else prelu(p, input, alpha, output, false);
}

/** qs8_prelu with `u8` constant: uint8 values (zero-extended) and outputs. */
@inline function prelu(p: usize, input: usize, alpha: usize, output: usize, u8: bool): void {
  const off1 = i32x4.splat(load<i32>(p, PR_OFF1));
  const off2 = i32x4.splat(load<i32>(p, PR_OFF2));
  const zp = i32x4.splat(load<i32>(p, PR_ZP_OUT));
  const m1 = i32x4.splat(load<i32>(p, PR_M1));
  const l1 = load<i32>(p, PR_L1);
  const r1 = load<i32>(p, PR_R1);
  const mask1 = maskOf(r1);
  const half1 = i32x4.shr_s(mask1, 1);
  const m2 = i32x4.splat(load<i32>(p, PR_M2));
  const l2 = load<i32>(p, PR_L2);
  const r2 = load<i32>(p, PR_R2);
  const mask2 = maskOf(r2);
  const half2 = i32x4.shr_s(mask2, 1);
  const zero = i32x4.splat(0);
  const n = load<i32>(p, PR_INNER);
  const mode = load<i32>(p, PR_MODE);
  const rep1 = mode == 1, rep2 = mode == 2;
  const d1: usize = rep1 ? 0 : 8, d2: usize = rep2 ? 0 : 8;
  let o = output;
  for (let i0 = 0; i0 < load<i32>(p, PR_N); i0++) {
    for (let i1 = 0; i1 < load<i32>(p, PR_N + 4); i1++) {
      for (let i2 = 0; i2 < load<i32>(p, PR_N + 8); i2++) {
        let a = input + <usize>(i0 * load<i32>(p, PR_S1) + i1 * load<i32>(p, PR_S1 + 4) + i2 * load<i32>(p, PR_S1 + 8));
        let b = alpha + <usize>(i0 * load<i32>(p, PR_S2) + i1 * load<i32>(p, PR_S2 + 4) + i2 * load<i32>(p, PR_S2 + 8));
        for (let i = 0; i < n; i += 8) {
          // reads up to 7 bytes past each run (never used); the arena keeps slack after its last byte
          const x = load8(a, rep1, u8);
          const w = load8(b, rep2, u8);
          const v0 = i32x4.add(i32x4.extend_low_i16x8_s(x), off1);
          const v1 = i32x4.add(i32x4.extend_high_i16x8_s(x), off1);
          const w0 = i32x4.add(i32x4.extend_low_i16x8_s(w), off2);
          const w1 = i32x4.add(i32x4.extend_high_i16x8_s(w), off2);
          const pos0 = mbqm(v0, m1, l1, r1, mask1, half1);
          const pos1 = mbqm(v1, m1, l1, r1, mask1, half1);
          const neg0 = mbqm(i32x4.mul(v0, w0), m2, l2, r2, mask2, half2);
          const neg1 = mbqm(i32x4.mul(v1, w1), m2, l2, r2, mask2, half2);
          const y0 = i32x4.add(v128.bitselect(pos0, neg0, i32x4.ge_s(v0, zero)), zp);
          const y1 = i32x4.add(v128.bitselect(pos1, neg1, i32x4.ge_s(v1, zero)), zp);
          const out = u8 ? narrowU8(y0, y1) : narrow8(y0, y1);
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
