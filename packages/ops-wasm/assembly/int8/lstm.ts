// UNIDIRECTIONAL_SEQUENCE_LSTM, the int8 variant (TFLM lstm_eval.h EvalLstm<int8_t, int8_t, int16_t,
// int32_t>, which ops-reference follows): every time step of every batch in one call. Per step, as TFLM's
// LstmStep:
//
//   gate g = act(sat16(FC_in_g(x) + FC_rec_g(h)))   act: sigmoid (forget, input, output), tanh (cell)
//   c = sat16(clamp16(MBQM(forget * c)) + clamp16(MBQM(input * cellGate)))   then clip to ±CellClip
//   h = clamp8(zp + MBQM(tanh(c) * output))          the output row is a copy of h
//
// The eight gate FCs are qs8_conv's one-pixel GEMM (conv.ts's gemvGate: int16 Q3.12 outputs clamped to
// int16, input zero points folded into the biases at prepare, the GEMV layout without padding; one
// requantization block per FC, written into the scratch buffer from LQ_RQ before the FC runs); the sigmoid and tanh are int16/sigmoid.ts's TFLM table
// interpolation (gates: Q3.12 in, multiplier 3, no shift; the cell: the eval's rescaling of
// 2^-12 / cell scale); MBQM is TFLM's MultiplyByQuantizedMultiplier (requant.ts: srdhm, then rdbpot),
// exact on int32 lanes (the int16 x int16 products fit). Batches run one after another over all their
// steps (a batch row's state depends on nothing else), so time-major input with several batches reads
// row t * Batches + b, batch-major b * Steps + t.
//
// Memory: `table` the packed sigmoid table (1 KB at the end of the memory, past the arena:
// src/constant-tables.ts); `scratch` four int16 gate buffers of LQ_GATES values (S rounded up to 8, so
// whole vectors stay inside), then one requantization block (64 bytes). The cell and hidden states are rows of S values in tensors of several
// batches: their last partial vector is read past the row (the arena has slack) but stored lane by lane.
import { RQ_LEFT, RQ_M, RQ_RIGHT, RQ_R_ZERO, LQ_BATCHES, LQ_CELL_CLIP, LQ_CLIP, LQ_FC, LQ_FC_MULT, LQ_FC_SHIFT, LQ_GATES, LQ_H_MULT, LQ_H_SHIFT, LQ_H_ZP, LQ_IC_MULT, LQ_IC_SHIFT, LQ_INPUT, LQ_RQ, LQ_STATE, LQ_STEPS, LQ_TANH_MULT, LQ_TANH_SHIFT, LQ_TIME_MAJOR } from '../generated/abi';
import { gemvGate } from './conv';
import { rdbpot, srdhm, storeBytes } from './requant';
import { run as sigmoid16 } from '../int16/sigmoid';

// MultiplyByQuantizedMultiplier(x, M, shift) on four lanes: `m` M splat, `left` 2^max(shift, 0) splat
// (TFLM's x * (1 << left_shift), wrapping), `r` max(-shift, 0), `mask` 2^r - 1 and `half` mask >> 1 splat.
@inline function mbqm(x: v128, m: v128, left: v128, r: i32, mask: v128, half: v128): v128 {
  return rdbpot(srdhm(i32x4.mul(x, left), m), r, mask, half);
}

// mbqm's vectors from TFLM's (multiplier, shift)
@inline function leftOf(shift: i32): v128 {
  return i32x4.splat(1 << (shift > 0 ? shift : 0));
}
@inline function rightOf(shift: i32): i32 {
  return shift > 0 ? 0 : -shift;
}
@inline function maskOf(shift: i32): v128 {
  return i32x4.splat((1 << rightOf(shift)) - 1);
}
@inline function halfOf(shift: i32): v128 {
  return i32x4.splat(((1 << rightOf(shift)) - 1) >> 1);
}

/** MBQM of the eight int16 x int16 products a * b, saturated to int16. */
@inline function mul16(a: v128, b: v128, m: v128, left: v128, r: i32, mask: v128, half: v128): v128 {
  const lo = mbqm(i32x4.extmul_low_i16x8_s(a, b), m, left, r, mask, half);
  const hi = mbqm(i32x4.extmul_high_i16x8_s(a, b), m, left, r, mask, half);
  return i16x8.narrow_i32x4_s(lo, hi);
}

/**
 * Writes FC `f`'s requantization block (RQ, the general path, every lane alike) at `rq` from its quantized
 * multiplier and shift in LQ_RQ, as src/kernels/kernel-common.ts's writeRequantBlock does.
 */
@inline function gateRq(pp: usize, f: i32, rq: usize): void {
  const at = pp + <usize>(f << 3);
  const shift = load<i32>(at, LQ_RQ + 4);
  const left = shift > 0 ? shift : 0;
  const r = shift > 0 ? 0 : -shift;
  v128.store(rq, i32x4.splat(load<i32>(at, LQ_RQ)), RQ_M);
  v128.store(rq, i32x4.splat(1 << left), RQ_LEFT);
  v128.store(rq, i32x4.splat(r == 0 || r > 31 ? 0 : 1 << (31 - r)), RQ_RIGHT);
  v128.store(rq, i32x4.splat(r == 0 ? -1 : 0), RQ_R_ZERO);
}

/**
 * One gate (TFLM CalculateLstmGate): act(sat16(FC_in(x) + FC_rec(h))) into `out`; `tmp` the recurrent FC's,
 * `rq` the requantization block of the FC being run.
 */
@inline function gate(pp: usize, g: i32, x: usize, h: usize, out: usize, tmp: usize, rq: usize, gates: i32, state: i32, inputDim: i32, tbl: usize, logistic: bool): void {
  const f = pp + <usize>(g << 3);
  gateRq(pp, 2 * g, rq);
  gemvGate(<usize>load<u32>(f, LQ_FC), rq, x, out, state, inputDim);
  gateRq(pp, 2 * g + 1, rq);
  gemvGate(<usize>load<u32>(f, LQ_FC + 4), rq, h, tmp, state, state);
  for (let i = 0; i < gates; i += 8) {
    const k = <usize>(i << 1);
    v128.store(out + k, i16x8.add_sat_s(v128.load(out + k), v128.load(tmp + k)));
  }
  sigmoid16(tbl, out, out, state, 3, 0, logistic);
}

/**
 * The int8 LSTM over all steps and batches (parameter block LQ at `pp`): `input` int8 rows of LQ_INPUT
 * bytes, `hidden` (int8) and `cell` (int16) the state tensors (Batches rows of S, updated in place),
 * `output` int8 rows of S, `table` the packed sigmoid table, `scratch` four gate buffers of LQ_GATES int16 and a requantization block.
 */
export function qs8_lstm(pp: usize, input: usize, hidden: usize, cell: usize, output: usize, table: usize, scratch: usize): void {
  const batches = load<i32>(pp, LQ_BATCHES);
  const steps = load<i32>(pp, LQ_STEPS);
  const timeMajor = load<i32>(pp, LQ_TIME_MAJOR) != 0;
  const inputDim = load<i32>(pp, LQ_INPUT);
  const S = load<i32>(pp, LQ_STATE);
  const gates = load<i32>(pp, LQ_GATES);
  const fs = load<i32>(pp, LQ_FC_SHIFT);
  const fM = i32x4.splat(load<i32>(pp, LQ_FC_MULT)), fL = leftOf(fs), fR = rightOf(fs), fMask = maskOf(fs), fHalf = halfOf(fs);
  const is = load<i32>(pp, LQ_IC_SHIFT);
  const iM = i32x4.splat(load<i32>(pp, LQ_IC_MULT)), iL = leftOf(is), iR = rightOf(is), iMask = maskOf(is), iHalf = halfOf(is);
  const hs = load<i32>(pp, LQ_H_SHIFT);
  const hM = i32x4.splat(load<i32>(pp, LQ_H_MULT)), hL = leftOf(hs), hR = rightOf(hs), hMask = maskOf(hs), hHalf = halfOf(hs);
  const zp = load<i32>(pp, LQ_H_ZP);
  const zpv = i32x4.splat(zp);
  // clamp(zp + q, -128, 127) = clamp(q, -128 - zp, 127 - zp) + zp, with no int32 overflow
  const qLo = i32x4.splat(-128 - zp);
  const qHi = i32x4.splat(127 - zp);
  const clip = load<i32>(pp, LQ_CLIP) != 0;
  const clipHi = i16x8.splat(<i16>load<i32>(pp, LQ_CELL_CLIP));
  const clipLo = i16x8.splat(<i16>-load<i32>(pp, LQ_CELL_CLIP));
  const tanhMult = load<i32>(pp, LQ_TANH_MULT);
  const tanhShift = load<i32>(pp, LQ_TANH_SHIFT);
  const bytes = <usize>(gates << 1);
  const g0 = scratch; // forget gate, then tanh(cell)
  const g1 = g0 + bytes; // input gate, then its product with the cell gate, then the output gate
  const g2 = g1 + bytes; // cell gate
  const g3 = g2 + bytes; // the recurrent FC of the gate being computed
  const rq = g3 + bytes; // the requantization block of the FC being run
  for (let b = 0; b < batches; b++) {
    const h = hidden + <usize>(b * S);
    const c = cell + <usize>(b * S * 2);
    for (let t = 0; t < steps; t++) {
      const row = timeMajor ? t * batches + b : b * steps + t;
      const x = input + <usize>(row * inputDim);
      gate(pp, 0, x, h, g0, g3, rq, gates, S, inputDim, table, true);
      gate(pp, 1, x, h, g1, g3, rq, gates, S, inputDim, table, true);
      gate(pp, 2, x, h, g2, g3, rq, gates, S, inputDim, table, false);
      // c = sat16(clamp16(forget * c) + clamp16(input * cellGate)), clipped
      for (let i = 0; i < S; i += 8) {
        const k = <usize>(i << 1);
        const fc = mul16(v128.load(g0 + k), v128.load(c + k), fM, fL, fR, fMask, fHalf);
        const ic = mul16(v128.load(g1 + k), v128.load(g2 + k), iM, iL, iR, iMask, iHalf);
        let v = i16x8.add_sat_s(fc, ic);
        if (clip) v = i16x8.max_s(i16x8.min_s(v, clipHi), clipLo);
        if (S - i >= 8) v128.store(c + k, v);
        else storeBytes(c + k, v, (S - i) << 1);
      }
      gate(pp, 3, x, h, g1, g3, rq, gates, S, inputDim, table, true);
      sigmoid16(table, c, g0, S, tanhMult, tanhShift, false);
      // h = clamp8(zp + MBQM(tanh(c) * output)); the output row is a copy
      for (let i = 0; i < S; i += 8) {
        const k = <usize>(i << 1);
        const a = v128.load(g0 + k);
        const o = v128.load(g1 + k);
        const lo = i32x4.add(i32x4.max_s(i32x4.min_s(mbqm(i32x4.extmul_low_i16x8_s(a, o), hM, hL, hR, hMask, hHalf), qHi), qLo), zpv);
        const hi = i32x4.add(i32x4.max_s(i32x4.min_s(mbqm(i32x4.extmul_high_i16x8_s(a, o), hM, hL, hR, hMask, hHalf), qHi), qLo), zpv);
        const v = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(lo, hi), i16x8.narrow_i32x4_s(lo, hi));
        storeBytes(h + <usize>i, v, S - i < 8 ? S - i : 8);
      }
      memory.copy(output + <usize>(row * S), h, <usize>S);
    }
  }
}
