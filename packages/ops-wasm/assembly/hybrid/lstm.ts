// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM (float32 activations and states x int8 weights, TFLite's
// lstm_eval.cc LstmStepHybrid without layer normalization, as ops-reference's lstm-hybrid.ts runs it): one
// time step of every batch. Per batch row (rows are independent: each one is quantized on its own):
//   1. the input row and the output-state row quantized to int8 (hybrid_quantize: TFLite's symmetric or
//      asymmetric per-row quantization, the bits of kernel-support's batchQuantizeFloats) and widened to
//      int16 less their zero points;
//   2. per gate channel c, the exact int32 dot products of its input weights with the input row (dx) and
//      of its recurrent weights with the output-state row (dh), four channels at a time
//      (i32x4.dot_i16x8_s: |w (q - zp)| <= 128 * 255, a pair below 2^17), then TFLite's float32 steps in
//      its order: gate = (bias + f32(dx) * (factor_x * scale_x)) + f32(dh) * (factor_h * scale_h), each
//      operation rounded once (no fused multiply-add); Σ w (q - zp) is TFLite's Σ w q - zp Σ w;
//   3. the float cell (lstmCell of assembly/float/lstm.ts: peepholes, sigmoid and tanh, the cell update and
//      clip, the gated output), with ops-reference's sigmoid and tanh (double precision, float/libm.ts) and
//      unfused peephole products, so that every float32 value is ops-reference's: the next step quantizes
//      the output state again, where one last bit can move a value by a whole quantization step;
//   4. with projection: the gated output row quantized the same way, its product with the projection
//      weights, h = bias + f32(d) * (factor * scale), proj_clip, copied to the output row.
// An all-zero row quantizes to zeros with factor 1, so its product adds 0 where TFLite skips it (the same
// value up to the sign of a zero). Parameter block LH (scripts/abi.mjs).
import { sum4, widenRow } from '../int8/batch-matmul';
import { lstmCell, put } from '../float/lstm';
import { hybrid_quantize } from './quantize';
import {
  LF_BATCHES,
  LF_CELL,
  LF_CHANNELS,
  LF_GATES,
  LF_INPUT,
  LF_OUTPUT,
  LF_OUT_BATCH_BYTES,
  LF_PROJECTED,
  LF_X_BATCH_BYTES,
  LH_ASYMMETRIC,
  LH_BIAS,
  LH_FACTORS,
  LH_KH8,
  LH_KP8,
  LH_KX8,
  LH_LF,
  LH_PACKED,
  LH_PROJ_BIAS,
  LH_PROJ_CLIP,
  LH_PROJ_PACKED,
  LH_PROJ_SCALE,
  LH_QUANTIZED,
  LH_ROW,
  LH_SCALE_H,
  LH_SCALE_X,
} from '../generated/abi';

/**
 * Quantizes the `n` floats at `src` (hybrid_quantize, one row; factor and zero point at `fz`) and widens
 * them less the zero point into `k8` int16 values at `dst` (zeros past n); returns the factor.
 */
@inline function quantizeRow(src: usize, n: i32, k8: i32, asymmetric: i32, q: usize, fz: usize, dst: usize): f32 {
  hybrid_quantize(src, 1, n, q, fz, fz + 4, asymmetric, 0);
  widenRow(q, 1, n, k8, load<i32>(fz, 4), dst);
  return load<f32>(fz);
}

/** The four int32 dot products of the int8 rows at `w`, `rowBytes` apart, with the `k8` int16 values at `v`. */
@inline function dot4(w: usize, rowBytes: usize, v: usize, k8: i32): v128 {
  let a0 = i32x4.splat(0),
    a1 = a0,
    a2 = a0,
    a3 = a0;
  for (let k = 0; k < k8; k += 8) {
    const x = v128.load(v + <usize>(k << 1));
    const at = w + <usize>k;
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(x, v128.load8x8_s(at)));
    a1 = i32x4.add(a1, i32x4.dot_i16x8_s(x, v128.load8x8_s(at + rowBytes)));
    a2 = i32x4.add(a2, i32x4.dot_i16x8_s(x, v128.load8x8_s(at + 2 * rowBytes)));
    a3 = i32x4.add(a3, i32x4.dot_i16x8_s(x, v128.load8x8_s(at + 3 * rowBytes)));
  }
  return sum4(a0, a1, a2, a3);
}

/** Row b's gate products: gates[c] = (bias[c] + f32(dx) * (fx * scaleX[c])) + f32(dh) * (fh * scaleH[c]). */
@inline function gateProducts(pp: usize, channels: i32, row: usize, fx: f32, fh: f32, gates: usize): void {
  const kx8 = load<i32>(pp, LH_KX8);
  const kh8 = load<i32>(pp, LH_KH8);
  const rowBytes = <usize>(kx8 + kh8);
  const rowH = row + <usize>(kx8 << 1);
  const bias = <usize>load<u32>(pp, LH_BIAS);
  const scaleX = <usize>load<u32>(pp, LH_SCALE_X);
  const scaleH = <usize>load<u32>(pp, LH_SCALE_H);
  const fxv = f32x4.splat(fx);
  const fhv = f32x4.splat(fh);
  let w = <usize>load<u32>(pp, LH_PACKED);
  for (let c = 0; c < channels; c += 4) {
    const dx = f32x4.convert_i32x4_s(dot4(w, rowBytes, row, kx8));
    const dh = f32x4.convert_i32x4_s(dot4(w + <usize>kx8, rowBytes, rowH, kh8));
    const o = <usize>(c << 2);
    const g = f32x4.add(v128.load(bias + o), f32x4.mul(dx, f32x4.mul(fxv, v128.load(scaleX + o))));
    v128.store(gates + o, f32x4.add(g, f32x4.mul(dh, f32x4.mul(fhv, v128.load(scaleH + o)))));
    w += rowBytes * 4;
  }
}

/**
 * Row b's projection: the gated output row at `p` (S floats) quantized, h[o] = bias[o] + f32(d) * (factor *
 * scale) for the Output rows of the projection weights, clipped to ±ProjClip (when > 0), into the output
 * state row `hb` and the output row `ob`.
 */
@inline function project(pp: usize, S: i32, nOut: i32, p: usize, hb: usize, ob: usize, q: usize, fz: usize, row: usize): void {
  const kp8 = load<i32>(pp, LH_KP8);
  const factor = quantizeRow(p, S, kp8, load<i32>(pp, LH_ASYMMETRIC), q, fz, row);
  const sv = f32x4.splat(factor * load<f32>(pp, LH_PROJ_SCALE));
  const clip = load<f32>(pp, LH_PROJ_CLIP);
  const hiClip = f32x4.splat(clip);
  const loClip = f32x4.neg(hiClip);
  const bias = <usize>load<u32>(pp, LH_PROJ_BIAS);
  const rowBytes = <usize>kp8;
  let w = <usize>load<u32>(pp, LH_PROJ_PACKED);
  for (let o = 0; o < nOut; o += 4) {
    const at = <usize>(o << 2);
    let v = f32x4.add(v128.load(bias + at), f32x4.mul(f32x4.convert_i32x4_s(dot4(w, rowBytes, row, kp8)), sv));
    // v > clip ? clip : v < -clip ? -clip : v (NaN passes, as the scalar code)
    if (clip > 0) v = f32x4.pmax(f32x4.pmin(v, hiClip), loClip);
    const left = nOut - o;
    put(hb + at, v, left);
    put(ob + at, v, left);
    w += rowBytes * 4;
  }
}

/**
 * One time step of every batch: input rows from `x` (XBatchBytes apart), output states `h` [B x Output]
 * and cell states `c` [B x S] updated in place, output rows from `out` (OutBatchBytes apart).
 */
export function hybrid_lstm_step(pp: usize, x: usize, h: usize, c: usize, out: usize): void {
  const lf = <usize>load<u32>(pp, LH_LF);
  const B = load<i32>(lf, LF_BATCHES);
  const S = load<i32>(lf, LF_CELL);
  const nOut = load<i32>(lf, LF_OUTPUT);
  const nIn = load<i32>(lf, LF_INPUT);
  const channels = load<i32>(lf, LF_CHANNELS);
  const gates = <usize>load<u32>(lf, LF_GATES);
  const xStride = <usize>load<i32>(lf, LF_X_BATCH_BYTES);
  const outStride = <usize>load<i32>(lf, LF_OUT_BATCH_BYTES);
  const projected = <usize>load<u32>(lf, LF_PROJECTED);
  const asymmetric = load<i32>(pp, LH_ASYMMETRIC);
  const kx8 = load<i32>(pp, LH_KX8);
  const q = <usize>load<u32>(pp, LH_QUANTIZED);
  const row = <usize>load<u32>(pp, LH_ROW);
  const fz = <usize>load<u32>(pp, LH_FACTORS);
  for (let b = 0; b < B; b++) {
    const hb = h + <usize>(b * nOut) * 4;
    const cb = c + <usize>(b * S) * 4;
    const ob = out + <usize>b * outStride;
    const fx = quantizeRow(x + <usize>b * xStride, nIn, kx8, asymmetric, q, fz, row);
    const fh = quantizeRow(hb, nOut, load<i32>(pp, LH_KH8), asymmetric, q, fz + 8, row + <usize>(kx8 << 1));
    gateProducts(pp, channels, row, fx, fh, gates);
    lstmCell(lf, b, hb, cb, ob, true);
    if (projected != 0) project(pp, S, nOut, projected + <usize>(b * S) * 4, hb, ob, q, fz, row);
  }
}
