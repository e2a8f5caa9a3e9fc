/**
 * Random float32 UNIDIRECTIONAL_SEQUENCE_LSTM models for the tests: odd input, cell and output sizes,
 * time-major or batch-major, one or three batches, cell clipping, and optionally CIFG, peepholes,
 * projection (with bias and proj_clip) or layer normalization. Weights scaled by 1/sqrt(fan-in), inputs in
 * [-1, 1].
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, TensorType, type ModelDef } from '@micrort/core';
import { floats } from './single-op-float.js';
import { int, pick, rng } from './single-op.js';

/** Which LSTM variants a case uses. */
export interface LstmF32Variants {
  cifg?: boolean;
  peephole?: boolean;
  projection?: boolean;
  layerNorm?: boolean;
  /** Batches (default: 1 or 3 at random). */
  batches?: number;
  timeMajor?: boolean;
}

/** The variant sets the tests cover: both layouts with 1 and 3 batches, CIFG, peepholes, projection. */
export const LSTM_F32_CASES: [string, LstmF32Variants][] = [
  ['standard, batch-major, 1 batch', { timeMajor: false, batches: 1 }],
  ['standard, batch-major, 3 batches', { timeMajor: false, batches: 3 }],
  ['standard, time-major, 1 batch', { timeMajor: true, batches: 1 }],
  ['standard, time-major, 3 batches', { timeMajor: true, batches: 3 }],
  ['CIFG', { cifg: true }],
  ['peephole', { peephole: true }],
  ['CIFG with peephole', { cifg: true, peephole: true }],
  ['projection', { projection: true }],
  ['peephole and projection', { peephole: true, projection: true }],
  ['CIFG, peephole and projection', { cifg: true, peephole: true, projection: true }],
];

/** One random float LSTM node (`seed` picks the sizes, clips and data) with the `v` variants. */
export function buildLstmF32(seed: number, v: LstmF32Variants = {}): { def: ModelDef; inputs: Float32Array[]; desc: string } {
  const r = rng(seed);
  const timeMajor = v.timeMajor ?? r() < 0.5;
  const B = v.batches ?? pick(r, [1, 3]);
  const T = int(r, 1, 7);
  const I = int(r, 1, 21);
  const S = int(r, 1, 19);
  const nOut = v.projection ? int(r, 1, 13) : S;
  const cellClip = pick(r, [0, 0, 3, 0.5]);
  const projClip = v.projection ? pick(r, [0, 0.3]) : 0;
  const b = new ModelBuilder();
  const F = TensorType.FLOAT32;
  const x = b.addTensor({ name: 'x', type: F, shape: timeMajor ? [T, B, I] : [B, T, I] });
  const constant = (name: string, shape: number[], scale: number) =>
    b.addTensor({
      name,
      type: F,
      shape,
      data: floats(
        r,
        shape.reduce((a, c) => a * c, 1),
        -scale,
        scale,
      ),
    });
  const gates = [0, 1, 2, 3];
  const has = (g: number) => !(v.cifg && g === 0);
  const inputW = gates.map((g) => (has(g) ? constant(`wi${g}`, [S, I], 1 / Math.sqrt(I)) : -1));
  const recW = gates.map((g) => (has(g) ? constant(`wr${g}`, [S, nOut], 1 / Math.sqrt(nOut)) : -1));
  const peep = [0, 1, 3].map((g) => (v.peephole && has(g) ? constant(`p${g}`, [S], 0.5) : -1));
  const bias = gates.map((g) => (has(g) ? constant(`b${g}`, [S], 0.5) : -1));
  const projW = v.projection ? constant('wp', [nOut, S], 1 / Math.sqrt(S)) : -1;
  const projB = v.projection && r() < 0.5 ? constant('bp', [nOut], 0.3) : -1;
  const ln = gates.map((g) => (v.layerNorm && has(g) ? constant(`ln${g}`, [S], 1) : -1));
  const h = b.addTensor({ name: 'h', type: F, shape: [B, nOut], variable: true });
  const c = b.addTensor({ name: 'c', type: F, shape: [B, S], variable: true });
  const y = b.addTensor({ name: 'y', type: F, shape: timeMajor ? [T, B, nOut] : [B, T, nOut] });
  b.addOperator({
    op: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
    version: 1,
    inputs: [x, ...inputW, ...recW, ...peep, ...bias, projW, projB, h, c, ...ln],
    outputs: [y],
    options: { fusedActivationFunction: ActivationFunctionType.TANH, cellClip, projClip, timeMajor, asymmetricQuantizeInputs: false },
  });
  b.setInputs([x]).setOutputs([y]);
  const desc = JSON.stringify({ seed, ...v, timeMajor, B, T, I, S, nOut, cellClip, projClip });
  return { def: b.buildDef(), inputs: [floats(r, B * T * I)], desc };
}
