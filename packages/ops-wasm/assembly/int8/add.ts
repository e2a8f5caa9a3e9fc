// int8 ADD, TFLM's integer ADD exactly, with broadcasting (the TypeScript side collapses the shapes into
// at most three outer loops with per-input byte strides around one inner run, in which both inputs are
// contiguous or one repeats a single value; see src/kernels/float/binary-common.ts's broadcastPlan):
//   a = (x1 - zp1) << left_shift;  b = (x2 - zp2) << left_shift       (left_shift = 20)
//   s = MBQMSmallerThanOneExp(a, m1, -r1) + MBQMSmallerThanOneExp(b, m2, -r2)
//   out = clamp(MBQMSmallerThanOneExp(s, mo, -ro) + zp_out, act_min, act_max)
// The inputs' SRDHM is two 32-bit multiplies (see inputSide); the output's is the 64-bit one.
// sixteen elements per step (four i32x4 lanes each), the tail in scalar code.
import { narrowClamp8, rdbpot, srdhm, storeBytes } from './requant';
import { A_ACT_MAX, A_ACT_MIN, A_INNER, A_LEFT, A_M1, A_M2, A_MO, A_MODE, A_N, A_OFF1, A_OFF2, A_R1, A_R2, A_RO, A_S1, A_S2, A_ZP_OUT } from '../generated/abi';

// Parameter block A (scripts/abi.mjs), written by src/kernels/add.ts.

/**
 * SRDHM((x + off) << left, m) for int8 x: with v = x + off in [-255, 255], s = 31 - left and
 * m = mh * 2^s + ml, it is v * mh + ((v * ml + 2^(s-1)) >> s) exactly (both products fit in int32 for
 * 8 <= left <= 23; src/kernels/add.ts always writes TFLM's left = 20), two i32x4.mul instead of a
 * 64-bit rounded high word.
 */
@inline function inputSide(x: v128, off: v128, mh: v128, ml: v128, half: v128, s: i32): v128 {
  const v = i32x4.add(x, off);
  return i32x4.add(i32x4.mul(v, mh), i32x4.shr_s(i32x4.add(i32x4.mul(v, ml), half), s));
}

@inline function lane(x1: v128, x2: v128, p: usize, off1: v128, off2: v128, mo: v128, zp: v128, k1: v128, k2: v128, ko: v128, half: v128, mh1: v128, ml1: v128, mh2: v128, ml2: v128): v128 {
  const s = 31 - load<i32>(p, A_LEFT);
  const a = rdbpot(inputSide(x1, off1, mh1, ml1, half, s), load<i32>(p, A_R1), k1, i32x4.shr_s(k1, 1));
  const b = rdbpot(inputSide(x2, off2, mh2, ml2, half, s), load<i32>(p, A_R2), k2, i32x4.shr_s(k2, 1));
  return i32x4.add(rdbpot(srdhm(i32x4.add(a, b), mo), load<i32>(p, A_RO), ko, i32x4.shr_s(ko, 1)), zp);
}

/** Eight int8 values at `p`, sign-extended, or the value at `p` in every lane (`repeat`). */
@inline function load8(p: usize, repeat: bool): v128 {
  return repeat ? i16x8.splat(<i16>load<i8>(p)) : v128.load8x8_s(p);
}

export function qs8_add(p: usize, in1: usize, in2: usize, output: usize): void {
  const off1 = i32x4.splat(load<i32>(p, A_OFF1));
  const off2 = i32x4.splat(load<i32>(p, A_OFF2));
  const mo = i32x4.splat(load<i32>(p, A_MO));
  const zp = i32x4.splat(load<i32>(p, A_ZP_OUT));
  const lo = i8x16.splat(<i8>load<i32>(p, A_ACT_MIN));
  const hi = i8x16.splat(<i8>load<i32>(p, A_ACT_MAX));
  const k1 = i32x4.splat((1 << load<i32>(p, A_R1)) - 1);
  const k2 = i32x4.splat((1 << load<i32>(p, A_R2)) - 1);
  const ko = i32x4.splat((1 << load<i32>(p, A_RO)) - 1);
  const s = 31 - load<i32>(p, A_LEFT);
  const half = i32x4.splat(1 << (s - 1));
  const mask = (1 << s) - 1;
  const mh1 = i32x4.splat(load<i32>(p, A_M1) >> s), ml1 = i32x4.splat(load<i32>(p, A_M1) & mask);
  const mh2 = i32x4.splat(load<i32>(p, A_M2) >> s), ml2 = i32x4.splat(load<i32>(p, A_M2) & mask);
  const n = load<i32>(p, A_INNER);
  const mode = load<i32>(p, A_MODE);
  const r1 = mode == 1, r2 = mode == 2;
  const d1: usize = r1 ? 0 : 8, d2: usize = r2 ? 0 : 8;
  let o = output;
  for (let i0 = 0; i0 < load<i32>(p, A_N); i0++) {
    for (let i1 = 0; i1 < load<i32>(p, A_N + 4); i1++) {
      for (let i2 = 0; i2 < load<i32>(p, A_N + 8); i2++) {
        let a = in1 + <usize>(i0 * load<i32>(p, A_S1) + i1 * load<i32>(p, A_S1 + 4) + i2 * load<i32>(p, A_S1 + 8));
        let b = in2 + <usize>(i0 * load<i32>(p, A_S2) + i1 * load<i32>(p, A_S2 + 4) + i2 * load<i32>(p, A_S2 + 8));
        for (let i = 0; i < n; i += 8) {
          // the last step reads a full eight past the run's end (never used) and stores what is left
          const x1 = load8(a, r1);
          const x2 = load8(b, r2);
          const s0 = lane(i32x4.extend_low_i16x8_s(x1), i32x4.extend_low_i16x8_s(x2), p, off1, off2, mo, zp, k1, k2, ko, half, mh1, ml1, mh2, ml2);
          const s1 = lane(i32x4.extend_high_i16x8_s(x1), i32x4.extend_high_i16x8_s(x2), p, off1, off2, mo, zp, k1, k2, ko, half, mh1, ml1, mh2, ml2);
          const out = narrowClamp8(s0, s1, lo, hi);
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
