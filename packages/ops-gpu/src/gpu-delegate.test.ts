/**
 * The GPU delegate as a whole, in every gpu.js mode the machine offers: the float CNN made by the model
 * writer, partitioning around nodes it cannot run, kernel instances and the kernel cache, options,
 * decisions, mode reporting and cleanup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, DelegateError, MicroInterpreter, ModelBuilder, OpResolver, Padding, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { GpuDelegate, createGpuDelegate } from './gpu-delegate.js';
import { GpuModeError, availableModes, isModeSupported } from './mode.js';
import { FLOAT_CNN_INPUT_SHAPE, buildFloatCnn } from './testing/float-cnn.js';
import { MODES, announceModes, expectClose, floats, interpreter, referenceOutputs, runWith } from './__tests__/helpers.js';

const F = TensorType.FLOAT32;
const CNN = buildFloatCnn();
const CNN_INPUTS = [
  floats(
    FLOAT_CNN_INPUT_SHAPE.reduce<number>((s, d) => s * d, 1),
    99,
  ),
];

/** x[1,4,4,4] → CONV_2D 1x1 → SIN (no GPU kernel) → CONV_2D with 2 groups (not on the GPU) → SOFTMAX → y */
function mixedModel(): Uint8Array {
  const b = new ModelBuilder();
  const shape = [1, 4, 4, 4];
  const x = b.addTensor({ name: 'x', type: F, shape });
  const w1 = b.addTensor({ name: 'w1', type: F, shape: [4, 1, 1, 4], data: floats(16, 1) });
  const a = b.addTensor({ name: 'a', type: F, shape });
  const s = b.addTensor({ name: 's', type: F, shape });
  const w2 = b.addTensor({ name: 'w2', type: F, shape: [4, 1, 1, 2], data: floats(8, 2) });
  const g = b.addTensor({ name: 'g', type: F, shape });
  const y = b.addTensor({ name: 'y', type: F, shape });
  const conv = { padding: Padding.VALID, strideH: 1, strideW: 1 };
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [x, w1, -1], outputs: [a], options: conv });
  b.addOperator({ op: BuiltinOperator.SIN, inputs: [a], outputs: [s] });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [s, w2, -1], outputs: [g], options: conv });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [g], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** x → ADD(x, c) → ADD(·, c) → y: two nodes with the same kernel key in one chain. */
function twoEqualAdds(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F, shape: [5] });
  const c = b.addTensor({ name: 'c', type: F, shape: [5], data: Float32Array.of(1, 2, 3, 4, 5) });
  const m = b.addTensor({ name: 'm', type: F, shape: [5] });
  const y = b.addTensor({ name: 'y', type: F, shape: [5] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [m] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [m, c], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

describe('gpu.js modes', () => {
  it('cpu is always available and last; auto picks the first; unknown or missing modes are typed errors', () => {
    const modes = availableModes();
    expect(modes[modes.length - 1]).toBe('cpu');
    expect(isModeSupported('cpu')).toBe(true);
    const d = createGpuDelegate();
    expect(d.mode).toBe(modes[0]);
    d.destroy();
    expect(() => createGpuDelegate({ mode: 'nope' as never })).toThrow(GpuModeError);
    if (!isModeSupported('webgl2'))
      expect(() => createGpuDelegate({ mode: 'webgl2' })).toThrow(/"webgl2" is not available here \(available: /);
  });
});

describe.each(MODES)('GPU delegate in gpu.js mode %s', (mode) => {
  let delegate: GpuDelegate;
  beforeAll(() => {
    announceModes('ops-gpu delegate');
    delegate = new GpuDelegate({ mode });
  });
  afterAll(() => delegate.destroy());

  it('runs the float CNN as one partition, equal to ops-reference, on the mode it reports', () => {
    const it = interpreter(CNN, [delegate]);
    const ops = it.model.subgraphs[0]!.operators.length;
    expect(it.partitions()).toHaveLength(1);
    expect(it.partitions()[0]!.nodes).toEqual(Array.from({ length: ops }, (_, i) => i));
    expect(it.nodes()).toHaveLength(1);
    expect(it.nodes()[0]!.op).toBe(`DELEGATE:gpu(${mode})`);
    expect(it.nodes()[0]!.provider).toBe('@micrort/ops-gpu');
    expectClose(runWith(it, CNN_INPUTS), referenceOutputs(CNN, CNN_INPUTS), `float CNN (${mode})`);
    const stats = delegate.kernelStats();
    console.log(`float CNN ran in gpu.js mode ${delegate.mode}: backends ${stats.backends.join(', ')}, ${stats.compiled} kernels compiled`);
    expect(stats.backends).toEqual([mode]);
    expect(stats.fallbacks).toEqual([]);
    // only the input and the output cross the arena: no internal tensor is planned
    const planned = it
      .memoryPlan()
      .requirements.filter((r) => r.kind === 'tensor')
      .map((r) => r.id);
    expect(planned.sort((a, b) => a - b)).toEqual([
      ...it.partitions()[0]!.inputTensors.filter((t) => !it.tensor(t).isConstant),
      ...it.partitions()[0]!.outputTensors,
    ]);
    it.dispose();
  });

  it('leaves unsupported nodes on the CPU and partitions around them', () => {
    const model = mixedModel();
    const it = interpreter(model, [delegate]);
    // SIN has no GPU kernel, the grouped CONV_2D is not supported: both stay on the CPU
    expect(it.partitions().map((p) => p.nodes)).toEqual([[0], [3]]);
    expect(it.nodes().map((n) => n.provider)).toEqual([
      '@micrort/ops-gpu',
      '@micrort/ops-reference',
      '@micrort/ops-reference',
      '@micrort/ops-gpu',
    ]);
    expect(delegate.decisions()).toEqual([
      { node: 0, op: 'CONV_2D', claimed: true },
      { node: 1, op: 'SIN', claimed: false, reason: 'no GPU kernel for SIN' },
      { node: 2, op: 'CONV_2D', claimed: false, reason: 'grouped convolution (filter depth 2, input depth 4) is not supported on the GPU' },
      { node: 3, op: 'SOFTMAX', claimed: true },
    ]);
    const x = [floats(64, 5)];
    expectClose(runWith(it, x), referenceOutputs(model, x), `mixed model (${mode})`);
    it.dispose();
  });

  it('two nodes with the same kernel key in one chain get separate kernel instances', () => {
    const it = interpreter(twoEqualAdds(), [delegate]);
    expect(it.partitions().map((p) => p.nodes)).toEqual([[0, 1]]);
    const got = runWith(it, [Float32Array.of(10, 20, 30, 40, 50)]);
    expect(Array.from(got[0]!)).toEqual([12, 24, 36, 48, 60]);
    expect(delegate.kernelStats().keys.filter((k) => k.startsWith('ADD|'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/#0$/), expect.stringMatching(/#1$/)]),
    );
    it.dispose();
  });

  it('a second interpreter on the same delegate reuses the compiled kernels', () => {
    interpreter(CNN, [delegate]).dispose();
    const before = delegate.kernelStats();
    const it = interpreter(CNN, [delegate]);
    const after = delegate.kernelStats();
    expect(after.compiled).toBe(before.compiled);
    expect(after.hits).toBeGreaterThan(before.hits);
    expectClose(runWith(it, CNN_INPUTS), referenceOutputs(CNN, CNN_INPUTS), `float CNN, cached kernels (${mode})`);
    it.dispose();
  });
});

describe('GPU delegate options and lifecycle', () => {
  const mode = MODES[MODES.length - 1]!; // cpu: options do not depend on the mode

  it("excludeOps and the interpreter's excludeNodes keep nodes on the CPU; results stay equal", () => {
    const d = createGpuDelegate({ mode, excludeOps: ['SOFTMAX'] });
    const it = interpreter(CNN, [d], { excludeNodes: [4] });
    const ops = it.model.subgraphs[0]!.operators.length;
    const delegated = it.partitions().flatMap((p) => p.nodes);
    expect(delegated).not.toContain(4);
    expect(delegated).not.toContain(ops - 1);
    expect(delegated).toHaveLength(ops - 2);
    expect(d.decisions().find((x) => x.op === 'SOFTMAX')).toMatchObject({
      claimed: false,
      reason: 'SOFTMAX excluded by the delegate options',
    });
    expectClose(runWith(it, CNN_INPUTS), referenceOutputs(CNN, CNN_INPUTS), 'CNN with exclusions');
    it.dispose();
    d.destroy();
  });

  it("after a batch resize the delegate is not applied (it plans with the file's shapes) and the kernels give the right shapes and values", () => {
    // x [-1, 12, 10, 8] -> CONV_2D 3x3 SAME (16) -> DEPTHWISE_CONV_2D 3x3 stride 2 -> MAX_POOL_2D 2x2 stride 2
    const b = new ModelBuilder();
    const F = TensorType.FLOAT32;
    const w = (n: number, s: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * s) * 0.3);
    const x = b.addTensor({ name: 'x', type: F, shape: [1, 12, 10, 8], shapeSignature: [-1, 12, 10, 8] });
    const y = b.addTensor({ name: 'y', type: F, shape: [1, 12, 10, 16] });
    const z = b.addTensor({ name: 'z', type: F, shape: [1, 6, 5, 16] });
    const p = b.addTensor({ name: 'p', type: F, shape: [1, 3, 2, 16] });
    const conv = [
      b.addTensor({ name: 'w', type: F, shape: [16, 3, 3, 8], data: w(16 * 72, 0.7) }),
      b.addTensor({ name: 'b', type: F, shape: [16], data: w(16, 0.3) }),
    ];
    const dw = [
      b.addTensor({ name: 'dw', type: F, shape: [1, 3, 3, 16], data: w(144, 1.1) }),
      b.addTensor({ name: 'b2', type: F, shape: [16], data: w(16, 0.2) }),
    ];
    b.addOperator({
      op: BuiltinOperator.CONV_2D,
      inputs: [x, ...conv],
      outputs: [y],
      options: { padding: Padding.SAME, strideH: 1, strideW: 1 },
    });
    b.addOperator({
      op: BuiltinOperator.DEPTHWISE_CONV_2D,
      inputs: [y, ...dw],
      outputs: [z],
      options: { padding: Padding.SAME, strideH: 2, strideW: 2, depthMultiplier: 1 },
    });
    b.addOperator({
      op: BuiltinOperator.MAX_POOL_2D,
      inputs: [z],
      outputs: [p],
      options: { padding: Padding.VALID, strideH: 2, strideW: 2, filterHeight: 2, filterWidth: 2 },
    });
    const model = b.setInputs([x]).setOutputs([p]).buildDef();
    const input = Float32Array.from({ length: 3 * 12 * 10 * 8 }, (_, i) => Math.cos(i));
    const run = (delegates: GpuDelegate[]) => {
      const it_ = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), { planner: createPlanner('greedy'), delegates });
      it_.resizeInputTensor(0, [3, 12, 10, 8]);
      it_.allocateTensors();
      return { it: it_, out: runWith(it_, [input]) };
    };
    const d = createGpuDelegate({ mode });
    const got = run([d]);
    // before: the delegate claimed DEPTHWISE_CONV_2D and MAX_POOL_2D by their stored batch-1 shapes and the output came out [1, 3, 2, 16]
    expect(got.it.partitions()).toEqual([]);
    expect(got.it.skippedDelegates()[0]?.reason).toMatch(/resized, and delegate gpu does not allow dynamic tensors/);
    expect(Array.from(got.it.output(0).dims)).toEqual([3, 3, 2, 16]);
    expectClose(got.out, run([]).out, 'batch 3');
    got.it.dispose();
    d.destroy();
  });

  it('a destroyed delegate refuses to prepare', () => {
    const d = createGpuDelegate({ mode });
    d.destroy();
    expect(() => interpreter(CNN, [d])).toThrow(DelegateError);
  });

  it('int8 nodes are not claimed and say why', () => {
    const b = new ModelBuilder();
    const q = { scale: 0.1, zeroPoint: 0 };
    const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [1, 4], quantization: q });
    const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [1, 4], quantization: q });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    const d = createGpuDelegate({ mode });
    const it = interpreter(b.setInputs([x]).setOutputs([y]).build(), [d]);
    expect(it.partitions()).toEqual([]);
    expect(d.decisions()[0]!.reason).toBe('unsupported input type int8 (tensor 0); supported: float32');
    it.dispose();
    d.destroy();
  });
});
