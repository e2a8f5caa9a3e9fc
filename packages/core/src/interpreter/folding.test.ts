/**
 * Constant folding and arena-resident kernels (folding.ts, `Registration.arenaResident`): core evaluates
 * shape arithmetic during prepare on buffers outside the arena, so a node whose inputs are constants
 * moves off a kernel that can only address the arena (a WebAssembly kernel) to the next provider before
 * it prepares; with no such provider it keeps its kernel and runs at invoke instead of folding.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import type { Registration } from '../kernel/api.js';
import { ModelBuilder } from '../model/model-builder.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { TensorType } from '../types.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner } from './__fixtures__/tiny-models.js';

/** SHAPE of any input, as int32. */
const shapeKernel: Registration = {
  builtinCode: BuiltinOperator.SHAPE,
  provider: 'portable',
  prepare(ctx, node) {
    ctx.resizeTensor(node.outputs[0]!, [ctx.getTensor(node.inputs[0]!).dims.length]);
  },
  invoke(ctx, node) {
    (ctx.getEvalTensor(node.outputs[0]!).data as Int32Array).set(ctx.getEvalTensor(node.inputs[0]!).dims);
  },
};

/**
 * int32 ADD of two same-shape tensors. A `resident` one fails on an output outside the arena's buffer
 * (which it learns from a persistent buffer in prepare), where a WebAssembly kernel would write wrong bytes.
 */
function addKernel(provider: string, resident: boolean, runs: { count: number }): Registration {
  let arena: ArrayBufferLike | null = null;
  return {
    builtinCode: BuiltinOperator.ADD,
    provider,
    ...(resident ? { arenaResident: true } : {}),
    prepare(ctx, node) {
      ctx.resizeTensor(node.outputs[0]!, ctx.getTensor(node.inputs[0]!).dims);
      arena = ctx.allocatePersistentBuffer(4).buffer;
    },
    invoke(ctx, node) {
      const y = ctx.getEvalTensor(node.outputs[0]!).data as Int32Array;
      if (resident && y.buffer !== arena) throw new Error(`${provider} ran on a buffer outside the arena`);
      runs.count++;
      const a = ctx.getEvalTensor(node.inputs[0]!).data as Int32Array;
      const b = ctx.getEvalTensor(node.inputs[1]!).data as Int32Array;
      for (let i = 0; i < y.length; i++) y[i] = a[i]! + b[i]!;
    },
  };
}

/** x [2, 3] float → SHAPE → s; s + [10, 20] → y (graph output): ADD's inputs are constants once SHAPE folded. */
function shapeArithmetic() {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 3] });
  const s = b.addTensor({ name: 's', type: TensorType.INT32, shape: [2] });
  const c = b.addTensor({ name: 'c', type: TensorType.INT32, shape: [2], data: new Int32Array([10, 20]) });
  const y = b.addTensor({ name: 'y', type: TensorType.INT32, shape: [2] });
  b.addOperator({ op: BuiltinOperator.SHAPE, inputs: [x], outputs: [s] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [s, c], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).buildDef();
}

function run(...adds: Registration[]) {
  const resolver = new OpResolver().register(shapeKernel);
  for (const a of adds) resolver.register(a, { fallback: true });
  const interp = new MicroInterpreter(shapeArithmetic(), resolver, { planner: new TestLinearPlanner() }).allocateTensors();
  interp.invoke();
  const add = interp.nodes().find((n) => n.op === 'ADD')!;
  return { y: Array.from(new Int32Array(interp.output(0).bytes.slice().buffer)), add };
}

describe('constant folding with arena-resident kernels', () => {
  it('moves a folded node off an arena-resident kernel to the next provider, saying why', () => {
    const portable = { count: 0 };
    const resident = { count: 0 };
    // registered last with fallback: the resident kernel is asked first, as ops-wasm in front of ops-reference
    const { y, add } = run(addKernel('portable', false, portable), addKernel('resident', true, resident));
    expect(y).toEqual([12, 23]);
    expect(add.folded).toBe(true);
    expect(add.provider).toBe('portable');
    expect(add.declined).toEqual([{ provider: 'resident', kernel: 'ADD', reason: expect.stringMatching(/constants.*outside the arena/) }]);
    expect(portable.count).toBe(1); // once, during prepare
    expect(resident.count).toBe(0);
  });

  it('with no other provider, keeps the arena-resident kernel and runs the node at invoke', () => {
    const resident = { count: 0 };
    const { y, add } = run(addKernel('resident', true, resident));
    expect(y).toEqual([12, 23]);
    expect(add.folded).toBeUndefined();
    expect(add.provider).toBe('resident');
    expect(resident.count).toBe(1);
  });

  it('keeps an arena-resident kernel on a node that does not fold', () => {
    const b = new ModelBuilder();
    const a = b.addTensor({ name: 'a', type: TensorType.INT32, shape: [2] });
    const c = b.addTensor({ name: 'c', type: TensorType.INT32, shape: [2], data: new Int32Array([1, 2]) });
    const y = b.addTensor({ name: 'y', type: TensorType.INT32, shape: [2] });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [a, c], outputs: [y] });
    const resolver = new OpResolver().register(addKernel('portable', false, { count: 0 }));
    resolver.register(addKernel('resident', true, { count: 0 }), { fallback: true });
    const interp = new MicroInterpreter(b.setInputs([a]).setOutputs([y]).buildDef(), resolver, { planner: new TestLinearPlanner() });
    interp.allocateTensors();
    new Int32Array(interp.input(0).bytes.buffer, interp.input(0).bytes.byteOffset, 2).set([5, 6]);
    interp.invoke();
    expect(Array.from(new Int32Array(interp.output(0).bytes.slice().buffer))).toEqual([6, 8]);
    expect(interp.nodes()[0]).toMatchObject({ provider: 'resident' });
    expect(interp.nodes()[0]!.declined).toBeUndefined();
  });
});
