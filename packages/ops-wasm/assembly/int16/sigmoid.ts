// int16 LOGISTIC and TANH, TFLM's reference_integer_ops::Logistic / Tanh on int16 (core's
// logisticInt16Run / tanhInt16Run, which ops-reference runs): each input x is rescaled to
// v = (x * multiplier + round) >> shift, then |v| indexes TFLM's 256-entry sigmoid table (sigmoid(i / 24)
// in unsigned Q0.16) with linear interpolation between two entries, 9 fractional bits for LOGISTIC
// (|v| >> 9, |v| & 511) and 8 for TANH (|v| >> 8, |v| & 255), and the sign of v picks the result or its
// mirror. Eight int16 lanes per vector as two i32x4 halves, two vectors per loop iteration; byte-equal to
// TFLM:
//
// - the rescaling: `i32x4.extmul_*_i16x8_s` of x by the multiplier (at most 32767, or 3 or 6 for the
//   power-of-two scales: the product fits in int32), plus round, `i32x4.shr_s` by shift, as TFLM's int32
//   arithmetic;
// - saturation without a branch: TFLM gives 0x7fff << 10 (LOGISTIC) for |v| >> 9 >= 255, which is the
//   interpolation at |v| = 254 << 9 (table[254] = 65534, fraction 0), and 0xffff << 8 (TANH) for
//   |v| >> 8 >= 255, the interpolation at |v| = 255 << 8 (table[255] = 65535, fraction 0): |v| is clamped
//   to those (`i32x4.min_u`) and both ops read the same table. LOGISTIC's clamp also takes
//   254 << 9 <= |v| < 255 << 9 to 254 << 9, where TFLM interpolates 65534 · 2^9 + f (f = |v| & 511 < 2^9,
//   slope 1): its outputs (r + 2^9) >> 10 = 32767 and (2^25 − r + 511) >> 10 = 1 are the same for every f;
// - the lookup: each lane's entry is one 32-bit word (`v128.load32_lane` at the lane's offset), packed at
//   prepare (src/kernels/sigmoid-int16-common.ts) as the int16 pair (table[i] − 32768, table[i+1] −
//   table[i]) (entry 255: (32767, 0)), so `i32x4.dot_i16x8_s` of it with the pair (2^bits, fraction) is
//   the interpolation less 32768 · 2^bits, exactly (|entry| <= 32767, difference <= 683, fraction < 512);
// - the sign: with d that dot product and s = v >> 31 (0 or −1), TFLM's two cases are one expression:
//   LOGISTIC (d ^ s) + 2^24 + 2^9, then >> 10; TANH (d ^ s) + 2^7, then >> 8 (arithmetic). The results
//   lie in [0, 32767] and [−32768, 32767], so the saturating narrow to int16 changes nothing.
//
// The last partial vector reads past the end (the arena has slack; its lanes' table offsets are clamped
// like the others) and stores only its lanes. Output and input may be the same tensor (each vector is read
// before it is written).

@inline function gather(off: v128): v128 {
  let e = v128.load32_zero(<usize>i32x4.extract_lane(off, 0));
  e = v128.load32_lane(<usize>i32x4.extract_lane(off, 1), e, 1);
  e = v128.load32_lane(<usize>i32x4.extract_lane(off, 2), e, 2);
  return v128.load32_lane(<usize>i32x4.extract_lane(off, 3), e, 3);
}

// One i32x4 half of eight lanes: `prod` the products x · multiplier; `bits` 9 (LOGISTIC) or 8 (TANH),
// `outShift` 10 or 8; `tbl` the table's address in every lane.
@inline function half(prod: v128, rnd: v128, shift: i32, bits: i32, outShift: i32, cap: v128, tbl: v128, one: v128, bias: v128): v128 {
  const v = i32x4.shr_s(i32x4.add(prod, rnd), shift);
  const s = i32x4.shr_s(v, 31);
  const a = i32x4.min_u(i32x4.abs(v), cap);
  // entry address: tbl + (a >> bits) * 4, i.e. a >> (bits - 2) with the two fraction bits below cleared
  const e = gather(i32x4.add(v128.and(i32x4.shr_u(a, bits - 2), i32x4.splat(~3)), tbl));
  // (2^bits, fraction) as int16 pairs: the fraction in the high half of each word
  const w = v128.or(i32x4.shl(v128.and(a, i32x4.splat((1 << bits) - 1)), 16), one);
  const d = i32x4.dot_i16x8_s(e, w);
  return i32x4.shr_s(i32x4.add(v128.xor(d, s), bias), outShift);
}

/**
 * LOGISTIC (`logistic`) or TANH of `count` int16 values at `input` into `output` with the eval's
 * `multiplier` (<= 32767) and right `shift`; `tbl` the packed table. qs16_logistic / qs16_tanh and the int8
 * LSTM's gates and cell (int8/lstm.ts) run it.
 */
@inline export function run(tbl: usize, input: usize, output: usize, count: i32, multiplier: i32, shift: i32, logistic: bool): void {
  const bits = logistic ? 9 : 8;
  const outShift = logistic ? 10 : 8;
  const m = i16x8.splat(<i16>multiplier);
  const rnd = i32x4.splat(shift > 0 ? 1 << (shift - 1) : 0);
  const cap = i32x4.splat(logistic ? 254 << 9 : 255 << 8);
  const one = i32x4.splat(1 << bits);
  const bias = i32x4.splat(logistic ? (1 << 24) + (1 << 9) : 1 << 7);
  const tv = i32x4.splat(<i32>tbl);
  let i = 0;
  for (; i + 16 <= count; i += 16) {
    const k = <usize>(i << 1);
    const x = v128.load(input + k);
    const x2 = v128.load(input + k, 16);
    const lo = half(i32x4.extmul_low_i16x8_s(x, m), rnd, shift, bits, outShift, cap, tv, one, bias);
    const hi = half(i32x4.extmul_high_i16x8_s(x, m), rnd, shift, bits, outShift, cap, tv, one, bias);
    const lo2 = half(i32x4.extmul_low_i16x8_s(x2, m), rnd, shift, bits, outShift, cap, tv, one, bias);
    const hi2 = half(i32x4.extmul_high_i16x8_s(x2, m), rnd, shift, bits, outShift, cap, tv, one, bias);
    v128.store(output + k, i16x8.narrow_i32x4_s(lo, hi));
    v128.store(output + k, i16x8.narrow_i32x4_s(lo2, hi2), 16);
  }
  for (; i < count; i += 8) {
    const k = <usize>(i << 1);
    const x = v128.load(input + k);
    const lo = half(i32x4.extmul_low_i16x8_s(x, m), rnd, shift, bits, outShift, cap, tv, one, bias);
    const hi = half(i32x4.extmul_high_i16x8_s(x, m), rnd, shift, bits, outShift, cap, tv, one, bias);
    const y = i16x8.narrow_i32x4_s(lo, hi);
    const left = count - i;
    if (left >= 8) v128.store(output + k, y);
    else {
      store<i16>(output + k, i16x8.extract_lane_s(y, 0));
      if (left > 1) store<i16>(output + k, i16x8.extract_lane_s(y, 1), 2);
      if (left > 2) store<i16>(output + k, i16x8.extract_lane_s(y, 2), 4);
      if (left > 3) store<i16>(output + k, i16x8.extract_lane_s(y, 3), 6);
      if (left > 4) store<i16>(output + k, i16x8.extract_lane_s(y, 4), 8);
      if (left > 5) store<i16>(output + k, i16x8.extract_lane_s(y, 5), 10);
      if (left > 6) store<i16>(output + k, i16x8.extract_lane_s(y, 6), 12);
    }
  }
}

/**
 * int16 LOGISTIC of the `count` values at `input` into `output`: `table` the packed table (1024 bytes),
 * `multiplier` (<= 32767) and `shift` (0..31) TFLM's rescaling as the eval runs it (kernel-support's
 * int16SigmoidEvalRescale).
 */
export function qs16_logistic(table: usize, input: usize, output: usize, count: i32, multiplier: i32, shift: i32): void {
  run(table, input, output, count, multiplier, shift, true);
}

/** int16 TANH, as qs16_logistic. */
export function qs16_tanh(table: usize, input: usize, output: usize, count: i32, multiplier: i32, shift: i32): void {
  run(table, input, output, count, multiplier, shift, false);
}
