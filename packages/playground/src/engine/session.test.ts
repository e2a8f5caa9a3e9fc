import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  composeRuntime,
  loadModel,
  type Registration,
} from '@micrort/core';
import { SplitMix64, appRuntimePackages, buildDemoModel, fillRandom } from '@micrort/app-kit';
import { corpusBytes } from '@micrort/corpus';
import { buildFloatCnn } from '@micrort/ops-gpu';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';
import { FLOWER_LABELS, buildLabelledUint8Classifier } from '@micrort/test-support/tflite-metadata';
import { checkModelNodes, errorOf } from './check.js';
import { checkHeadline, fallbackLines } from './served.js';
import { PlaygroundSession } from './session.js';

function nodeOutputs(bytes: Uint8Array, seed: number): Uint8Array[] {
  const resolver = new OpResolver();
  registerReferenceOps(resolver);
  registerSignalOps(resolver);
  const it = new MicroInterpreter(loadModel(bytes), resolver, { planner: createPlanner('greedy') }).allocateTensors();
  const rng = new SplitMix64(seed);
  for (let i = 0; i < it.inputsSize; i++) fillRandom(it.input(i), rng);
  it.invoke();
  return Array.from({ length: it.outputsSize }, (_, j) => it.output(j).bytes.slice());
}

/** x float32[1,4] → ADD(x, x) → CUSTOM "Nope" → RELU → y: one node nobody serves. */
function modelWithUnknownOp(): Uint8Array {
  const b = new ModelBuilder({ description: 'unknown op' });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const s = b.addTensor({ name: 'sum', type: TensorType.FLOAT32, shape: [1, 4] });
  const n = b.addTensor({ name: 'nope', type: TensorType.FLOAT32, shape: [1, 4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, x], outputs: [s] });
  b.addOperator({ op: { custom: 'Nope' }, inputs: [s], outputs: [n] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [n], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** FULLY_CONNECTED whose weights do not match its input depth: prepare fails; a RELU after it is fine. */
function modelWithBadFc(): Uint8Array {
  const b = new ModelBuilder({ description: 'bad fc' });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [2, 3], data: new Float32Array(6) });
  const h = b.addTensor({ name: 'h', type: TensorType.FLOAT32, shape: [1, 2] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 2] });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, -1], outputs: [h] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [h], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

describe('PlaygroundSession', () => {
  it('opens a model: summary with inputs, outputs, quantization and op histogram', () => {
    const s = new PlaygroundSession();
    const m = s.open(buildDemoModel(), 'demo');
    expect(m.inputs.map((t) => [t.name, t.type, t.shape])).toEqual([['x', 'float32', [1, 16]]]);
    expect(m.outputs.map((t) => [t.name, t.type, t.shape])).toEqual([['probs', 'float32', [1, 4]]]);
    expect(m.opHistogram[0]).toEqual(['FULLY_CONNECTED', 2]);
    expect(m.tensors.find((t) => t.name === 'fc1/weights')!.quant!.scale).toHaveLength(32);
    expect(m.nodes[1]!.options).toContainEqual(['fusedActivationFunction', 'RELU']);
    expect(m.imageInput).toBeNull(); // [1,16] is not an image
  });

  it('names option enums (padding SAME, RELU6); a float32 image input is an image input', () => {
    const s = new PlaygroundSession();
    const m = s.open(buildFloatCnn(), 'cnn');
    const conv = m.nodes.find((n) => n.op === 'CONV_2D')!;
    expect(conv.options.find(([k]) => k === 'padding')?.[1]).toMatch(/^(SAME|VALID)$/);
    expect(conv.options.find(([k]) => k === 'fusedActivationFunction')?.[1]).toMatch(/^(NONE|RELU|RELU6|RELU_N1_TO_1|TANH)$/);
    expect(m.imageInput).toMatchObject({ layout: 'nhwc', height: 12, width: 12, channels: 3, type: 'float32', normalization: null });
  });

  it("a uint8 model with TFLite metadata: its labels, normalization and name; the labels' top 5", async () => {
    const s = new PlaygroundSession();
    const m = s.open(buildLabelledUint8Classifier(), 'flowers.tflite');
    expect(m.modelMetadata).toMatchObject({ name: 'flower classifier (test)', author: 'micrort tests' });
    expect(m.outputLabels).toEqual([FLOWER_LABELS]);
    expect(m.imageInput).toMatchObject({ type: 'uint8', normalization: { mean: [127.5], std: [127.5] } });
    expect(m.metadataError).toBeNull();
    const pixels = { width: 16, height: 16, rgba: new Uint8Array(16 * 16 * 4).fill(255) };
    const r = await s.run({
      kernel: 'reference',
      planner: 'greedy',
      input: { kind: 'image', pixels, range: 'metadata', seed: 1 },
      profileMs: 1,
    });
    // (255 − 127.5) / 127.5 = 1 → round(1 × 128) + 128 = 256, clamped to 255
    expect(Array.from(r.inputs[0]!.bytes).every((v) => v === 255)).toBe(true);
  });

  it('ops-wasm on a uint8 model: its convolutions, pool and softmax served, what falls back said so; outputs identical to ops-reference', async () => {
    const s = new PlaygroundSession();
    s.open(buildLabelledUint8Classifier(), 'flowers.tflite');
    const r = await s.check('wasm').catch((e: Error) => e);
    if (r instanceof Error) {
      console.log(`ops-wasm check skipped: ${r.message}`);
      return;
    }
    expect(r.ok).toBe(true);
    const wasm = r.served.find((p) => p.package === 'ops-wasm')!;
    expect(checkHeadline(r, 'ops-wasm')).toBe(
      'All 8 nodes run: ops-wasm 6 of 8 nodes (99.9% of MACs), ops-reference 2 of 8 (0.1% of MACs).',
    );
    // three uint8 CONV_2D, the DEPTHWISE_CONV_2D, the AVERAGE_POOL_2D and the SOFTMAX; the 40-MAC
    // FULLY_CONNECTED (under minMacs) and RESHAPE fall back
    expect(wasm).toMatchObject({ nodes: 6, totalNodes: 8, front: true });
    expect(fallbackLines(r.served)[0]).toMatch(/^ops-wasm: 2 nodes fell back to ops-reference — .*FULLY_CONNECTED ×1 \(.*minMacs/);
    expect(fallbackLines(r.served)[0]).not.toMatch(/AVERAGE_POOL_2D|SOFTMAX/);
    const convs = r.groups.filter((g) => g.op === 'CONV_2D');
    expect(convs).toHaveLength(1);
    expect(convs[0]!.nodes).toEqual(['0', '2', '3']);
    const rows = await s.compare({ kind: 'seeded', seed: 1 }, { kernels: ['reference', 'wasm'], profileMs: 1 });
    expect(rows[1]!.served!.find((p) => p.package === 'ops-wasm')!.nodes).toBe(6);
    expect(rows[1]!.diffs![0]!.identical).toBe(true);
  });

  it('the GPU delegate: the check credits the nodes it takes to ops-gpu, as the run does', async () => {
    const s = new PlaygroundSession();
    s.open(buildFloatCnn(), 'cnn');
    const r = await s.check('gpu').catch((e: Error) => e);
    if (r instanceof Error) {
      console.log(`GPU delegate check skipped: ${r.message}`);
      return;
    }
    const claimed = r.nodes.filter((n) => n.delegate).length;
    expect(claimed).toBeGreaterThan(0);
    expect(r.served.find((p) => p.package === 'ops-gpu')!.nodes).toBe(claimed);
    const run = await s.run({ kernel: 'gpu', planner: 'greedy', input: { kind: 'seeded', seed: 1 }, profileMs: 1 });
    expect(run.served.map((p) => [p.package, p.nodes])).toEqual(r.served.map((p) => [p.package, p.nodes]));
  });

  it("one package serving every node reads as before: 'All 5 nodes run with ops-reference.'", async () => {
    const s = new PlaygroundSession();
    s.open(buildDemoModel(), 'demo');
    expect(checkHeadline(await s.check('reference'), 'ops-reference')).toBe('All 5 nodes run with ops-reference.');
  });

  it('errors tell what to do in the page, not in the CLI', () => {
    const e = errorOf(
      Object.assign(new Error('unsupported model: 2 nodes cannot run: … — run micrort check for the full list'), {
        name: 'UnsupportedOpError',
      }),
    );
    expect(e.message).not.toMatch(/micrort check/);
    expect(e.message).toMatch(/the Model tab's check table lists them all$/);
    expect(e.advice).toMatch(/Pick another kernel package in the header/);
    expect(errorOf(Object.assign(new Error('bad'), { name: 'ModelError' })).advice).toMatch(/Open another file/);
  });

  it("a corrupt file throws the loader's ModelError and keeps the open model", () => {
    const s = new PlaygroundSession();
    s.open(buildDemoModel(), 'demo');
    expect(() => s.open(buildDemoModel().slice(0, 40), 'broken')).toThrow(expect.objectContaining({ name: 'ModelError' }));
    expect(s.summary.name).toBe('demo');
  });

  it('check: every node with its provider; ops-simd declines float nodes with a reason', async () => {
    const s = new PlaygroundSession();
    s.open(buildFloatCnn(), 'cnn');
    const ref = await s.check('reference');
    expect(ref.ok).toBe(true);
    expect(ref.nodes.every((n) => n.status === 'ok' && n.provider === '@micrort/ops-reference')).toBe(true);
    expect(ref.arena?.usedBytes).toBeGreaterThan(0);
    const simd = await s.check('simd');
    const conv = simd.nodes.find((n) => n.op === 'CONV_2D')!;
    expect(conv.provider).toBe('@micrort/ops-reference');
    expect(conv.declined?.[0]).toMatchObject({ provider: '@micrort/ops-simd' });
  });

  it("check: a provider's decline reason is kept", () => {
    const resolver = composeRuntime(appRuntimePackages()).resolver;
    const picky: Registration = {
      builtinCode: BuiltinOperator.RELU,
      version: 1,
      provider: 'picky',
      name: 'RELU/picky',
      supports: () => 'float32 input (handles int8)',
      invoke() {},
    };
    resolver.register(picky, { fallback: true });
    const r = checkModelNodes(loadModel(modelWithUnknownOp()), resolver);
    expect(r.nodes[2]!.declined).toEqual([{ provider: 'picky', kernel: 'RELU/picky', reason: 'float32 input (handles int8)' }]);
    expect(r.nodes[2]!.provider).toBe('@micrort/ops-reference');
  });

  it('check: a node nobody serves and a failing prepare are reported; every other node is prepared', async () => {
    const s = new PlaygroundSession();
    s.open(modelWithUnknownOp(), 'unknown');
    const r = await s.check('reference');
    expect(r.ok).toBe(false);
    expect(r.error?.name).toBe('UnsupportedOpError');
    expect(r.nodes.map((n) => n.status)).toEqual(['ok', 'no-provider', 'ok']);
    expect(r.groups[0]).toMatchObject({ op: 'CUSTOM:Nope', status: 'no-provider', nodes: ['1'] });
    expect(r.error?.message).toMatch(/^unsupported model: 1 node cannot run: CUSTOM:Nope/);

    s.open(modelWithBadFc(), 'bad-fc');
    const f = await s.check('reference');
    expect(f.ok).toBe(false);
    expect(f.nodes.map((n) => n.status)).toEqual(['prepare-failed', 'ok']);
    // kernel-support's typed KernelError for a tensor of the wrong shape
    expect(f.nodes[0]!.error).toMatch(/^TensorShapeError: input \(tensor 0, shape \[1, 4\]\) has 4 elements/);
    expect(f.error?.message).toMatch(/^FULLY_CONNECTED \(node 0\)/);
    expect(f.error?.name).toBe('TensorShapeError');
  });

  it("plans: each planner's arena is what arena: 'auto' allocates with it; none below the lower bound", async () => {
    for (const bytes of [buildDemoModel(), buildFloatCnn()]) {
      const s = new PlaygroundSession();
      s.open(bytes, 'm');
      const a = await s.plans('reference');
      expect(a.planners.map((p) => p.name)).toEqual(['greedy', 'linear', 'bestfit', 'offline', 'optimal']);
      for (const p of a.planners) {
        expect(p.error).toBeUndefined();
        expect(p.headBytes).toBeGreaterThanOrEqual(a.lowerBoundBytes);
        expect(p.offsets).toHaveLength(a.buffers.length);
        const resolver = registerReferenceOps(new OpResolver());
        registerSignalOps(resolver);
        const it = new MicroInterpreter(loadModel(bytes), resolver, { planner: createPlanner(p.name), arena: 'auto' }).allocateTensors();
        expect(p.arenaBytes, p.name).toBe(it.arenaUsage().arenaBytes);
      }
      expect(a.autoArenaBytes).toBe(a.planners[0]!.arenaBytes);
      expect(a.standIns).toEqual([]);
    }
  });

  it('plans a model with an unserved op from the graph (stand-in named)', async () => {
    const s = new PlaygroundSession();
    s.open(modelWithUnknownOp(), 'unknown');
    const a = await s.plans('reference');
    expect(a.standIns).toEqual([1]);
    expect(a.buffers.length).toBeGreaterThan(0);
  });

  it('run: outputs equal the model run directly with ops-reference; a per-node profile', async () => {
    const s = new PlaygroundSession();
    const bytes = buildDemoModel();
    s.open(bytes, 'demo');
    const r = await s.run({ kernel: 'reference', planner: 'bestfit', input: { kind: 'seeded', seed: 5 }, profileMs: 5 });
    expect(Array.from(r.outputs[0]!.bytes)).toEqual(Array.from(nodeOutputs(bytes, 5)[0]!));
    expect(r.nodes.map((n) => n.op)).toEqual(['QUANTIZE', 'FULLY_CONNECTED', 'FULLY_CONNECTED', 'SOFTMAX', 'DEQUANTIZE']);
    expect(r.nodes.every((n) => n.ms !== null && n.ms >= 0)).toBe(true);
    expect(r.invokes).toBeGreaterThanOrEqual(1);
    expect(r.arena.arenaBytes).toBe(r.arena.headBytes + r.arena.tailBytes);
  });

  it('run with emulated ops-simd: Cortex-M4/M7 cycles for the nodes it serves, same outputs', async () => {
    const s = new PlaygroundSession();
    const bytes = buildDemoModel();
    s.open(bytes, 'demo');
    const r = await s.run({ kernel: 'simd-emulated', planner: 'greedy', input: { kind: 'seeded', seed: 2 }, profileMs: 1 });
    expect(Array.from(r.outputs[0]!.bytes)).toEqual(Array.from(nodeOutputs(bytes, 2)[0]!));
    const simd = r.nodes.filter((n) => n.provider === '@micrort/ops-simd');
    expect(simd.map((n) => n.op)).toEqual(['FULLY_CONNECTED', 'SOFTMAX']); // the per-channel FC stays on ops-reference
    expect(simd.every((n) => (n.cyclesM4 ?? 0) > 0 && (n.cyclesM7 ?? 0) > 0 && n.cmsisKernel?.startsWith('arm_'))).toBe(true);
    expect(r.nodes.filter((n) => n.provider !== '@micrort/ops-simd').every((n) => n.cyclesM4 === null)).toBe(true);
    expect(r.cycles!.estimatedNodes).toBe(2);
    expect(r.cycles!.m4).toBeCloseTo(
      r.nodes.reduce((t, n) => t + (n.cyclesM4 ?? 0), 0),
      6,
    );
  });

  it('run with raw input bytes; a typed error for the wrong size', async () => {
    const s = new PlaygroundSession();
    s.open(buildDemoModel(), 'demo');
    const input = new Uint8Array(64);
    new Float32Array(input.buffer).fill(0.25);
    const r = await s.run({ kernel: 'reference', planner: 'greedy', input: { kind: 'bytes', inputs: [input] }, profileMs: 1 });
    expect(Array.from(r.inputs[0]!.bytes)).toEqual(Array.from(input));
    await expect(
      s.run({ kernel: 'reference', planner: 'greedy', input: { kind: 'bytes', inputs: [new Uint8Array(3)] } }),
    ).rejects.toMatchObject({ name: 'InputError' });
  });

  it('compare: packages on the same inputs; identical int8 results; absent packages reported, not fatal', async () => {
    const s = new PlaygroundSession();
    s.open(buildDemoModel(), 'demo');
    const rows = await s.compare({ kind: 'seeded', seed: 1 }, { kernels: ['reference', 'simd', 'wasm'], profileMs: 1 });
    expect(rows.map((r) => r.kernel)).toEqual(['reference', 'simd', 'wasm']);
    expect(rows[1]!.diffs![0]!.identical).toBe(true);
    expect(rows[1]!.meanInvokeMs).toBeGreaterThan(0);
    const wasm = rows[2]!;
    if (wasm.error) expect(wasm.error.name).toBe('unavailable');
    else expect(wasm.diffs![0]!.withinTolerance).toBe(true);
  });

  it('lays out a real model of 246 nodes (selfie_segmentation from @micrort/corpus)', () => {
    let bytes: Uint8Array;
    try {
      bytes = corpusBytes('selfie_segmentation');
    } catch (e) {
      console.log(`selfie_segmentation layout skipped: ${(e as Error).message}`);
      return;
    }
    const s = new PlaygroundSession();
    s.open(bytes, 'selfie_segmentation.tflite');
    const g = s.graph();
    expect(g.boxes.filter((b) => b.kind === 'op')).toHaveLength(246);
    const ops = g.boxes.filter((b) => b.kind === 'op');
    expect(ops.every((b) => Number.isFinite(b.x) && Number.isFinite(b.y))).toBe(true);
    // Layered top to bottom: every edge between two nodes goes downwards.
    const y = new Map(g.boxes.map((b) => [b.id, b.y]));
    expect(g.edges.every((e) => y.get(e.to)! > y.get(e.from)!)).toBe(true);
  });

  it('lays out the graph: a box per node, input and output, an edge per non-constant tensor use', () => {
    const s = new PlaygroundSession();
    s.open(buildFloatCnn(), 'cnn');
    const g = s.graph();
    expect(g.boxes.filter((b) => b.kind === 'op')).toHaveLength(s.summary.nodes.length);
    expect(g.boxes.filter((b) => b.kind !== 'op')).toHaveLength(2);
    const uses =
      s.summary.nodes.reduce((n, node) => n + node.inputs.filter((t) => t >= 0 && !s.summary.tensors[t]!.constant).length, 0) + 1;
    expect(g.edges).toHaveLength(uses);
    expect(g.edges.every((e) => e.points.length >= 2 && e.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)))).toBe(true);
    expect(g.edges[0]!.label).toBe('float32[1,12,12,3]');
  });
});
