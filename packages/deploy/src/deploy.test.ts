/**
 * deployTflm end to end on small built models (and hello_world_int8 when ../shared is present): the
 * report's fields, both word sizes, stand-ins, the offline plan, the summary, and the refusals.
 */
import {
  BuiltinOperator,
  KernelError,
  ModelBuilder,
  TensorType,
  UnsupportedOpError,
  loadModel,
  readOfflineMemoryAllocation,
} from '@micrort/core';
import { ssdPostProcessModel } from '@micrort/test-support/ssd-model';
import { describe, expect, it } from 'vitest';
import { hasConformance, loadConformanceModel, readManifest } from '@micrort/test-support/conformance';
import { deployTflm } from './deploy.js';
import { tflmRefusals } from './refusals.js';
import { deploySummary } from './summary.js';

/** float [1,8] → FULLY_CONNECTED(8→4) → SOFTMAX. */
function fcSoftmax(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 8] });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4, 8], data: new Float32Array(32).fill(0.5) });
  const bias = b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [4], data: new Float32Array(4) });
  const h = b.addTensor({ name: 'h', type: TensorType.FLOAT32, shape: [1, 4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, bias], outputs: [h] });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [h], outputs: [y], options: { beta: 1 } });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** A one-op model: `op` from a `type` [2,3] input (plus `extra` constant inputs) to a `outType` output. */
function oneOp(
  op: BuiltinOperator | { custom: string },
  type: TensorType,
  outType = type,
  extra: { type: TensorType; shape: number[]; data: ArrayBufferView }[] = [],
) {
  const b = new ModelBuilder();
  const q =
    type === TensorType.INT8 || type === TensorType.INT16 || type === TensorType.UINT8 ? { scale: [0.1], zeroPoint: [0] } : undefined;
  const x = b.addTensor({ name: 'x', type, shape: [2, 3], ...(q ? { quantization: q } : {}) });
  const consts = extra.map((e, i) => b.addTensor({ name: `c${i}`, ...e }));
  const y = b.addTensor({ name: 'y', type: outType, shape: [2, 3], ...(q && outType === type ? { quantization: q } : {}) });
  b.addOperator({ op, inputs: [x, ...consts], outputs: [y], ...(typeof op === 'object' ? { customOptions: new Uint8Array(0) } : {}) });
  return loadModel(b.setInputs([x]).setOutputs([y]).build());
}

describe('deployTflm', () => {
  it('reports both word sizes, the resolver and the headline figures of the chosen word', () => {
    const r = deployTflm(fcSoftmax(), { modelLabel: 'fc_softmax' });
    expect(r.word).toBe(64);
    expect(r.ops).toEqual(['FULLY_CONNECTED', 'SOFTMAX']);
    expect(r.exact).toBe(true);
    expect(r.targets.map((t) => [t.word, t.abi])).toEqual([
      [64, 'lp64'],
      [32, 'ilp32'],
    ]);
    const [t64, t32] = r.targets;
    expect(r).toMatchObject({
      arenaMinBytes: t64!.arenaMinBytes,
      arenaUsedBytes: t64!.arenaUsedBytes,
      headBytes: t64!.headBytes,
      tailBytes: t64!.tailBytes,
    });
    for (const t of r.targets) {
      expect(t.arenaUsedBytes).toBe(t.headBytes + t.tailBytes);
      expect(t.arenaMinBytes % 16).toBe(0);
      expect(t.arenaMinBytes).toBeGreaterThanOrEqual(t.arenaUsedBytes);
      expect(Object.values(t.tailByKind).reduce((a, b) => a + b, 0)).toBe(t.tailBytes);
    }
    // Same planned head; the 32-bit tail is smaller (4-byte pointers, 1-byte enums).
    expect(t32!.headBytes).toBe(t64!.headBytes);
    expect(t32!.tailBytes).toBeLessThan(t64!.tailBytes);
    expect(r.resolver.count).toBe(2);
    expect(r.resolver.header).toContain('MicroMutableOpResolver<kNumOps>');
    expect(r.resolver.header).toContain('resolver.AddFullyConnected()');
    expect(r.refusals).toEqual([]);
    expect(r.offlinePlan).toBeNull();

    const r32 = deployTflm(fcSoftmax(), { word: 32 });
    expect(r32).toMatchObject({ word: 32, arenaMinBytes: t32!.arenaMinBytes, arenaUsedBytes: t32!.arenaUsedBytes });
    const intEnums = deployTflm(fcSoftmax(), { enumBytes32: 4 });
    expect(intEnums.targets[1]!.abi).toBe('ilp32-int-enums');
    expect(intEnums.targets[1]!.tailBytes).toBeGreaterThan(t32!.tailBytes);
  });

  it('embeds an offline plan; a greedy plan embedded changes no figure', () => {
    const plain = deployTflm(fcSoftmax());
    const r = deployTflm(fcSoftmax(), { embed: true });
    const o = r.offlinePlan!;
    expect(o.planner).toBe('greedy');
    expect(o.tensorOffsets).toBeGreaterThan(0);
    const offsets = readOfflineMemoryAllocation(loadModel(o.model));
    expect(offsets).not.toBeNull();
    expect([...offsets!].filter((v) => v >= 0).length).toBe(o.tensorOffsets);
    expect(o.targets.map((t) => [t.arenaMinBytes, t.arenaUsedBytes])).toEqual(
      plain.targets.map((t) => [t.arenaMinBytes, t.arenaUsedBytes]),
    );
    // Deploying the embedded model gives the same figures as the offline plan's.
    const again = deployTflm(o.model);
    expect(again.targets.map((t) => t.arenaMinBytes)).toEqual(o.targets.map((t) => t.arenaMinBytes));
  });

  it('plans nodes micrort cannot prepare with stand-ins only when asked, and says so', () => {
    const model = oneOp({ custom: 'MyOp' }, TensorType.FLOAT32);
    expect(() => deployTflm(model, { standIns: false })).toThrow(UnsupportedOpError);
    const r = deployTflm(model);
    expect(r.standIns).toMatchObject([
      { op: 'CUSTOM:MyOp', subgraph: 0, nodes: [0], scratchFrom: 'none known', reason: 'no kernel is registered for CUSTOM:MyOp' },
    ]);
    expect(r.unmodelledOps).toEqual(['CUSTOM:MyOp']);
    expect(r.exact).toBe(false);
    expect(r.notes.join('\n')).toContain(
      'CUSTOM:MyOp (node 0) is planned with a stand-in: micrort cannot prepare it (no kernel is registered',
    );
    expect(r.notes.join('\n')).toContain('lower bounds');
  });

  it('plans a node whose prepare fails (an SSD post-processing with unshaped outputs) with a stand-in; strict refuses', () => {
    const model = ssdPostProcessModel();
    // micrort's kernel refuses outputs too small for max_detections: strict mode is micrort's own error.
    expect(() => deployTflm(model, { standIns: false })).toThrow(KernelError);
    const r = deployTflm(model, { modelLabel: 'ssd.tflite' });
    expect(r.standIns).toMatchObject([
      {
        op: 'CUSTOM:TFLite_Detection_PostProcess',
        subgraph: 0,
        nodes: [0],
        scratchFrom: 'kernel table',
        reason: expect.stringContaining('its prepare failed: detection_boxes (shape []) must hold at least 12 values'),
      },
    ]);
    expect(r.exact).toBe(false);
    const notes = r.notes.join('\n');
    expect(notes).toContain('CUSTOM:TFLite_Detection_PostProcess (node 0) is planned with a stand-in');
    expect(notes).toContain("scratch requests are TFLM's from the kernel table");
    // TFLM's own prepare requests its 11 scratch buffers: they are in the head and the handle array.
    expect(r.targets[0]!.tailByKind.scratchHandles).toBe(11 * 8);
    // TFLM plans the unshaped outputs at 4 bytes and its Eval writes past them: that is a finding.
    expect(r.refusals.filter((f) => f.severity === 'error').map((f) => f.reason)).toEqual([
      expect.stringContaining(
        'output 0 (detection_boxes) has shape [] in the file: TFLM plans 4 bytes for it and its Eval writes up to 48 bytes there',
      ),
      expect.stringContaining('output 1 (detection_classes)'),
      expect.stringContaining('output 2 (detection_scores)'),
    ]);
  });

  it('prints a one-screen summary', () => {
    const text = deploySummary(deployTflm(fcSoftmax(), { modelLabel: 'fc_softmax.tflite', planner: 'linear' }));
    const lines = text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(25);
    expect(text).toContain('fc_softmax.tflite');
    expect(text).toMatch(/kTensorArenaSize \(smallest that works\)\s+[\d,]+ B\s+[\d,]+ B/);
    expect(text).toMatch(/arena_used_bytes\(\) TFLM reports/);
    expect(text).toContain('resolver: MicroMutableOpResolver<2> — AddFullyConnected(), AddSoftmax()');
    expect(text).toMatch(/offline plan \(linear, \d+ tensor offsets embedded\)/);
    expect(text).toContain('TFLM will refuse: nothing known');
  });

  it.skipIf(!hasConformance)("hello_world_int8: the manifest's figures at 64 bits, and a smaller arena at 32", () => {
    const want = readManifest('hello_world_int8') as unknown as { arena_used_bytes: number; arena_min_bytes: number };
    const r = deployTflm(loadConformanceModel('hello_world_int8'), { standIns: false, planner: 'optimal' });
    expect([r.arenaUsedBytes, r.arenaMinBytes]).toEqual([want.arena_used_bytes, want.arena_min_bytes]);
    expect(r.targets[1]!.arenaMinBytes).toBeLessThan(r.arenaMinBytes);
    expect(r.offlinePlan!.targets[0]!.headBytes).toBeLessThanOrEqual(r.headBytes);
  });
});

describe('tflmRefusals', () => {
  it('refuses builtins TFLM has no kernel for, at the resolver', () => {
    const f = tflmRefusals(
      oneOp(BuiltinOperator.REDUCE_PROD, TensorType.FLOAT32, TensorType.FLOAT32, [
        { type: TensorType.INT32, shape: [1], data: new Int32Array([1]) },
      ]),
    );
    expect(f).toMatchObject([{ op: 'REDUCE_PROD', severity: 'error', stage: 'resolver' }]);
  });

  it("refuses (op, type) pairs with TFLM's own message", () => {
    expect(tflmRefusals(oneOp(BuiltinOperator.EXP, TensorType.INT8))).toMatchObject([
      { op: 'EXP', stage: 'prepare', reason: expect.stringContaining('exp.cc:41') },
    ]);
    expect(tflmRefusals(oneOp(BuiltinOperator.NEG, TensorType.INT32))).toMatchObject([{ op: 'NEG', stage: 'invoke' }]);
    expect(tflmRefusals(oneOp(BuiltinOperator.EXP, TensorType.FLOAT32))).toEqual([]);
    expect(tflmRefusals(oneOp(BuiltinOperator.NEG, TensorType.FLOAT32))).toEqual([]);
  });

  it('refuses types no TFLM kernel computes with, except in type-agnostic ops', () => {
    expect(
      tflmRefusals(
        oneOp(BuiltinOperator.ADD, TensorType.UINT8, TensorType.UINT8, [
          { type: TensorType.UINT8, shape: [2, 3], data: new Uint8Array(6) },
        ]),
      ),
    ).toMatchObject([{ op: 'ADD', severity: 'error', reason: expect.stringContaining('uint8') }]);
    expect(tflmRefusals(oneOp(BuiltinOperator.RELU, TensorType.FLOAT16))).toMatchObject([{ reason: expect.stringContaining('float16') }]);
    expect(tflmRefusals(oneOp(BuiltinOperator.DEQUANTIZE, TensorType.UINT8, TensorType.FLOAT32))).toEqual([]);
    expect(tflmRefusals(oneOp(BuiltinOperator.CAST, TensorType.FLOAT16, TensorType.FLOAT32))).toEqual([]);
  });

  it("takes the accepted types from the kernel's dispatch, not from its (stale) error message", () => {
    // zeros_like.cc's Eval switch handles int64, int32, int8 and float32; its message lists three of them.
    expect(tflmRefusals(oneOp(BuiltinOperator.ZEROS_LIKE, TensorType.INT8))).toEqual([]);
    expect(tflmRefusals(oneOp(BuiltinOperator.ZEROS_LIKE, TensorType.INT16))).toMatchObject([
      { op: 'ZEROS_LIKE', severity: 'error', stage: 'invoke', reason: expect.stringContaining('input 0 is int16') },
    ]);
    // arg_min_max.cc dispatches float32 and int8 only (its message still names uint8) and writes int32 indices.
    const axis = [{ type: TensorType.INT32, shape: [1], data: new Int32Array([1]) }];
    expect(tflmRefusals(oneOp(BuiltinOperator.ARG_MAX, TensorType.INT8, TensorType.INT32, axis))).toEqual([]);
    expect(tflmRefusals(oneOp(BuiltinOperator.ARG_MAX, TensorType.UINT8, TensorType.INT32, axis))).toContainEqual(
      expect.objectContaining({ op: 'ARG_MAX', stage: 'invoke', reason: expect.stringContaining('input 0 is uint8') }),
    );
    expect(tflmRefusals(oneOp(BuiltinOperator.ARG_MIN, TensorType.FLOAT32, TensorType.INT64, axis))).toMatchObject([
      { op: 'ARG_MIN', stage: 'invoke', reason: expect.stringContaining('output 0 is int64') },
    ]);
  });

  it('warns about custom ops the build must provide, and not about the ones TFLM ships', () => {
    expect(tflmRefusals(oneOp({ custom: 'MyOp' }, TensorType.FLOAT32))).toMatchObject([
      { op: 'CUSTOM:MyOp', severity: 'warning', stage: 'build' },
    ]);
    expect(tflmRefusals(oneOp({ custom: 'SignalWindow' }, TensorType.INT16))).toEqual([]);
  });
});
