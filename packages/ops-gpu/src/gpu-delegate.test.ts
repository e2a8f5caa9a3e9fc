/**
 * The GPU delegate as a whole, in every gpu.js mode the machine offers: the float CNN made by the model
 * writer, partitioning around nodes it cannot run, kernel instances and the kernel cache, options,
 * decisions, mode reporting and cleanup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, DelegateError, ModelBuilder, Padding, TensorType } from '@micrort/core';
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
