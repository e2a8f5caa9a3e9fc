// float32 MEAN, SUM, REDUCE_MAX and REDUCE_MIN over a contiguous block of axes: the input seen as
// [outer, R, inner] (src/kernels/float/reduce.ts merges the axes: kept, reduced, kept), every output
// (o, i) folding in[o][r][i] for r = 0 .. R - 1 in input order, as ops-reference's fold (TFLM's Reduce):
//   SUM, MEAN: float32 sums from 0 (MEAN then divided by R in float32);
//   REDUCE_MAX: from -FLT_MAX, a value replaces the running one when greater (NaN never does);
//   REDUCE_MIN: from FLT_MAX, when less.
// With inner > 1, eight outputs per step along the inner axis, each lane folding its own output in the
// same order as ops-reference (sums equal bit for bit); with inner = 1 (the last axis reduced) each row
// folds in four lanes, then the lanes and a scalar tail (sums then within the float tolerance: another order).
import { store8 } from './common';
import { FM_INNER, FM_KIND, FM_OUTER, FM_R } from '../generated/abi';

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

@inline function reduceRun(kind: i32, outer: i32, R: i32, inner: i32, input: usize, output: usize): void {
  const count = <f32>R;
  if (inner == 1) {
    let src = input;
    for (let o = 0; o < outer; o++) {
      let acc = f32x4.splat(identity(kind));
      let r = 0;
      for (; r + 4 <= R; r += 4) acc = fold4(kind, acc, v128.load(src + (<usize>r << 2)));
      let s = fold1(kind, fold1(kind, f32x4.extract_lane(acc, 0), f32x4.extract_lane(acc, 1)), fold1(kind, f32x4.extract_lane(acc, 2), f32x4.extract_lane(acc, 3)));
      for (; r < R; r++) s = fold1(kind, s, load<f32>(src + (<usize>r << 2)));
      store<f32>(output + (<usize>o << 2), kind == MEAN ? s / count : s);
      src += <usize>R << 2;
    }
    return;
  }
  const row = <usize>inner << 2;
  const countV = f32x4.splat(count);
  let block = input;
  let out = output;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i += 8) {
      const ib = <usize>(i << 2);
      let a0 = f32x4.splat(identity(kind)), a1 = a0;
      let src = block + ib;
      for (let r = 0; r < R; r++) {
        a0 = fold4(kind, a0, v128.load(src));
        a1 = fold4(kind, a1, v128.load(src, 16));
        src += row;
      }
      if (kind == MEAN) {
        a0 = f32x4.div(a0, countV);
        a1 = f32x4.div(a1, countV);
      }
      store8(out + ib, a0, a1, inner - i);
    }
    block += <usize>R * row;
    out += row;
  }
}

/** The reduction FM_KIND (MEAN 0, SUM 1, REDUCE_MAX 2, REDUCE_MIN 3) of the [FM_OUTER, FM_R, FM_INNER] input into [FM_OUTER, FM_INNER]. */
export function f32_reduce(p: usize, input: usize, output: usize): void {
  const outer = load<i32>(p, FM_OUTER), R = load<i32>(p, FM_R), inner = load<i32>(p, FM_INNER);
  const kind = load<i32>(p, FM_KIND);
  if (kind == MEAN) reduceRun(MEAN, outer, R, inner, input, output);
  else if (kind == SUM) reduceRun(SUM, outer, R, inner, input, output);
  else if (kind == MAX) reduceRun(MAX, outer, R, inner, input, output);
  else reduceRun(MIN, outer, R, inner, input, output);
}
