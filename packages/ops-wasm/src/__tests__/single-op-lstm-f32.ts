/**
 * Random float32 UNIDIRECTIONAL_SEQUENCE_LSTM models for the tests: odd input, cell and output sizes,
 * time-major or batch-major, one or three batches, cell clipping, and optionally CIFG, peepholes,
 * projection (with bias and proj_clip) or layer normalization. Weights scaled by 1/sqrt(fan-in), inputs in
 * [-1, 1].
 *
 * Hybrid (`hybrid`: the converter's dynamic-range quantization): the weight matrices, peepholes and
 * projection weights int8 (or uint8 bytes, read as int8) with a random scale each (per tensor, or with
 * `perChannel` one per row), symmetric or `asymmetric` input quantization, and inputs of
 * single-op-hybrid's hybridInputs (all-zero rows, one-signed rows, several magnitudes).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import type { WasmKernels } from '../create-wasm-kernels.js';
import { PROVIDER } from '../provider.js';
import { floats } from './single-op-float.js';
import { hybridInputs } from './single-op-hybrid.js';
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
  /** Hybrid weights: int8, or uint8 bytes holding int8 values (TFLite's legacy hybrid weights). */
  hybrid?: 'int8' | 'uint8';
  /** asymmetric_quantize_inputs (hybrid). */
  asymmetric?: boolean;
  /** One scale per row of every hybrid weight tensor (TFLite's hybrid LSTM reads one per tensor). */
  perChannel?: boolean;
  /** Sizes instead of random ones. */
  sizes?: { T: number; I: number; S: number };
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

/** The float variants (both layouts, 1 and 3 batches, CIFG, peepholes, projection), each with int8 weights and symmetric inputs, and with int8 or uint8 weights and asymmetric inputs. */
export const HYBRID_LSTM_CASES: [string, LstmF32Variants][] = LSTM_F32_CASES.flatMap(([name, v], i): [string, LstmF32Variants][] => [
  [`${name}, int8, symmetric`, { ...v, hybrid: 'int8', asymmetric: false }],
  [`${name}, ${i % 2 ? 'uint8' : 'int8'}, asymmetric`, { ...v, hybrid: i % 2 ? 'uint8' : 'int8', asymmetric: true }],
]);

/** The first element where `got` and `expected` are not the same number (NaN equal to NaN, ±0 equal), or null. */
export function firstDifference(got: Float32Array, expected: Float32Array): string | null {
  if (got.length !== expected.length) return `length ${got.length} vs ${expected.length}`;
  for (let i = 0; i < got.length; i++)
    if (got[i] !== expected[i] && !(Number.isNaN(got[i]) && Number.isNaN(expected[i])))
      return `element ${i}: got ${got[i]}, expected ${expected[i]}`;
  return null;
}

/** One random float LSTM node (`seed` picks the sizes, clips and data) with the `v` variants. */
export function buildLstmF32(seed: number, v: LstmF32Variants = {}): { def: ModelDef; inputs: Float32Array[]; desc: string } {
  const r = rng(seed);
  const timeMajor = v.timeMajor ?? r() < 0.5;
  const B = v.batches ?? pick(r, [1, 3]);
  const T = v.sizes?.T ?? int(r, 1, 7);
  const I = v.sizes?.I ?? int(r, 1, 21);
  const S = v.sizes?.S ?? int(r, 1, 19);
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
  // a hybrid weight: int8 values with a scale (about `scale` / 127, or one per row), or uint8 bytes of them
  const hybridWeight = (name: string, shape: number[], scale: number) => {
    const n = shape.reduce((a, c) => a * c, 1);
    const w = Int8Array.from({ length: n }, () => (r() < 0.01 ? -128 : int(r, -127, 127)));
    const s = () => (scale / 127) * (0.5 + r());
    const q = v.perChannel
      ? { scale: Array.from({ length: shape[0]! }, s), zeroPoint: Array<number>(shape[0]!).fill(0), quantizedDimension: 0 }
      : { scale: s(), zeroPoint: 0 };
    const type = v.hybrid === 'uint8' ? TensorType.UINT8 : TensorType.INT8;
    return b.addTensor({ name, type, shape, data: v.hybrid === 'uint8' ? new Uint8Array(w.buffer) : w, quantization: q });
  };
  const weight = v.hybrid ? hybridWeight : constant;
  const gates = [0, 1, 2, 3];
  const has = (g: number) => !(v.cifg && g === 0);
  const inputW = gates.map((g) => (has(g) ? weight(`wi${g}`, [S, I], 1 / Math.sqrt(I)) : -1));
  const recW = gates.map((g) => (has(g) ? weight(`wr${g}`, [S, nOut], 1 / Math.sqrt(nOut)) : -1));
  const peep = [0, 1, 3].map((g) => (v.peephole && has(g) ? weight(`p${g}`, [S], 0.5) : -1));
  const bias = gates.map((g) => (has(g) ? constant(`b${g}`, [S], 0.5) : -1));
  const projW = v.projection ? weight('wp', [nOut, S], 1 / Math.sqrt(S)) : -1;
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
    options: {
      fusedActivationFunction: ActivationFunctionType.TANH,
      cellClip,
      projClip,
      timeMajor,
      asymmetricQuantizeInputs: v.asymmetric ?? false,
    },
  });
  b.setInputs([x]).setOutputs([y]);
  const desc = JSON.stringify({ seed, ...v, timeMajor, B, T, I, S, nOut, cellClip, projClip });
  return { def: b.buildDef(), inputs: [v.hybrid ? hybridInputs(r, B * T, I) : floats(r, B * T * I)], desc };
}

/** `invokes` invokes of `def` with ops-wasm's `w` in front of ops-reference (or ops-reference alone); the output and the served count. */
export function runLstm(def: ModelDef, input: Float32Array, w: WasmKernels | null, invokes: number): { out: Float32Array; served: number } {
  const resolver = registerReferenceOps(new OpResolver());
  if (w) resolver.registerAll(w.kernels, { fallback: true });
  const interp = new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), ...(w ? { arenaBacking: w.arenaBacking } : {}) });
  interp.allocateTensors();
  interp.input(0).bytes.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  for (let i = 0; i < invokes; i++) interp.invoke();
  const out = new Float32Array(Uint8Array.from(interp.output(0).bytes).buffer);
  return { out, served: interp.nodes().filter((n) => n.provider === PROVIDER).length };
}
