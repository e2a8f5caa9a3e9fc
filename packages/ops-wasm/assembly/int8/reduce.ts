// int8 (and TFLite's uint8, RD_U8) MEAN, SUM, REDUCE_MAX and REDUCE_MIN over any set of axes, as the
// loops of kernel-support's reduceLoops (parameter block RD; see float/reduce.ts): outputs (ka, kb, i),
// each folding in[ka][kb][ra][rb][rc][i] over the reduced groups RA, RB, RC.
//   REDUCE_MAX / REDUCE_MIN: TFLM's ReduceGeneric on the raw values (input and output share their
//   quantization), from the type's lowest / highest value: i8x16.max_s / min_s (max_u / min_u), exact in
//   any order.
//   SUM, MEAN: TFLM's QuantizedMeanOrSum: wrapping int32 sums (exact in any order), the input zero point
//   removed as sum - zp_in * count, MultiplyByQuantizedMultiplier (MEAN with 1/count folded into the
//   multiplier at prepare, src/kernels/reduce-common.ts), plus zp_out, saturated to the type. The sums
//   gather in int16 lanes over runs of at most 256 values (|256 * -128| fits; uint8 in unsigned lanes,
//   256 * 255 < 2^16), then widen into int32 lanes.
// With Inner > 1, sixteen outputs per step along the inner run; with Inner = 1 (the last axis reduced,
// RC contiguous) sixteen values per step along each run, the lanes combined per output.
import { rdbpot, rdbpotScalar, srdhm, srdhmScalar, storeBytes } from './requant';
import {
  RD_COUNT,
  RD_INNER,
  RD_KA,
  RD_KB,
  RD_KIND,
  RD_LEFT,
  RD_MULT,
  RD_RA,
  RD_RB,
  RD_RC,
  RD_RIGHT,
  RD_SKA,
  RD_SKB,
  RD_SRA,
  RD_SRB,
  RD_SRC,
  RD_U8,
  RD_ZP_COUNT,
  RD_ZP_OUT,
} from '../generated/abi';

const MAX = 2, MIN = 3;
/** Values summed in int16 lanes before they widen to int32. */
const RUN16 = 256;

/** The reduction RD_KIND (MEAN 0, SUM 1, REDUCE_MAX 2, REDUCE_MIN 3) of the int8 / uint8 input over the loops of block RD at `p`. */
export function qs8_reduce(p: usize, input: usize, output: usize): void {
  const kind = load<i32>(p, RD_KIND);
  const u8 = load<i32>(p, RD_U8) != 0;
  if (kind == MAX) {
    if (u8) extremes(p, input, output, true, true);
    else extremes(p, input, output, true, false);
  } else if (kind == MIN) {
    if (u8) extremes(p, input, output, false, true);
    else extremes(p, input, output, false, false);
  } else if (u8) sums(p, input, output, true);
  else sums(p, input, output, false);
}

@inline function fold16(max: bool, u8: bool, acc: v128, v: v128): v128 {
  if (max) return u8 ? i8x16.max_u(acc, v) : i8x16.max_s(acc, v);
  return u8 ? i8x16.min_u(acc, v) : i8x16.min_s(acc, v);
}

@inline function fold1(max: bool, acc: i32, v: i32): i32 {
  return max ? (v > acc ? v : acc) : v < acc ? v : acc;
}

/** The value max / min start from: the type's lowest / highest, as a byte. */
@inline function identityByte(max: bool, u8: bool): i32 {
  return max ? (u8 ? 0 : -128) : u8 ? 255 : 127;
}

@inline function loadValue(u8: bool, at: usize): i32 {
  return u8 ? <i32>load<u8>(at) : <i32>load<i8>(at);
}

/** REDUCE_MAX (`max`) or REDUCE_MIN. */
@inline function extremes(p: usize, input: usize, output: usize, max: bool, u8: bool): void {
  const inner = load<i32>(p, RD_INNER);
  const KA = load<i32>(p, RD_KA), KB = load<i32>(p, RD_KB);
  const RA = load<i32>(p, RD_RA), RB = load<i32>(p, RD_RB), RC = load<i32>(p, RD_RC);
  const ska = <usize>load<i32>(p, RD_SKA), skb = <usize>load<i32>(p, RD_SKB);
  const sra = <usize>load<i32>(p, RD_SRA), srb = <usize>load<i32>(p, RD_SRB), src_ = <usize>load<i32>(p, RD_SRC);
  const id = identityByte(max, u8);
  let out = output;
  if (inner == 1) {
    for (let ka = 0; ka < KA; ka++)
      for (let kb = 0; kb < KB; kb++) {
        const base = input + <usize>ka * ska + <usize>kb * skb;
        let acc = i8x16.splat(<i8>id);
        let tail = id;
        for (let ra = 0; ra < RA; ra++)
          for (let rb = 0; rb < RB; rb++) {
            const run = base + <usize>ra * sra + <usize>rb * srb;
            let r = 0;
            for (; r + 16 <= RC; r += 16) acc = fold16(max, u8, acc, v128.load(run + <usize>r));
            for (; r < RC; r++) tail = fold1(max, tail, loadValue(u8, run + <usize>r));
          }
        acc = fold16(max, u8, acc, i8x16.shuffle(acc, acc, 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15));
        acc = fold16(max, u8, acc, i8x16.shuffle(acc, acc, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7));
        acc = fold16(max, u8, acc, i8x16.shuffle(acc, acc, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3));
        acc = fold16(max, u8, acc, i8x16.shuffle(acc, acc, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
        const lanes = u8 ? <i32>i8x16.extract_lane_u(acc, 0) : <i32>i8x16.extract_lane_s(acc, 0);
        store<u8>(out, <u8>fold1(max, lanes, tail));
        out += 1;
      }
    return;
  }
  for (let ka = 0; ka < KA; ka++)
    for (let kb = 0; kb < KB; kb++) {
      const base = input + <usize>ka * ska + <usize>kb * skb;
      for (let i = 0; i < inner; i += 16) {
        let acc = i8x16.splat(<i8>id);
        for (let ra = 0; ra < RA; ra++)
          for (let rb = 0; rb < RB; rb++) {
            let src = base + <usize>ra * sra + <usize>rb * srb + <usize>i;
            for (let rc = 0; rc < RC; rc++) {
              acc = fold16(max, u8, acc, v128.load(src));
              src += src_;
            }
          }
        if (inner - i >= 16) v128.store(out + <usize>i, acc);
        else storeBytes(out + <usize>i, acc, inner - i);
      }
      out += <usize>inner;
    }
}

/** The requantization of four int32 sums: MultiplyByQuantizedMultiplier(sum - zc) + zp. */
@inline function requant4(s: v128, zc: v128, left: i32, m: v128, right: i32, mask: v128, half: v128, zp: v128): v128 {
  return i32x4.add(rdbpot(srdhm(i32x4.shl(i32x4.sub(s, zc), left), m), right, mask, half), zp);
}

/** MEAN and SUM (QuantizedMeanOrSum; the block's multiplier and shifts tell them apart). */
@inline function sums(p: usize, input: usize, output: usize, u8: bool): void {
  const inner = load<i32>(p, RD_INNER);
  const KA = load<i32>(p, RD_KA), KB = load<i32>(p, RD_KB);
  const RA = load<i32>(p, RD_RA), RB = load<i32>(p, RD_RB), RC = load<i32>(p, RD_RC);
  const ska = <usize>load<i32>(p, RD_SKA), skb = <usize>load<i32>(p, RD_SKB);
  const sra = <usize>load<i32>(p, RD_SRA), srb = <usize>load<i32>(p, RD_SRB), src_ = <usize>load<i32>(p, RD_SRC);
  const zcS = load<i32>(p, RD_ZP_COUNT), mS = load<i32>(p, RD_MULT), zpS = load<i32>(p, RD_ZP_OUT);
  const left = load<i32>(p, RD_LEFT), right = load<i32>(p, RD_RIGHT);
  const zc = i32x4.splat(zcS), m = i32x4.splat(mS), zp = i32x4.splat(zpS);
  const mask = i32x4.splat(right >= 31 ? 0x7fffffff : (1 << right) - 1);
  const half = i32x4.shr_s(mask, 1);
  let out = output;
  if (inner == 1) {
    const lo = u8 ? 0 : -128, hi = u8 ? 255 : 127;
    for (let ka = 0; ka < KA; ka++)
      for (let kb = 0; kb < KB; kb++) {
        const base = input + <usize>ka * ska + <usize>kb * skb;
        let acc = i32x4.splat(0);
        let tail = 0;
        for (let ra = 0; ra < RA; ra++)
          for (let rb = 0; rb < RB; rb++) {
            const run = base + <usize>ra * sra + <usize>rb * srb;
            let r = 0;
            for (; r + 16 <= RC; r += 16) {
              const v = v128.load(run + <usize>r);
              const pairs = u8
                ? i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(v))
                : i32x4.extadd_pairwise_i16x8_s(i16x8.extadd_pairwise_i8x16_s(v));
              acc = i32x4.add(acc, pairs);
            }
            for (; r < RC; r++) tail += loadValue(u8, run + <usize>r);
          }
        const sum = i32x4.extract_lane(acc, 0) + i32x4.extract_lane(acc, 1) + i32x4.extract_lane(acc, 2) + i32x4.extract_lane(acc, 3) + tail;
        const q = rdbpotScalar(srdhmScalar((sum - zcS) << left, mS), right) + zpS;
        store<u8>(out, <u8>(q < lo ? lo : q > hi ? hi : q));
        out += 1;
      }
    return;
  }
  for (let ka = 0; ka < KA; ka++)
    for (let kb = 0; kb < KB; kb++) {
      const base = input + <usize>ka * ska + <usize>kb * skb;
      for (let i = 0; i < inner; i += 16) {
        let s0 = i32x4.splat(0), s1 = s0, s2 = s0, s3 = s0;
        for (let ra = 0; ra < RA; ra++)
          for (let rb = 0; rb < RB; rb++) {
            let src = base + <usize>ra * sra + <usize>rb * srb + <usize>i;
            for (let rc0 = 0; rc0 < RC; rc0 += RUN16) {
              const end = min(RC - rc0, RUN16);
              let h0 = i16x8.splat(0), h1 = h0;
              for (let rc = 0; rc < end; rc++) {
                const v = v128.load(src);
                if (u8) {
                  h0 = i16x8.add(h0, i16x8.extend_low_i8x16_u(v));
                  h1 = i16x8.add(h1, i16x8.extend_high_i8x16_u(v));
                } else {
                  h0 = i16x8.add(h0, i16x8.extend_low_i8x16_s(v));
                  h1 = i16x8.add(h1, i16x8.extend_high_i8x16_s(v));
                }
                src += src_;
              }
              if (u8) {
                s0 = i32x4.add(s0, i32x4.extend_low_i16x8_u(h0));
                s1 = i32x4.add(s1, i32x4.extend_high_i16x8_u(h0));
                s2 = i32x4.add(s2, i32x4.extend_low_i16x8_u(h1));
                s3 = i32x4.add(s3, i32x4.extend_high_i16x8_u(h1));
              } else {
                s0 = i32x4.add(s0, i32x4.extend_low_i16x8_s(h0));
                s1 = i32x4.add(s1, i32x4.extend_high_i16x8_s(h0));
                s2 = i32x4.add(s2, i32x4.extend_low_i16x8_s(h1));
                s3 = i32x4.add(s3, i32x4.extend_high_i16x8_s(h1));
              }
            }
          }
        const q0 = requant4(s0, zc, left, m, right, mask, half, zp);
        const q1 = requant4(s1, zc, left, m, right, mask, half, zp);
        const q2 = requant4(s2, zc, left, m, right, mask, half, zp);
        const q3 = requant4(s3, zc, left, m, right, mask, half, zp);
        const a = i16x8.narrow_i32x4_s(q0, q1), b = i16x8.narrow_i32x4_s(q2, q3);
        const bytes = u8 ? i8x16.narrow_i16x8_u(a, b) : i8x16.narrow_i16x8_s(a, b);
        if (inner - i >= 16) v128.store(out + <usize>i, bytes);
        else storeBytes(out + <usize>i, bytes, inner - i);
      }
      out += <usize>inner;
    }
}
