// float32 MEAN, SUM, REDUCE_MAX and REDUCE_MIN over any set of axes, as the loops of kernel-support's
// reduceLoops (parameter block RD): outputs (ka, kb, i) for the kept groups KA, KB and the contiguous kept
// run Inner; each folds in[ka][kb][ra][rb][rc][i] over the reduced groups RA, RB, RC in that order, which
// is the row-major input order of ops-reference's fold (TFLM's Reduce):
//   SUM, MEAN: float32 sums from 0 (MEAN then divided by Count in float32);
//   REDUCE_MAX: from -FLT_MAX, a value replaces the running one when greater (NaN never does);
//   REDUCE_MIN: from FLT_MAX, when less.
// With Inner > 1, eight outputs per step along the inner run, each lane folding its own output in the
// same order as ops-reference (sums equal bit for bit); with Inner = 1 (the last axis reduced, RC then
// contiguous) each output folds its runs of RC values in four lanes plus a scalar tail, the lanes combined
// at the end (sums then within the float tolerance: another order; max and min equal, but for which of
// +0 and -0 a tie between them keeps).
import { store8 } from './common';
import { RD_COUNT, RD_INNER, RD_KA, RD_KB, RD_KIND, RD_RA, RD_RB, RD_RC, RD_SKA, RD_SKB, RD_SRA, RD_SRB, RD_SRC } from '../generated/abi';

const MEAN = 0, SUM = 1, MAX = 2, MIN = 3;
const FLT_MAX: f32 = 3.4028234663852886e38;

@inline function identity(kind: i32): f32 {
  return kind == MAX ? -FLT_MAX : kind == MIN ? FLT_MAX : 0;
}

@inline function fold4(kind: i32, acc: v128, v: v128): v128 {
  if (kind == MAX) return f32x4.pmax(acc, v); // acc < v ? v : acc
  if (kind == MIN) return f32x4.pmin(acc, v); // v < acc ? v : acc
  return f32x4.add(acc, v);
}

@inline function fold1(kind: i32, acc: f32, v: f32): f32 {
  if (kind == MAX) return v > acc ? v : acc;
  if (kind == MIN) return v < acc ? v : acc;
  return acc + v;
}

@inline function reduceRun(kind: i32, p: usize, input: usize, output: usize): void {
  const inner = load<i32>(p, RD_INNER);
  const KA = load<i32>(p, RD_KA), KB = load<i32>(p, RD_KB);
  const RA = load<i32>(p, RD_RA), RB = load<i32>(p, RD_RB), RC = load<i32>(p, RD_RC);
  const ska = <usize>load<i32>(p, RD_SKA) << 2, skb = <usize>load<i32>(p, RD_SKB) << 2;
  const sra = <usize>load<i32>(p, RD_SRA) << 2, srb = <usize>load<i32>(p, RD_SRB) << 2, src_ = <usize>load<i32>(p, RD_SRC) << 2;
  const count = <f32>load<i32>(p, RD_COUNT);
  let out = output;
  if (inner == 1) {
    for (let ka = 0; ka < KA; ka++)
      for (let kb = 0; kb < KB; kb++) {
        const base = input + <usize>ka * ska + <usize>kb * skb;
        let acc = f32x4.splat(identity(kind));
        let tail = identity(kind);
        for (let ra = 0; ra < RA; ra++)
          for (let rb = 0; rb < RB; rb++) {
            const run = base + <usize>ra * sra + <usize>rb * srb;
            let r = 0;
            for (; r + 4 <= RC; r += 4) acc = fold4(kind, acc, v128.load(run + (<usize>r << 2)));
            for (; r < RC; r++) tail = fold1(kind, tail, load<f32>(run + (<usize>r << 2)));
          }
        const s = fold1(
          kind,
          fold1(kind, fold1(kind, f32x4.extract_lane(acc, 0), f32x4.extract_lane(acc, 1)), fold1(kind, f32x4.extract_lane(acc, 2), f32x4.extract_lane(acc, 3))),
          tail,
        );
        store<f32>(out, kind == MEAN ? s / count : s);
        out += 4;
      }
    return;
  }
  const row = <usize>inner << 2;
  const countV = f32x4.splat(count);
  for (let ka = 0; ka < KA; ka++)
    for (let kb = 0; kb < KB; kb++) {
      const base = input + <usize>ka * ska + <usize>kb * skb;
      for (let i = 0; i < inner; i += 8) {
        const ib = <usize>(i << 2);
        let a0 = f32x4.splat(identity(kind)), a1 = a0;
        for (let ra = 0; ra < RA; ra++)
          for (let rb = 0; rb < RB; rb++) {
            let src = base + <usize>ra * sra + <usize>rb * srb + ib;
            for (let rc = 0; rc < RC; rc++) {
              a0 = fold4(kind, a0, v128.load(src));
              a1 = fold4(kind, a1, v128.load(src, 16));
              src += src_;
            }
          }
        if (kind == MEAN) {
          a0 = f32x4.div(a0, countV);
          a1 = f32x4.div(a1, countV);
        }
        store8(out + ib, a0, a1, inner - i);
      }
      out += row;
    }
}

/** The reduction RD_KIND (MEAN 0, SUM 1, REDUCE_MAX 2, REDUCE_MIN 3) of the float32 input over the loops of block RD at `p`. */
export function f32_reduce(p: usize, input: usize, output: usize): void {
  const kind = load<i32>(p, RD_KIND);
  if (kind == MEAN) reduceRun(MEAN, p, input, output);
  else if (kind == SUM) reduceRun(SUM, p, input, output);
  else if (kind == MAX) reduceRun(MAX, p, input, output);
  else reduceRun(MIN, p, input, output);
}
