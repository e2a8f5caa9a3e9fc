// int8 SOFTMAX (TFLM reference_ops::Softmax<int8_t, int8_t | int16_t>): per row, the differences to the
// row maximum (at or above diff_min) go through gemmlowp's exp_on_negative_values in Q5.26 -> Q0.31,
// are summed in Q12.19, and each is multiplied by the reciprocal of the sum. An int8 difference takes
// only 256 values, so the exponentials are a table built at prepare with the
// same fixed-point functions (src/kernels/softmax.ts), of the differences diff_min..0 only (those below
// diff_min add nothing and output the minimum); the reciprocal (gemmlowp one_over_one_plus_x,
// Newton-Raphson) runs here once per row.
import { rdbpotScalar } from './requant';
import { S_BITS, S_DEPTH, S_DIFF_MIN, S_OUTER, S_OUT_SCALE, S_OUT_ZP, S_TABLE } from '../generated/abi';

// Parameter block S (scripts/abi.mjs): outer, depth, output bits (8 or 16), table offset, diff_min.

/** gemmlowp's integer bits of the Q12.19 sum of exponentials. */
const ACCUMULATION_INTEGER_BITS = 12;
const INT32_MIN: i32 = -2147483648;
const INT32_MAX: i32 = 2147483647;

/** SaturatingRoundingDoublingHighMul: floor((a*b + 2^30) / 2^31), saturating INT32_MIN * INT32_MIN. */
@inline function srdhmSat(a: i32, b: i32): i32 {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return <i32>((<i64>a * <i64>b + (<i64>1 << 30)) >> 31);
}

/** gemmlowp SaturatingRoundingMultiplyByPOT for exponent 1 or 2. */
@inline function satMulPot(x: i32, exponent: i32): i32 {
  const threshold = (1 << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return x << exponent;
}

/** gemmlowp RoundingHalfSum(a, INT32_MAX). */
@inline function roundingHalfSumMax(a: i32): i32 {
  const sum = <i64>a + <i64>INT32_MAX;
  const sign: i64 = sum >= 0 ? 1 : -1;
  return <i32>((sum + sign) / 2);
}

/** gemmlowp one_over_one_plus_x_for_x_in_0_1 (Q0.31 in, Q0.31 out). */
function oneOverOnePlusX(a: i32): i32 {
  const half = roundingHalfSumMax(a);
  let x = 1515870810 + srdhmSat(half, -1010580540); // 48/17 + (-32/17) * half, Q2.29
  for (let i = 0; i < 3; i++) {
    const oneMinus = (1 << 29) - srdhmSat(half, x);
    x = x + satMulPot(srdhmSat(x, oneMinus), 2);
  }
  return satMulPot(x, 1);
}

export function qs8_softmax(p: usize, input: usize, output: usize): void {
  const outer = load<i32>(p, S_OUTER);
  const depth = load<i32>(p, S_DEPTH);
  const bits = load<i32>(p, S_BITS);
  const diffMin = load<i32>(p, S_DIFF_MIN);
  const table = <usize>load<u32>(p, S_TABLE) - <usize>(diffMin << 2); // entry of difference 0
  const outMin = bits == 8 ? -128 : -32768;
  const outMax = bits == 8 ? 127 : 32767;
  for (let r = 0; r < outer; r++) {
    const row = input + <usize>(r * depth);
    // row maximum, sixteen at a time
    let m = i8x16.splat(-128);
    let c = 0;
    for (; c + 16 <= depth; c += 16) m = i8x16.max_s(m, v128.load(row + <usize>c));
    m = i8x16.max_s(m, v128.shuffle<i8>(m, m, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
    m = i8x16.max_s(m, v128.shuffle<i8>(m, m, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3));
    m = i8x16.max_s(m, v128.shuffle<i8>(m, m, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1));
    m = i8x16.max_s(m, v128.shuffle<i8>(m, m, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0));
    let rowMax = <i32>i8x16.extract_lane_s(m, 0);
    for (; c < depth; c++) rowMax = max(rowMax, <i32>load<i8>(row + <usize>c));
    // sum of the Q12.19 terms, Rescale<12> of the exponentials (wrapping, as the reference)
    const lowest = rowMax + diffMin; // inputs below it have no exponential
    const base = table - <usize>(rowMax << 2);
    let sum = 0;
    for (c = 0; c < depth; c++) {
      const x = <i32>load<i8>(row + <usize>c);
      if (x >= lowest) sum += rdbpotScalar(load<i32>(base + <usize>(x << 2)), ACCUMULATION_INTEGER_BITS);
    }
    // reciprocal of the sum: GetReciprocal(sum, 12)
    const headroomPlusOne = <i32>clz(sum);
    const numBitsOverUnit = 12 - headroomPlusOne;
    const scale = oneOverOnePlusX((sum << headroomPlusOne) - INT32_MIN);
    const exponent = numBitsOverUnit + 31 - bits;
    for (c = 0; c < depth; c++) {
      const x = <i32>load<i8>(row + <usize>c);
      let v = outMin;
      if (x >= lowest) v = min(max(rdbpotScalar(srdhmSat(scale, load<i32>(base + <usize>(x << 2))), exponent) + outMin, outMin), outMax);
      if (bits == 8) store<i8>(output + <usize>(r * depth + c), <i8>v);
      else store<i16>(output + <usize>((r * depth + c) << 1), <i16>v);
    }
  }
}

// TFLite's uint8 SOFTMAX (uint8 input, uint8 or int16 output; optimized_ops::Softmax with its float table,
// which TFLite runs for uint8 whatever the kernel variant, and ops-reference's softmaxUint8): per row, with
// m the row's maximum, e(x) = table[255 - m + x] (the table built at prepare, src/kernels/softmax.ts);
// p = e(x) * (1 / (sum of e * output scale)) in float32 with the sum taken in order. uint8 output (zero
// point 0): (int32)(p + 0.5f) clamped to [0, 255]. int16 output: p rounded half away from zero, plus the
// output zero point, clamped to [-32768, 32767] (NaN stores 0, as ops-reference's Int16Array).
// Parameter block S: outer, depth, bits, table, output scale, output zero point.
export function qu8_softmax(p: usize, input: usize, output: usize): void {
  const outer = load<i32>(p, S_OUTER);
  const depth = load<i32>(p, S_DEPTH);
  const int16 = load<i32>(p, S_BITS) == 16;
  const zp = <f64>load<i32>(p, S_OUT_ZP);
  const table = <usize>load<u32>(p, S_TABLE) + 255 * 4;
  const outScale = load<f32>(p, S_OUT_SCALE);
  for (let r = 0; r < outer; r++) {
    const row = input + <usize>(r * depth);
    // row maximum, sixteen at a time
    let m = i8x16.splat(0);
    let c = 0;
    for (; c + 16 <= depth; c += 16) m = i8x16.max_u(m, v128.load(row + <usize>c));
    m = i8x16.max_u(m, v128.shuffle<i8>(m, m, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
    m = i8x16.max_u(m, v128.shuffle<i8>(m, m, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3));
    m = i8x16.max_u(m, v128.shuffle<i8>(m, m, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1));
    m = i8x16.max_u(m, v128.shuffle<i8>(m, m, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0));
    let rowMax = <i32>i8x16.extract_lane_u(m, 0);
    for (; c < depth; c++) rowMax = max(rowMax, <i32>load<u8>(row + <usize>c));
    const base = table - <usize>(rowMax << 2); // e(x) at base + 4x
    let sum: f32 = 0;
    for (c = 0; c < depth; c++) sum += load<f32>(base + <usize>(<i32>load<u8>(row + <usize>c) << 2));
    const inv: f32 = <f32>1 / (sum * outScale);
    if (int16) {
      const o = output + <usize>((r * depth) << 1);
      for (c = 0; c < depth; c++) {
        const q: f32 = load<f32>(base + <usize>(<i32>load<u8>(row + <usize>c) << 2)) * inv;
        store<i16>(o + <usize>(c << 1), <i16>roundToInt16(<f64>q, zp));
      }
      continue;
    }
    const o = output + <usize>(r * depth);
    for (c = 0; c < depth; c++) {
      const t: f32 = load<f32>(base + <usize>(<i32>load<u8>(row + <usize>c) << 2)) * inv + <f32>0.5;
      // (int32)t clamped to [0, 255]: NaN and t <= 0 give 0, t >= 255 (and x86's INT32_MIN beyond 2^31) 255
      store<u8>(o + <usize>c, t > <f32>0 ? (t >= <f32>255 ? 255 : <u8><i32>t) : 0);
    }
  }
}

/** round(q) half away from zero (exact in f64), plus `zp`, clamped to int16; NaN gives 0. */
function roundToInt16(q: f64, zp: f64): i32 {
  if (isNaN<f64>(q)) return 0;
  const a = Math.abs(q);
  let r = Math.floor(a);
  if (a - r >= 0.5) r += 1;
  const v = (q < 0 ? -r : r) + zp;
  return v <= -32768 ? -32768 : v >= 32767 ? 32767 : <i32>v;
}
