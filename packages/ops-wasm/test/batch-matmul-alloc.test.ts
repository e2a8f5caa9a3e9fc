/**
 * BATCH_MATMUL inside the interpreter: chains of float32, int8 and int16 nodes (runtime RHS packed every
 * invoke, adj_x LHS, a constant RHS packed at prepare, broadcast batches) run wholly on ops-wasm with
 * ops-reference's outputs (float32 within tolerance, integers byte for byte), and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { floats, firstMismatch, runF32 } from '../src/__tests__/single-op-float.js';
import { int8s, rng, runBoth, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function buildNetwork(type: TensorType) {
  const b = new ModelBuilder();
  const r = rng(11);
  const float = type === TensorType.FLOAT32;
  const int16 = type === TensorType.INT16;
  let zp = -7;
  const f = (name: string, shape: number[], data?: Float32Array) =>
    b.addTensor({
      name,
      type,
      shape,
      ...(float ? {} : { quantization: { scale: 0.04 + (zp & 3) * 0.01, zeroPoint: int16 ? 0 : (zp += 5) } }),
      ...(data
        ? {
            data: float
              ? data
              : int16
                ? Int16Array.from(data, (v) => Math.round(v * 300))
                : Int8Array.from(data, (v) => Math.round(v * 127)),
          }
        : {}),
    });
  const bmm = (x: number, y: number, out: number, adjX: boolean, adjY: boolean) =>
    b.addOperator({
      op: BuiltinOperator.BATCH_MATMUL,
      inputs: [x, y],
      outputs: [out],
      options: { adjX, adjY, asymmetricQuantizeInputs: false },
    });
  const x = f('x', [2, 9, 16]);
  const y = f('y', [2, 16, 7]);
  const w = f('w', [7, 12], floats(r, 84));
  const k = f('k', [3, 1, 12, 5]);
  const xy = f('xy', [2, 9, 7]);
  const xyw = f('xyw', [2, 9, 12]);
  const out = f('out', [3, 2, 5, 9]);
  bmm(x, y, xy, false, false); // runtime RHS, packed every invoke
  bmm(xy, w, xyw, false, false); // constant RHS shared by the batches: one GEMM
  bmm(k, xyw, out, true, true); // adj_x LHS transposed every invoke, broadcast batches
  b.setInputs([x, y, k]).setOutputs([out]);
  const int16s = (n: number) => Int16Array.from(floats(r, n), (v) => Math.round(v * 300));
  const inputs = float
    ? [floats(r, 288), floats(r, 224), floats(r, 180)]
    : int16
      ? [int16s(288), int16s(224), int16s(180)]
      : [int8s(r, 288), int8s(r, 224), int8s(r, 180)];
  return { def: b.buildDef(), inputs };
}

function expectAllocationFree(def: ModelDef, inputs: ArrayBufferView[]): void {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const interp = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
  }).allocateTensors();
  expect(interp.nodes().map((n) => n.provider)).toEqual(Array(3).fill(PROVIDER));
  inputs.forEach((x, i) => interp.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
  expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
}

describe('BATCH_MATMUL in the interpreter', () => {
  it('float32: runs wholly on ops-wasm with the outputs of ops-reference, and invoke allocates nothing', () => {
    const { def, inputs } = buildNetwork(TensorType.FLOAT32);
    const ref = runF32(def, inputs, false);
    const got = runF32(def, inputs, true);
    expect(got.served).toBe(3);
    expect(firstMismatch(got.outs[0]!, ref.outs[0]!)).toBeNull();
    expectAllocationFree(def, inputs);
  });

  it.each([
    ['int8', TensorType.INT8],
    ['int16', TensorType.INT16],
  ])('%s: runs wholly on ops-wasm with the bytes of ops-reference, and invoke allocates nothing', (_, type) => {
    const { def, inputs } = buildNetwork(type);
    const r = runBoth(
      def,
      inputs.map((x) => new Int8Array(x.buffer, x.byteOffset, x.byteLength)),
    );
    expect(r.served).toBe(3);
    expect(r.got).toEqual(r.ref);
    expectAllocationFree(def, inputs);
  });
});
