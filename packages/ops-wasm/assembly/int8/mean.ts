// int8 MEAN over the two spatial axes of an NHWC tensor (TFLM's QuantizedMeanOrSum, which current TFLM
// runs for every integer MEAN): wrapping int32 sums per (batch, channel), the input zero point removed
// as sum - zp_in * count, MultiplyByQuantizedMultiplier with 1/count folded into the multiplier (done
// at prepare, src/kernels/mean.ts), plus zp_out, saturated to int8. Eight channels per step. TFLite's
// uint8 (E_U8): the same on zero-extended values, saturated to uint8.
import { narrow8, narrowU8, rdbpot, srdhm, storeBytes } from './requant';
import { E_BATCHES, E_C, E_HW, E_LEFT, E_MULT, E_RIGHT, E_U8, E_ZP_COUNT, E_ZP_OUT } from '../generated/abi';

// Parameter block E (scripts/abi.mjs).

export function qs8_mean_hw(p: usize, input: usize, output: usize): void {
  if (load<i32>(p, E_U8) != 0) meanHW(p, input, output, true);
  else meanHW(p, input, output, false);
}

/** qs8_mean_hw with `u8` constant: uint8 values (zero-extended) and outputs. */
@inline function meanHW(p: usize, input: usize, output: usize, u8: bool): void {
  const batches = load<i32>(p, E_BATCHES);
  const hw = load<i32>(p, E_HW);
  const C = load<i32>(p, E_C);
  const zc = i32x4.splat(load<i32>(p, E_ZP_COUNT));
  const m = i32x4.splat(load<i32>(p, E_MULT));
  const left = load<i32>(p, E_LEFT);
  const right = load<i32>(p, E_RIGHT);
  const mask = i32x4.splat(right >= 31 ? 0x7fffffff : (1 << right) - 1);
  const half = i32x4.shr_s(mask, 1);
  const zp = i32x4.splat(load<i32>(p, E_ZP_OUT));
  for (let b = 0; b < batches; b++) {
    const image = input + <usize>(b * hw * C);
    const o = output + <usize>(b * C);
    for (let c = 0; c < C; c += 8) {
      let a0 = i32x4.splat(0), a1 = i32x4.splat(0);
      let src = image + <usize>c;
      for (let i = 0; i < hw; i++) {
        const v = u8 ? v128.load8x8_u(src) : v128.load8x8_s(src);
        a0 = i32x4.add(a0, i32x4.extend_low_i16x8_s(v));
        a1 = i32x4.add(a1, i32x4.extend_high_i16x8_s(v));
        src += <usize>C;
      }
      const q0 = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(a0, zc), left), m), right, mask, half), zp);
      const q1 = i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(a1, zc), left), m), right, mask, half), zp);
      const out = u8 ? narrowU8(q0, q1) : narrow8(q0, q1);
      if (C - c >= 8) v128.store64_lane(o + <usize>c, out, 0);
      else storeBytes(o + <usize>c, out, C - c);
    }
  }
}
