// Several interpreters sharing one loaded model: interleaved runs give the same outputs as each alone,
// and one interpreter failing (arena too small, bad input, a kernel error, dispose) leaves the others
// untouched — including the model's constant data, which all of them view.
import {
  ArenaTooSmallError,
  BuiltinOperator,
  InputError,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  loadModel,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { fillInputs } from '../../src/fuzz/execute.js';
import { zooModels } from '../../src/fuzz/zoo.js';

const zoo = new Map(zooModels().map((m) => [m.name, m.bytes] as const));
const resolver = () => registerReferenceOps(new OpResolver());

function make(model: ModelDef, planner = 'greedy', arena: number | 'auto' = 'auto'): MicroInterpreter {
  return new MicroInterpreter(model, resolver(), { planner: createPlanner(planner), arena });
}

function outputs(interp: MicroInterpreter): number[][] {
  return Array.from({ length: interp.outputsSize }, (_, j) => Array.from(interp.output(j).bytes));
}

/** Outputs of `steps` invokes of a fresh interpreter with inputs from `seed + step`. */
function alone(model: ModelDef, seed: number, steps: number): number[][][] {
  const interp = make(model).allocateTensors();
  const res: number[][][] = [];
  for (let s = 0; s < steps; s++) {
    fillInputs(interp, seed + s);
    interp.invoke();
    res.push(outputs(interp));
  }
  return res;
}

function constantBytes(model: ModelDef): string {
  return model.buffers.map((b) => Buffer.from(b.data).toString('base64')).join('|');
}

describe('many interpreters sharing one loaded model', () => {
  for (const name of ['zoo:int8_conv', 'zoo:svdf', 'zoo:float_elementwise', 'zoo:data_movement']) {
    it(`${name}: 4 interpreters (different planners and arenas) interleaved over 3 steps equal each run alone`, () => {
      const model = loadModel(zoo.get(name)!);
      const seeds = [11, 22, 33, 44];
      const expected = seeds.map((s) => alone(model, s, 3));
      const size = make(model).allocateTensors().arenaUsage().arenaBytes;
      const interps = [make(model, 'greedy'), make(model, 'linear'), make(model, 'bestfit'), make(model, 'greedy', size)].map((i) =>
        i.allocateTensors(),
      );
      for (let step = 0; step < 3; step++) {
        interps.forEach((it_, k) => fillInputs(it_, seeds[k]! + step));
        // invoke in a different order every step
        const order = step === 1 ? [3, 1, 0, 2] : step === 2 ? [2, 3, 1, 0] : [0, 1, 2, 3];
        for (const k of order) interps[k]!.invoke();
        interps.forEach((it_, k) => expect(outputs(it_), `interpreter ${k} step ${step}`).toEqual(expected[k]![step]));
      }
    });
  }

  it('a failing interpreter leaves the others and the shared model untouched', () => {
    const model = loadModel(zoo.get('zoo:int8_conv')!);
    const before = constantBytes(model);
    const expected = alone(model, 5, 2);
    const good = make(model).allocateTensors();
    fillInputs(good, 5);
    good.invoke();

    // arena too small: allocate fails, the interpreter stays failed
    const tooSmall = make(model, 'greedy', 64);
    expect(() => tooSmall.allocateTensors()).toThrow(ArenaTooSmallError);
    expect(tooSmall.status).toBe('failed');
    // bad input size on another interpreter
    const badInput = make(model).allocateTensors();
    expect(() => badInput.setInput(0, new Uint8Array(3))).toThrow(InputError);
    // disposing a third
    const disposed = make(model).allocateTensors();
    disposed.dispose();

    expect(outputs(good)).toEqual(expected[0]);
    fillInputs(good, 6);
    good.invoke();
    expect(outputs(good)).toEqual(expected[1]);
    // the interpreter that got a bad input is still usable
    fillInputs(badInput, 5);
    badInput.invoke();
    expect(outputs(badInput)).toEqual(expected[0]);
    expect(constantBytes(model)).toBe(before);
  });

  it('a kernel error during one invoke leaves that interpreter usable and the others unaffected', () => {
    // x → CUSTOM "Picky" (throws on a negative first element) → y
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
    b.addOperator({ op: { custom: 'Picky' }, inputs: [x], outputs: [y] });
    const model = loadModel(b.setInputs([x]).setOutputs([y]).build());
    const picky = () =>
      registerReferenceOps(new OpResolver()).register({
        builtinCode: BuiltinOperator.CUSTOM,
        customName: 'Picky',
        invoke(ctx, node) {
          const xs = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
          const ys = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array;
          if (xs[0]! < 0) throw new KernelError('Picky', node.index, `negative input ${xs[0]}`);
          for (let i = 0; i < 4; i++) ys[i] = xs[i]! * 2;
        },
      });
    const a = new MicroInterpreter(model, picky(), { planner: createPlanner('greedy') }).allocateTensors();
    const c = new MicroInterpreter(model, picky(), { planner: createPlanner('greedy') }).allocateTensors();
    a.setInput(0, [-1, 0, 0, 0]);
    c.setInput(0, [1, 2, 3, 4]);
    expect(() => a.invoke()).toThrow(/Picky \(node 0\): negative input -1/);
    c.invoke();
    expect(Array.from(c.output(0).data as Float32Array)).toEqual([2, 4, 6, 8]);
    a.setInput(0, [5, 6, 7, 8]);
    a.invoke();
    expect(Array.from(a.output(0).data as Float32Array)).toEqual([10, 12, 14, 16]);
  });
});
