/**
 * SVDF inside the interpreter: a chain of an int16-state and an int8-state SVDF (ranks 2 and 1, two
 * batches, a bias and none) runs wholly on ops-wasm with ops-reference's bytes over several invokes (the
 * states carried), a float32 SVDF with a fused TANH within the float tolerance, and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
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
import { measureAllocation } from '@micrort/test-support/alloc';
import { buildSvdfF32, runSteps } from '../src/__tests__/single-op-svdf.js';
import { firstMismatch } from '../src/__tests__/single-op-float.js';
import { int8s, rng, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function buildNetwork(): { def: ModelDef; steps: Int8Array[][] } {
  const b = new ModelBuilder();
  const r = rng(5);
  const q = (scale: number, zeroPoint = 0) => ({ quantization: { scale, zeroPoint } });
  const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [2, 40], ...q(1 / 64, -3) });
  const svdf = (input: number, inputSize: number, units: number, rank: number, memory: number, state16: boolean, bias: boolean) => {
    const filters = units * rank;
    const stateType = state16 ? TensorType.INT16 : TensorType.INT8;
    const wf = b.addTensor({
      name: 'wf',
      type: TensorType.INT8,
      shape: [filters, inputSize],
      data: int8s(r, filters * inputSize),
      ...q(0.1),
    });
    const time = state16 ? Int16Array.from(int8s(r, filters * memory), (v) => v * 200) : int8s(r, filters * memory);
    const wt = b.addTensor({ name: 'wt', type: stateType, shape: [filters, memory], data: time, ...q(1) });
    const bt = bias
      ? b.addTensor({ name: 'b', type: TensorType.INT32, shape: [units], data: Int32Array.from(int8s(r, units), (v) => v * 50), ...q(1) })
      : -1;
    const state = b.addTensor({ name: 's', type: stateType, shape: [2, filters * memory], variable: true, ...q(1, state16 ? 0 : 9) });
    const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [2, units], ...q(state16 ? 1e6 : 300, -5) });
    b.addOperator({ op: BuiltinOperator.SVDF, inputs: [input, wf, wt, bt, state], outputs: [y], options: { rank } });
    return y;
  };
  const h = svdf(x, 40, 12, 2, 10, true, true);
  const out = svdf(h, 12, 7, 1, 16, false, false);
  b.setInputs([x]).setOutputs([out]);
  return { def: b.buildDef(), steps: Array.from({ length: 8 }, () => [int8s(r, 80)]) };
}

function expectAllocationFree(def: ModelDef, input: Int8Array, nodes: number): void {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const interp = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
  }).allocateTensors();
  expect(interp.nodes().map((n) => n.provider)).toEqual(Array(nodes).fill(PROVIDER));
  interp.input(0).bytes.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
  expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
}

describe('SVDF in the interpreter', () => {
  it('int16 and int8 states: runs wholly on ops-wasm with the bytes of ops-reference over 8 invokes, and invoke allocates nothing', () => {
    const { def, steps } = buildNetwork();
    const ref = runSteps(def, steps, null);
    const got = runSteps(def, steps, wasm());
    expect(got.served).toBe(2);
    expect(got.outs).toEqual(ref.outs);
    // the outputs move with the inputs and the states (not one constant)
    expect(new Set(ref.outs.map((o) => o[0]!.join(','))).size).toBe(steps.length);

    expectAllocationFree(def, steps[0]![0]!, 2);
  });

  it('float32 with a fused TANH: runs on ops-wasm within the float tolerance of ops-reference over 8 invokes, and invoke allocates nothing', () => {
    const c = { batches: 2, inputSize: 20, units: 5, rank: 2, memory: 9, bias: true, activation: ActivationFunctionType.TANH, seed: 9 };
    const { def, inputs } = buildSvdfF32(c, 8);
    const steps = inputs.map((x) => [x]);
    const ref = runSteps(def, steps, null);
    const got = runSteps(def, steps, wasm());
    expect(got.served).toBe(1);
    const f32 = (b: Int8Array) => new Float32Array(Int8Array.from(b).buffer);
    ref.outs.forEach((o, i) => expect(firstMismatch(f32(got.outs[i]![0]!), f32(o[0]!)), `step ${i}`).toBeNull());
    expectAllocationFree(def, inputs[0]!, 1);
  });
});
