/**
 * The hybrid kernels (float32 activations × int8 weights) in the interpreter: the writer-made hybrid
 * models of test-support (the cases ops-reference checks against TFLite 2.9 and LiteRT.js) give
 * ops-reference's outputs bit for bit with ops-wasm in front, int4 weights fall back to ops-reference;
 * a hybrid network's invoke allocates nothing; several threads give the bits of one.
 */
import { afterAll, describe, expect, it } from 'vitest';
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
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { hybridConvCases, hybridFullyConnectedCases } from '@micrort/test-support/hybrid-models';
import { batchQuantizeFloats, scaleFactors } from '@micrort/kernel-support';
import {
  buildHybridBatchMatMul,
  buildHybridConv,
  buildHybridFullyConnected,
  hybridInputs,
  randomHybridConvCase,
} from '../src/__tests__/single-op-hybrid.js';
import { floats } from '../src/__tests__/single-op-float.js';
import { buildTransposeConvHybrid, randomTransposeConvCase } from '../src/__tests__/single-op-tconv.js';
import { rng } from '../src/__tests__/single-op.js';
import { C } from '../src/threads/control.js';
import { threadsAvailable } from '../src/threads/pool.js';
import { PROVIDER, loadWasmKernels, loadWasmKernelsSync, type WasmKernels } from '../src/index.js';
import type { KernelExports } from '../src/wasm-module.js';

const one = loadWasmKernelsSync({ threads: 1, minMacs: 0 });

type Model = ConstructorParameters<typeof MicroInterpreter>[0];

function interpreter(model: Model, w: WasmKernels | null): MicroInterpreter {
  const resolver = registerReferenceOps(new OpResolver());
  if (w) resolver.registerAll(w.kernels, { fallback: true });
  return new MicroInterpreter(model, resolver, {
    planner: createPlanner('greedy'),
    ...(w ? { arenaBacking: w.arenaBacking } : {}),
  }).allocateTensors();
}

/** Outputs (bytes) of one invoke, and how many nodes ops-wasm served. */
function run(model: Model, inputs: ArrayBufferView[], w: WasmKernels | null): { outs: Uint8Array[]; served: number } {
  const it = interpreter(model, w);
  inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  it.invoke();
  return {
    outs: Array.from({ length: it.outputsSize }, (_, j) => it.output(j).bytes.slice()),
    served: it.nodes().filter((n) => n.provider === PROVIDER).length,
  };
}

/** image [1, 12, 12, 5] → CONV_2D 3x3 per-channel (RELU6) → DEPTHWISE 3x3 stride 2 ×2 → FULLY_CONNECTED asymmetric (RELU) → [1, 7]. */
function hybridNetwork(): { def: ReturnType<ModelBuilder['buildDef']>; input: Float32Array } {
  const r = rng(99);
  const b = new ModelBuilder();
  const q8 = (name: string, shape: number[], scales: number[], dim: number) =>
    b.addTensor({
      name,
      type: TensorType.INT8,
      shape,
      data: Int8Array.from({ length: shape.reduce((a, x) => a * x, 1) }, () => Math.floor(r() * 255) - 127),
      quantization: { scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: dim },
    });
  const f = (name: string, shape: number[], data?: Float32Array) =>
    b.addTensor({ name, type: TensorType.FLOAT32, shape, ...(data ? { data } : {}) });
  const scales = (n: number) => Array.from({ length: n }, () => 0.005 + r() * 0.01);
  const x = f('x', [1, 12, 12, 5]);
  const c = f('conv', [1, 12, 12, 16]);
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    version: 5,
    inputs: [x, q8('conv/w', [16, 3, 3, 5], scales(16), 0), f('conv/b', [16], floats(r, 16, -0.2, 0.2))],
    outputs: [c],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  const d = f('dw', [1, 6, 6, 32]);
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    version: 6,
    inputs: [c, q8('dw/w', [1, 3, 3, 32], scales(32), 3), f('dw/b', [32], floats(r, 32, -0.2, 0.2))],
    outputs: [d],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, depthMultiplier: 2 },
  });
  const y = f('y', [1, 7]);
  b.addOperator({
    op: BuiltinOperator.FULLY_CONNECTED,
    version: 9,
    inputs: [d, q8('fc/w', [7, 6 * 6 * 32], scales(7), 0), f('fc/b', [7], floats(r, 7, -0.2, 0.2))],
    outputs: [y],
    options: { fusedActivationFunction: ActivationFunctionType.RELU, asymmetricQuantizeInputs: true },
  });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), input: hybridInputs(r, 1, 12 * 12 * 5) };
}

/**
 * x [2, 40] → BATCH_MATMUL by a constant [40, 64] (asymmetric inputs) → SVDF (32 units, rank 2, memory 10,
 * RELU) → BATCH_MATMUL adj_x ([2, 32] as [K, A]) by a constant [3, 2, 16] (per-column scales, the LHS
 * broadcast) → [3, 32, 16].
 */
function hybridSequenceNetwork(): { def: ReturnType<ModelBuilder['buildDef']>; input: Float32Array } {
  const r = rng(77);
  const b = new ModelBuilder();
  const q8 = (name: string, shape: number[], scales: number[], dim = 0) =>
    b.addTensor({
      name,
      type: TensorType.INT8,
      shape,
      data: Int8Array.from({ length: shape.reduce((a, x) => a * x, 1) }, () => Math.floor(r() * 255) - 127),
      quantization: { scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: dim },
    });
  const f = (name: string, shape: number[], extra: { data?: Float32Array; variable?: boolean } = {}) =>
    b.addTensor({ name, type: TensorType.FLOAT32, shape, ...extra });
  const x = f('x', [2, 40]);
  const h = f('h', [2, 64]);
  b.addOperator({
    op: BuiltinOperator.BATCH_MATMUL,
    inputs: [x, q8('w1', [40, 64], [0.01])],
    outputs: [h],
    options: { adjX: false, adjY: false, asymmetricQuantizeInputs: true },
  });
  const s = f('s', [2, 32]);
  b.addOperator({
    op: BuiltinOperator.SVDF,
    inputs: [
      h,
      q8('wf', [64, 64], [0.002]),
      q8('wt', [64, 10], [0.01]),
      f('sb', [32], { data: floats(r, 32, -0.2, 0.2) }),
      f('state', [2, 640], { variable: true }),
    ],
    outputs: [s],
    options: { rank: 2, fusedActivationFunction: ActivationFunctionType.RELU, asymmetricQuantizeInputs: false },
  });
  const y = f('y', [3, 32, 16]);
  b.addOperator({
    op: BuiltinOperator.BATCH_MATMUL,
    inputs: [
      s,
      q8(
        'w2',
        [3, 2, 16],
        Array.from({ length: 16 }, () => 0.005 + r() * 0.01),
        2,
      ),
    ],
    outputs: [y],
    options: { adjX: true, adjY: false, asymmetricQuantizeInputs: false },
  });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), input: hybridInputs(r, 2, 40) };
}

/** Rows that test the quantization's edges: exact ties, zeros, one sign, wide and tiny magnitudes, signed zeros, NaN past the first value. */
function quantizationRows(seed: number, size: number): Float32Array {
  const r = rng(seed);
  const kind = seed % 8;
  const x = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    if (kind === 0)
      x[i] = Math.floor(r() * 255) - 127 + (r() < 0.5 ? 0.5 : 0); // symmetric scale 1: ties at .5
    else if (kind === 1)
      x[i] = Math.floor(r() * 256) - 128 + (r() < 0.5 ? 0.5 : 0); // asymmetric scale 1, zero point 0: ties
    else if (kind === 2) x[i] = 0;
    else if (kind === 3)
      x[i] = r() * 5; // one sign: zero point -128
    else if (kind === 4)
      x[i] = -r() * 0.01; // one sign: zero point 127
    else if (kind === 5) x[i] = (r() * 2 - 1) * 10 ** Math.floor(r() * 12 - 6);
    else if (kind === 6) x[i] = r() < 0.3 ? (r() < 0.5 ? -0 : 0) : r() * 3 - 1;
    else x[i] = r() * 2 - 1;
  }
  if (kind === 0) x[0] = 127; // the range
  if (kind === 1) [x[0], x[1]] = [-128, 127];
  if (kind === 7 && size > 2) x[size - 1] = NaN; // skipped by min and max, quantized to 0
  return x;
}

describe('hybrid kernels in the interpreter', () => {
  it("hybrid_quantize gives kernel-support's batchQuantizeFloats (TFLite's BatchQuantizeFloats) rows, factors and zero points exactly", () => {
    const memory = new WebAssembly.Memory({ initial: 4, maximum: 4 });
    const k = new WebAssembly.Instance(one.module, { env: { memory } }).exports as unknown as KernelExports;
    const heap = memory.buffer;
    let ties = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const batches = 1 + (seed % 3);
      const size = 1 + Math.floor(rng(seed + 1000)() * 70);
      const x = new Float32Array(batches * size);
      for (let b = 0; b < batches; b++) x.set(quantizationRows(seed * 3 + b, size), b * size);
      const asymmetric = seed % 2 === 1;
      const fold = seed % 5 === 0 ? Math.fround(0.00123 * (1 + (seed % 7))) : 0;
      const q = new Int8Array(batches * size);
      const f = new Float32Array(batches);
      const z = new Int32Array(batches);
      batchQuantizeFloats(x, 0, batches, size, q, 0, f, z, 0, asymmetric);
      if (fold !== 0) scaleFactors(f, 0, batches, fold);
      new Float32Array(heap, 0, x.length).set(x);
      const at = { q: 65536, f: 131072, z: 131072 + 64, fold: 131072 + 128 };
      new Float32Array(heap, at.fold, 1)[0] = fold;
      k.hybrid_quantize(0, batches, size, at.q, at.f, at.z, asymmetric ? 1 : 0, fold !== 0 ? at.fold : 0);
      const desc = JSON.stringify({ seed, batches, size, asymmetric, fold });
      expect(new Int8Array(heap, at.q, q.length), desc).toEqual(q);
      expect(new Uint32Array(heap, at.f, batches), desc).toEqual(new Uint32Array(f.buffer));
      expect(new Int32Array(heap, at.z, batches), desc).toEqual(z);
      for (let i = 0; i < x.length; i++) if (!asymmetric && seed % 8 === 0 && x[i]! % 1 !== 0) ties++;
    }
    expect(ties).toBeGreaterThan(100);
  });

  it("test-support's writer-made hybrid models: ops-reference's outputs bit for bit, int4 weights left to ops-reference", () => {
    const cases = [...hybridFullyConnectedCases(), ...hybridConvCases()];
    let served = 0;
    let int4 = 0;
    for (const c of cases) {
      const model = loadModel(c.bytes);
      const ref = run(model, c.inputs, null);
      const got = run(model, c.inputs, one);
      expect(got.served, c.name).toBe(c.name.includes('int4') ? 0 : 1);
      expect(got.outs, c.name).toEqual(ref.outs);
      served += got.served;
      if (c.name.includes('int4')) int4++;
    }
    expect([served, int4]).toEqual([cases.length - 5, 5]); // 13 FULLY_CONNECTED and 12 convolutions, 5 of them int4
  });

  it('a hybrid network (CONV_2D, DEPTHWISE_CONV_2D ×2, FULLY_CONNECTED) runs wholly on ops-wasm, bit for bit, and its invoke allocates nothing', () => {
    const { def, input } = hybridNetwork();
    const ref = run(def, [input], null);
    const got = run(def, [input], one);
    expect(got.served).toBe(3);
    expect(got.outs).toEqual(ref.outs);
    expect(new Set(new Float32Array(ref.outs[0]!.buffer)).size).toBeGreaterThan(3); // not all clamped
    const it_ = interpreter(def, one);
    it_.input(0).bytes.set(new Uint8Array(input.buffer));
    const m = measureAllocation(() => it_.invoke(), { warmup: 200, trials: 7, iterations: 300 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('a FULLY_CONNECTED with one weight scale (folded into the factors) allocates nothing in invoke either', () => {
    const m = buildHybridFullyConnected(3); // batches 5, per-tensor scale, asymmetric
    expect(m.desc).toContain('"scales":"tensor"');
    const it_ = interpreter(m.def, one);
    it_.input(0).bytes.set(new Uint8Array(m.input.buffer));
    // a float32 argument of a WebAssembly export costed V8 a heap number per call: 4,800 bytes per 300 invokes
    const a = measureAllocation(() => it_.invoke(), { warmup: 200, trials: 7, iterations: 300 });
    expect(a.medianTrialBytes, `heap deltas per trial: ${a.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('a TRANSPOSE_CONV of two batches (a zero point each) allocates nothing in invoke', () => {
    const c = { ...randomTransposeConvCase(6, false), dynamicFilter: false, batches: 2 };
    const m = buildTransposeConvHybrid(c, false);
    const it_ = interpreter(m.def, one);
    expect(it_.nodes()[0]!.kernel).toBe('TRANSPOSE_CONV/wasm-hybrid-scatter');
    it_.input(0).bytes.set(new Uint8Array(m.input.buffer));
    const a = measureAllocation(() => it_.invoke(), { warmup: 200, trials: 7, iterations: 300 });
    expect(a.medianTrialBytes, `heap deltas per trial: ${a.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('a hybrid sequence network (BATCH_MATMUL, SVDF, BATCH_MATMUL adj_x with a broadcast LHS) runs wholly on ops-wasm, bit for bit over several invokes, and its invoke allocates nothing', () => {
    const { def, input } = hybridSequenceNetwork();
    const ref = interpreter(def, null);
    const got = interpreter(def, one);
    expect(got.nodes().filter((n) => n.provider === PROVIDER).length).toBe(3);
    for (let step = 0; step < 4; step++) {
      const x = input.map((v, i) => v * (1 + 0.3 * step) - 0.01 * (i % 7));
      for (const it_ of [ref, got]) {
        it_.input(0).bytes.set(new Uint8Array(x.buffer));
        it_.invoke();
      }
      expect(got.output(0).bytes, `step ${step}`).toEqual(ref.output(0).bytes);
    }
    expect(new Set(new Float32Array(ref.output(0).bytes.slice().buffer)).size).toBeGreaterThan(100);
    const m = measureAllocation(() => got.invoke(), { warmup: 200, trials: 7, iterations: 300 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});

describe.skipIf(!threadsAvailable())('hybrid kernels on several threads', () => {
  // every node that can split does, however small
  let many: WasmKernels | null = null;
  afterAll(() => many?.dispose());

  it('CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED (several batches), BATCH_MATMUL and TRANSPOSE_CONV give the bits of one thread', async () => {
    many = await loadWasmKernels({ threads: 3, minMacs: 0, parallelMinMacs: 0 });
    const before = Atomics.load(many.pool!.control, C.WorkerChunks);
    let ran = 0;
    for (let seed = 1; ran < 40; seed++) {
      const c = randomHybridConvCase(seed, seed % 2 === 0);
      const m = buildHybridConv({ ...c, inH: c.inH + 6, inW: c.inW + 6 });
      if (!m) continue;
      expect(run(m.def, [m.input], many).outs, JSON.stringify(c)).toEqual(run(m.def, [m.input], one).outs);
      ran++;
    }
    for (let seed = 1; seed <= 20; seed++) {
      const m = buildHybridFullyConnected(seed);
      expect(run(m.def, [m.input], many).outs, m.desc).toEqual(run(m.def, [m.input], one).outs);
    }
    for (let seed = 1; seed <= 30; seed++) {
      const m = buildHybridBatchMatMul(seed, 40);
      expect(run(m.def, m.inputs, many).outs, m.desc).toEqual(run(m.def, m.inputs, one).outs);
    }
    for (let seed = 1; seed <= 20; seed++) {
      const c = { ...randomTransposeConvCase(seed, false), dynamicFilter: false };
      const m = buildTransposeConvHybrid(c, seed % 2 === 0);
      expect(run(m.def, [m.input], many).outs, JSON.stringify(c)).toEqual(run(m.def, [m.input], one).outs);
    }
    // the workers took chunks of these jobs (not only the main thread)
    expect(Atomics.load(many.pool!.control, C.WorkerChunks) - before).toBeGreaterThan(0);
    const { def, input } = hybridNetwork();
    const it_ = interpreter(def, many);
    it_.input(0).bytes.set(new Uint8Array(input.buffer));
    const m = measureAllocation(() => it_.invoke(), { warmup: 100, trials: 5, iterations: 200 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
