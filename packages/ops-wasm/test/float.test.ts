/**
 * The float32 kernels on real float CNNs and in the interpreter: MediaPipe's face detector and hand
 * landmark model (float16 weights folded at prepare by DEQUANTIZE) with ops-wasm in front of
 * ops-reference, outputs against TFLite itself (the oracle, packages/test-support/src/tflite-oracle.ts) within the
 * float tolerance; the float32 conformance-ops cases of the ops ops-wasm serves against TFLM's outputs;
 * and a float chain whose invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  loadModel,
} from '@micrort/core';
import { corpusBytes } from '@micrort/corpus';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { OPS_SKIP_REASON, hasConformanceOps, listModels, makeInterpreter, readManifest, runCase } from '@micrort/test-support/conformance';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable, randomInputs } from '@micrort/test-support/tflite-oracle';
import { floats } from '../src/__tests__/single-op-float.js';
import { rng } from '../src/__tests__/single-op.js';
import { PROVIDER, loadWasmKernelsSync } from '../src/index.js';

const wasm = loadWasmKernelsSync({ minMacs: 0 }); // every layer, however small: these tests check the kernels
const resolver = () => registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(wasm.kernels, { fallback: true });

/** Ops of the real models that stay on ops-reference: folded DEQUANTIZE (nothing to do at invoke), RESHAPE, PAD (int8 side's, served too). */
const NOT_WASM = new Set(['DEQUANTIZE', 'RESHAPE']);

/** Float32 outputs within 1e-5 + 1e-4·|b| + 1e-6·max|b| (TFLite sums in XNNPACK's order; see compareWithTflite's relativeToMax). */
function mismatches(got: Uint8Array, expected: Uint8Array): { bad: number; n: number; maxAbs: number } {
  const a = new Float32Array(got.slice().buffer);
  const b = new Float32Array(expected.slice().buffer);
  let max = 0;
  for (let i = 0; i < b.length; i++) max = Math.max(max, Math.abs(b[i]!));
  let bad = 0;
  let maxAbs = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    maxAbs = Math.max(maxAbs, d);
    if (!(d <= 1e-5 + 1e-6 * max + 1e-4 * Math.abs(b[i]!))) bad++;
  }
  return { bad, n: a.length, maxAbs };
}

if (!oracleAvailable) it.skip(`float CNNs on ops-wasm vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

describe.skipIf(!oracleAvailable)('real float CNNs on ops-wasm vs TFLite', () => {
  it.each(['face_detection_short_range', 'hand_landmark_lite'])(
    '%s: every compute node on ops-wasm, outputs within tolerance of TFLite, twice',
    (name) => {
      const bytes = corpusBytes(name);
      const oracle = new TfliteOracle(bytes);
      const interp = new MicroInterpreter(loadModel(bytes), resolver(), {
        planner: createPlanner('greedy'),
        arena: 'auto',
        arenaBacking: wasm.arenaBacking,
      }).allocateTensors();
      const off = interp.nodes().filter((n) => n.provider !== PROVIDER && !NOT_WASM.has(n.op));
      expect(off.map((n) => `${n.index} ${n.op}`)).toEqual([]);
      for (const seed of [1, 2]) {
        const inputs = randomInputs(oracle.inputs, seed);
        const expected = oracle.run(inputs);
        inputs.forEach((b, i) => interp.setInput(i, b));
        interp.invoke();
        const res = expected.map((e, j) => mismatches(interp.output(j).bytes, e));
        expect(
          res.map((r) => r.bad),
          JSON.stringify(res),
        ).toEqual(res.map(() => 0));
      }
    },
  );
});

/** conformance-ops cases of ops the float kernels serve. */
const FLOAT_OPS = new Set([
  'CONV_2D',
  'DEPTHWISE_CONV_2D',
  'FULLY_CONNECTED',
  'ADD',
  'MUL',
  'PRELU',
  'SUB',
  'DIV',
  'MAXIMUM',
  'MINIMUM',
  'SQUARED_DIFFERENCE',
  'ABS',
  'NEG',
  'SQRT',
  'RSQRT',
  'SQUARE',
  'EXP',
  'GELU',
  'LOG',
  'ELU',
  'AVERAGE_POOL_2D',
  'MAX_POOL_2D',
  'MEAN',
  'SUM',
  'REDUCE_MAX',
  'REDUCE_MIN',
  'CONCATENATION',
  'LOGISTIC',
  'RELU',
  'RELU6',
  'HARD_SWISH',
  'RESIZE_BILINEAR',
]);

describe.skipIf(!hasConformanceOps)('conformance-ops float32 cases through ops-wasm', () => {
  const names = hasConformanceOps
    ? listModels('ops').filter((n) => {
        const m = readManifest(n, 'ops') as unknown as { op: string; cases: { inputs: { dtype: string }[] }[] };
        return FLOAT_OPS.has(m.op) && m.cases[0]!.inputs.every((i) => i.dtype === 'float32');
      })
    : [];
  it('match TFLM within the float tolerance, ops-wasm serving all but the variants it declines', () => {
    expect(names.length).toBeGreaterThan(3);
    const served: string[] = [];
    for (const name of names) {
      const opts = { suite: 'ops' as const, resolver, arenaBacking: wasm.arenaBacking };
      if (
        makeInterpreter(name, opts)
          .nodes()
          .some((n) => n.provider === PROVIDER)
      )
        served.push(name);
      for (let c = 0; c < 3; c++) {
        const r = runCase(name, c, opts);
        expect({ name, c, failed: r.outputs.filter((o) => !o.pass) }).toEqual({ name, c, failed: [] });
      }
    }
    console.log(
      `conformance-ops float32 on ops-wasm: ${served.join(', ')}; declined: ${names.filter((n) => !served.includes(n)).join(', ')}`,
    );
    // every variant runs on ops-wasm
    expect(names.filter((n) => !served.includes(n))).toEqual([]);
  });
  if (!hasConformanceOps) it.skip(OPS_SKIP_REASON, () => {});
});

/**
 * A float network using every float kernel: CONV_2D 3x3 s2 → DEPTHWISE_CONV_2D → ADD → RELU →
 * HARD_SWISH → PRELU (per-channel alpha) → MUL (per-channel constant) → RESIZE_BILINEAR → AVERAGE_POOL_2D → MAX_POOL_2D →
 * CONCATENATION (with a RELU6 branch) → LOGISTIC → MEAN → FULLY_CONNECTED. Input [1, 12, 12, 3].
 */
function floatChain() {
  const r = rng(99);
  const b = new ModelBuilder();
  const F = TensorType.FLOAT32;
  const t = (name: string, shape: number[], data?: Float32Array) => b.addTensor({ name, type: F, shape, ...(data ? { data } : {}) });
  const x = t('x', [1, 12, 12, 3]);
  const c1 = t('c1', [1, 6, 6, 10]);
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    inputs: [x, t('w1', [10, 3, 3, 3], floats(r, 270, -0.4, 0.4)), t('b1', [10], floats(r, 10))],
    outputs: [c1],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const d1 = t('d1', [1, 6, 6, 10]);
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [c1, t('w2', [1, 3, 3, 10], floats(r, 90, -0.5, 0.5)), t('b2', [10], floats(r, 10))],
    outputs: [d1],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1, depthMultiplier: 1 },
  });
  const s1 = t('s1', [1, 6, 6, 10]);
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [c1, d1], outputs: [s1] });
  const r1 = t('r1', [1, 6, 6, 10]);
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [s1], outputs: [r1] });
  const h1 = t('h1', [1, 6, 6, 10]);
  b.addOperator({ op: BuiltinOperator.HARD_SWISH, inputs: [r1], outputs: [h1] });
  const pr = t('pr', [1, 6, 6, 10]);
  b.addOperator({ op: BuiltinOperator.PRELU, inputs: [h1, t('alpha', [1, 1, 10], floats(r, 10, -0.5, 0.5))], outputs: [pr] });
  const m1 = t('m1', [1, 6, 6, 10]);
  b.addOperator({ op: BuiltinOperator.MUL, inputs: [pr, t('g', [10], floats(r, 10, 0.5, 1.5))], outputs: [m1] });
  // a normalization's elementwise ops, one after the other
  const mu = t('mu', [10], floats(r, 10, -0.5, 0.5));
  let v = m1;
  const step = (op: BuiltinOperator, name: string, second?: number) => {
    const o = t(name, [1, 6, 6, 10]);
    b.addOperator({ op, inputs: second === undefined ? [v] : [v, second], outputs: [o] });
    v = o;
  };
  step(BuiltinOperator.SQUARED_DIFFERENCE, 'sqd', mu);
  step(BuiltinOperator.ADD, 'eps', t('eps_c', [1], Float32Array.of(0.5)));
  step(BuiltinOperator.RSQRT, 'rsq');
  step(BuiltinOperator.DIV, 'div', t('den', [10], floats(r, 10, 0.5, 2)));
  step(BuiltinOperator.SUB, 'sub', mu);
  step(BuiltinOperator.ELU, 'elu');
  step(BuiltinOperator.MAXIMUM, 'max', t('lo', [1], Float32Array.of(-0.8)));
  step(BuiltinOperator.MINIMUM, 'min', t('hi', [1], Float32Array.of(0.9)));
  step(BuiltinOperator.NEG, 'neg');
  step(BuiltinOperator.ABS, 'abs');
  step(BuiltinOperator.SQUARE, 'sqr');
  step(BuiltinOperator.SQRT, 'sqt');
  step(BuiltinOperator.ADD, 'eps2', t('eps2_c', [1], Float32Array.of(0.25)));
  step(BuiltinOperator.LOG, 'log');
  const up = t('up', [1, 9, 9, 10]);
  b.addOperator({
    op: BuiltinOperator.RESIZE_BILINEAR,
    version: 3,
    inputs: [v, b.addTensor({ name: 'size', type: TensorType.INT32, shape: [2], data: Int32Array.of(9, 9) })],
    outputs: [up],
    options: { halfPixelCenters: true },
  });
  const a1 = t('a1', [1, 5, 5, 10]);
  b.addOperator({
    op: BuiltinOperator.AVERAGE_POOL_2D,
    inputs: [up],
    outputs: [a1],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, filterHeight: 3, filterWidth: 3 },
  });
  const p1 = t('p1', [1, 5, 5, 10]);
  b.addOperator({
    op: BuiltinOperator.MAX_POOL_2D,
    inputs: [a1],
    outputs: [p1],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1, filterHeight: 2, filterWidth: 2 },
  });
  const q1 = t('q1', [1, 5, 5, 10]);
  b.addOperator({ op: BuiltinOperator.RELU6, inputs: [a1], outputs: [q1] });
  const cat = t('cat', [1, 5, 5, 20]);
  b.addOperator({ op: BuiltinOperator.CONCATENATION, inputs: [p1, q1], outputs: [cat], options: { axis: 3 } });
  const l1 = t('l1', [1, 5, 5, 20]);
  b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [cat], outputs: [l1] });
  const mean = t('mean', [1, 20]);
  b.addOperator({
    op: BuiltinOperator.MEAN,
    inputs: [l1, b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 2) })],
    outputs: [mean],
    options: { keepDims: false },
  });
  const th = t('th', [1, 20]);
  b.addOperator({ op: BuiltinOperator.TANH, inputs: [mean], outputs: [th] });
  const fc = t('fc', [1, 7]);
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    inputs: [th, t('w3', [7, 20], floats(r, 140)), t('b3', [7], floats(r, 7))],
    outputs: [fc],
  });
  const y = t('y', [1, 7]);
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [fc], outputs: [y], options: { beta: 1 } });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), input: floats(r, 432) };
}

describe('float kernels in the interpreter', () => {
  it('serve every node of a float chain, in WebAssembly memory, within tolerance of ops-reference, and invoke() allocates nothing', () => {
    const { def, input } = floatChain();
    const make = (withWasm: boolean) =>
      new MicroInterpreter(def, withWasm ? resolver() : registerReferenceOps(new OpResolver()), {
        planner: createPlanner('greedy'),
        ...(withWasm ? { arenaBacking: wasm.arenaBacking } : {}),
      }).allocateTensors();
    const ref = make(false);
    const got = make(true);
    expect(got.nodes().map((n) => n.provider)).toEqual(Array(got.nodes().length).fill(PROVIDER));
    ref.setInput(0, input);
    ref.invoke();
    got.setInput(0, input);
    got.invoke();
    const e = ref.output(0).data as Float32Array;
    const a = got.output(0).data as Float32Array;
    for (let i = 0; i < e.length; i++) expect(Math.abs(a[i]! - e[i]!), `element ${i}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(e[i]!));
    const m = measureAllocation(() => got.invoke(), { warmup: 300, trials: 7, iterations: 300 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});

describe('float elementwise kernels in place', () => {
  it('with inPlace: true the chain shares buffers (RELU, HARD_SWISH, ADD, ...) and gives the same outputs as without', () => {
    const { def, input } = floatChain();
    const run = (inPlace: boolean) => {
      const it_ = new MicroInterpreter(def, resolver(), {
        planner: createPlanner('greedy'),
        arenaBacking: wasm.arenaBacking,
        inPlace,
      }).allocateTensors();
      it_.setInput(0, input);
      it_.invoke();
      const same = (i: number, o: number) =>
        it_.tensor(i).data.buffer === it_.tensor(o).data.buffer && it_.tensor(i).data.byteOffset === it_.tensor(o).data.byteOffset;
      const shared = it_.nodes().filter((n) => n.inputs.some((i) => i >= 0 && same(i, n.outputs[0]!)));
      return { out: Float32Array.from(it_.output(0).data as Float32Array), shared: shared.map((n) => n.op) };
    };
    const a = run(false);
    const b = run(true);
    expect(a.shared).toEqual([]);
    expect(b.shared.length).toBeGreaterThanOrEqual(2);
    expect(b.out).toEqual(a.out);
  });
});
