import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { KernelError, PhaseError } from '../errors.js';
import type { Registration } from '../kernel/api.js';
import { allocatePersistentOutput } from '../kernel/kernel-util.js';
import { AllocationType } from '../kernel/tensor.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner, tinyModel } from './__fixtures__/tiny-models.js';

/** CUSTOM "FOLD": output = 2 × its constant float32 input, computed once in prepare; invoke counts calls. */
function foldKernel(calls: { invoke: number }, when: 'prepare' | 'init' | 'invoke' = 'prepare'): Registration {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: 'FOLD',
    init(ctx) {
      if (when === 'init')
        allocatePersistentOutput(ctx, { index: 0, inputs: Int32Array.of(0), outputs: Int32Array.of(1) } as never, 0, 'FOLD');
      return undefined;
    },
    prepare(ctx, node) {
      if (when !== 'prepare') return;
      const region = allocatePersistentOutput(ctx, node, 0, 'FOLD');
      const w = ctx.getTensor(node.inputs[0]!).data as Float32Array;
      for (let i = 0; i < w.length; i++) region.f32[i] = 2 * w[i]!;
    },
    invoke(ctx, node) {
      calls.invoke++;
      if (when === 'invoke') allocatePersistentOutput(ctx, node, 0, 'FOLD');
    },
  };
}

/** CUSTOM "MUL2": out = a * b (float32, same length). */
const mulKernel: Registration = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: 'MUL2',
  invoke(ctx, node) {
    const a = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const b = ctx.getEvalTensor(node.inputs[1]!).data as Float32Array;
    const y = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < y.length; i++) y[i] = a[i]! * b[i]!;
  },
};

// t0 weights (constant) → FOLD → t1 (persistent); t2 input × t1 → t3 output
function model() {
  const w = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]);
  return tinyModel(
    [{ shape: [8], data: new Uint8Array(w.buffer) }, { shape: [8] }, { shape: [8] }, { shape: [8] }],
    [
      { custom: 'FOLD', inputs: [0], outputs: [1] },
      { custom: 'MUL2', inputs: [2, 1], outputs: [3] },
    ],
    [2],
    [3],
  );
}

function interp(reg: Registration) {
  return new MicroInterpreter(model(), new OpResolver().register(reg).register(mulKernel), {
    planner: new TestLinearPlanner(),
    arena: 'auto',
  });
}

describe('allocatePersistentOutput', () => {
  it('binds the output in the arena tail: the planner skips it and its data survive every invoke', () => {
    const calls = { invoke: 0 };
    const it_ = interp(foldKernel(calls)).allocateTensors();
    expect(it_.tensor(1).allocationType).toBe(AllocationType.ArenaRwPersistent);
    expect(it_.memoryPlan().requirements.map((r) => r.id)).toEqual([2, 3]);
    const u = it_.arenaUsage();
    expect(u.plannedTensorBytes).toBe(64);
    expect(u.perNode[0]!.persistentBytes).toBe(32);
    expect(u.persistentBufferBytes).toBe(32);
    for (let k = 0; k < 3; k++) {
      it_.setInput(0, new Float32Array(8).fill(k + 1));
      it_.invoke();
      expect(Array.from(it_.output(0).data as Float32Array)).toEqual([2, 4, 6, 8, 10, 12, 14, 16].map((v) => v * (k + 1)));
    }
    expect(calls.invoke).toBe(3);
  });

  it('is refused outside prepare and for constant outputs', () => {
    expect(() => interp(foldKernel({ invoke: 0 }, 'init')).allocateTensors()).toThrow(PhaseError);
    const inv = interp(foldKernel({ invoke: 0 }, 'invoke')).allocateTensors();
    inv.setInput(0, new Float32Array(8));
    expect(() => inv.invoke()).toThrow(/allocatePersistentOutput\(\) is not allowed in phase invoke/);
    const constOut: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'FOLD',
      prepare: (ctx, node) => void allocatePersistentOutput(ctx, node, 0, 'FOLD'),
      invoke: () => {},
    };
    const m = tinyModel(
      [
        { shape: [2], data: new Uint8Array(8) },
        { shape: [2], data: new Uint8Array(8) },
      ],
      [{ custom: 'FOLD', inputs: [0], outputs: [1] }],
      [],
      [1],
    );
    const bad = new MicroInterpreter(m, new OpResolver().register(constOut), { planner: new TestLinearPlanner() });
    expect(() => bad.allocateTensors()).toThrow(KernelError);
    expect(() =>
      new MicroInterpreter(m, new OpResolver().register(constOut), { planner: new TestLinearPlanner() }).allocateTensors(),
    ).toThrow(/FOLD.*output 0 \(tensor 1\) cannot be made persistent: it already has mmap-ro data/);
  });
});
