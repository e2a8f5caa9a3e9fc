// float32 UNIDIRECTIONAL_SEQUENCE_LSTM: one time step of every batch (TFLite's LstmStepFloat without
// layer normalization). Per batch row: the gates' matrix-vector product over the input row and the output
// state (one packed matrix [Channels x (Input + Output)], f32_conv's packing, biases folded in), the
// peepholes, sigmoid and tanh (f32_sigmoid / f32_tanh over the gate row), the cell update with its clip,
// and the gated cell output, written to the output state and the output row (or, with projection, to a
// buffer the projection GEMM reads). Batches are independent: row b reads only its own states.
//
// The gate row is gate-major: [input (unless CIFG) | forget | cell | output], S floats each. The cell
// state and the peephole products are read four floats at a time with partial loads at the tail (the
// cell state may be the last tensor in memory); the gate row has four floats of slack.
import { madd, storeLanes } from './common';
import { f32_sigmoid, f32_tanh } from './unary';
import { sigmoidExact, tanhExact } from './libm';
import {
  LF_BATCHES,
  LF_CELL,
  LF_CELL_CLIP,
  LF_CHANNELS,
  LF_CIFG,
  LF_GATES,
  LF_INPUT,
  LF_ONE_GATE,
  LF_OUTPUT,
  LF_OUT_BATCH_BYTES,
  LF_PACKED,
  LF_PEEP_F,
  LF_PEEP_I,
  LF_PEEP_O,
  LF_PROJECTED,
  LF_SIG_FIRST,
  LF_X_BATCH_BYTES,
} from '../generated/abi';

// Parameter block LF (scripts/abi.mjs), written by src/kernels/float/unidirectional-sequence-lstm.ts.

/** The first `n` floats at `p` (all four when n >= 4), zeros in the other lanes; reads nothing past them. */
@inline export function loadUpTo(p: usize, n: i32): v128 {
  if (n >= 4) return v128.load(p);
  let v = f32x4.splat(0);
  v = f32x4.replace_lane(v, 0, load<f32>(p));
  if (n > 1) v = f32x4.replace_lane(v, 1, load<f32>(p, 4));
  if (n > 2) v = f32x4.replace_lane(v, 2, load<f32>(p, 8));
  return v;
}

/** Stores the first `n` lanes of `v` at `p` (all four when n >= 4). */
@inline export function put(p: usize, v: v128, n: i32): void {
  if (n >= 4) v128.store(p, v);
  else storeLanes(p, v, n);
}

/**
 * gates[c] = packed bias c + sum_k W[c][k] * [x | h][k] for the `channels` channels, eight at a time
 * (the packing of assembly/float/gemm.ts: the last block r < 8 wide is read eight wide; its lanes past r
 * land in the row's slack).
 */
function gateProducts(w: usize, x: usize, nx: i32, h: usize, nh: i32, gates: usize, channels: i32): void {
  for (let n = 0; n < channels; n += 8) {
    const step = <usize>(min(8, channels - n) << 2);
    let acc0 = v128.load(w);
    let acc1 = v128.load(w, 16);
    w += step;
    for (let k = 0; k < nx; k++) {
      const v = v128.load32_splat(x + (<usize>k << 2));
      acc0 = madd(v, v128.load(w), acc0);
      acc1 = madd(v, v128.load(w, 16), acc1);
      w += step;
    }
    for (let k = 0; k < nh; k++) {
      const v = v128.load32_splat(h + (<usize>k << 2));
      acc0 = madd(v, v128.load(w), acc0);
      acc1 = madd(v, v128.load(w, 16), acc1);
      w += step;
    }
    const at = gates + (<usize>n << 2);
    v128.store(at, acc0);
    v128.store(at, acc1, 16);
  }
}

/** gate[j] += peep[j] * cell[j] for j < S (no-op without peephole weights); `exact`: mul then add, never fused. */
@inline function addPeephole(gate: usize, peep: usize, cell: usize, S: i32, exact: bool): void {
  if (peep == 0) return;
  for (let j = 0; j < S; j += 4) {
    const o = <usize>(j << 2);
    const left = S - j;
    const p = v128.load(peep + o);
    const c = loadUpTo(cell + o, left);
    const g = loadUpTo(gate + o, left);
    put(gate + o, exact ? f32x4.add(g, f32x4.mul(p, c)) : madd(p, c, g), left);
  }
}

/**
 * One time step of every batch: input rows from `x` (XBatchBytes apart), output states `h` [B x Output]
 * and cell states `c` [B x S] updated in place, output rows from `out` (OutBatchBytes apart).
 */
export function f32_lstm_step(pp: usize, x: usize, h: usize, c: usize, out: usize): void {
  const B = load<i32>(pp, LF_BATCHES);
  const S = load<i32>(pp, LF_CELL);
  const nOut = load<i32>(pp, LF_OUTPUT);
  const nIn = load<i32>(pp, LF_INPUT);
  const channels = load<i32>(pp, LF_CHANNELS);
  const packed = <usize>load<u32>(pp, LF_PACKED);
  const gates = <usize>load<u32>(pp, LF_GATES);
  const xStride = <usize>load<i32>(pp, LF_X_BATCH_BYTES);
  const outStride = <usize>load<i32>(pp, LF_OUT_BATCH_BYTES);
  for (let b = 0; b < B; b++) {
    const hb = h + <usize>(b * nOut) * 4;
    gateProducts(packed, x + <usize>b * xStride, nIn, hb, nOut, gates, channels);
    lstmCell(pp, b, hb, c + <usize>(b * S) * 4, out + <usize>b * outStride, false);
  }
}

/**
 * The cell of batch row `b` once the gate row (LF_GATES) holds the gates' products with their biases
 * (f32_lstm_step; hybrid_lstm_step, assembly/hybrid/lstm.ts): the peepholes, sigmoid and tanh, the cell
 * update and clip (the cell state `cb` updated in place), and the gated cell output, written to the
 * output state `hb` and the output row `ob`, or with projection (LF_PROJECTED) to row b of the
 * projection's input only. `exact` (the hybrid LSTM): sigmoid and tanh as ops-reference's, in double
 * (libm.ts), and the peephole products added unfused, so every float32 step is ops-reference's.
 */
export function lstmCell(pp: usize, b: i32, hb: usize, cb: usize, ob: usize, exact: bool): void {
  const S = load<i32>(pp, LF_CELL);
  const cifg = load<i32>(pp, LF_CIFG) != 0;
  const gates = <usize>load<u32>(pp, LF_GATES);
  const peepI = <usize>load<u32>(pp, LF_PEEP_I);
  const peepF = <usize>load<u32>(pp, LF_PEEP_F);
  const peepO = <usize>load<u32>(pp, LF_PEEP_O);
  const clip = load<f32>(pp, LF_CELL_CLIP);
  const sigFirst = <usize>load<u32>(pp, LF_SIG_FIRST);
  const oneGate = <usize>load<u32>(pp, LF_ONE_GATE);
  const projected = <usize>load<u32>(pp, LF_PROJECTED);
  const gateBytes = <usize>(S << 2);
  const gi = gates;
  const gf = cifg ? gates : gates + gateBytes;
  const gc = gf + gateBytes;
  const go = gc + gateBytes;
  const one = f32x4.splat(1);
  const hiClip = f32x4.splat(clip);
  const loClip = f32x4.neg(hiClip);
  if (!cifg) addPeephole(gi, peepI, cb, S, exact);
  addPeephole(gf, peepF, cb, S, exact);
  if (exact) {
    sigmoidExact(gates, (cifg ? 1 : 2) * S);
    tanhExact(gc, gc, S);
  } else {
    f32_sigmoid(sigFirst, gates, gates);
    f32_tanh(oneGate, gc, gc);
  }
  // cell = forget * cell + input * cellGate, clipped; the new cell also into the cell gate's place
  for (let j = 0; j < S; j += 4) {
    const o = <usize>(j << 2);
    const left = S - j;
    const f = v128.load(gf + o);
    const i = cifg ? f32x4.sub(one, f) : v128.load(gi + o);
    let v = f32x4.add(f32x4.mul(f, loadUpTo(cb + o, left)), f32x4.mul(i, v128.load(gc + o)));
    if (clip > 0) v = f32x4.pmin(f32x4.pmax(v, loClip), hiClip);
    put(cb + o, v, left);
    put(gc + o, v, left);
  }
  addPeephole(go, peepO, cb, S, exact);
  if (exact) {
    sigmoidExact(go, S);
    tanhExact(gc, gc, S);
  } else {
    f32_sigmoid(oneGate, go, go);
    f32_tanh(oneGate, gc, gc);
  }
  // output = outputGate * tanh(cell)
  const dst = projected != 0 ? projected + <usize>b * gateBytes : hb;
  for (let j = 0; j < S; j += 4) {
    const o = <usize>(j << 2);
    const left = S - j;
    const m = f32x4.mul(v128.load(go + o), v128.load(gc + o));
    put(dst + o, m, left);
    if (projected == 0) put(ob + o, m, left);
  }
}
