/**
 * MIRROR_PAD, a float32 DEPTHWISE_CONV_2D with depth multiplier 2, GATHER (indices fed as data) and PACK
 * inside the interpreter: the chain runs wholly on ops-wasm within the float tolerance of ops-reference,
 * and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, MirrorPadMode, ModelBuilder, OpResolver, Padding, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { firstMismatch, floats } from '../src/__tests__/single-op-float.js';
import { rng, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function buildChain() {
  const b = new ModelBuilder();
  const f = (name: string, shape: number[], data?: Float32Array) =>
    b.addTensor({ name, type: TensorType.FLOAT32, shape, ...(data ? { data } : {}) });
  const r = rng(17);
  const x = f('x', [1, 12, 12, 8]);
  const padded = f('padded', [1, 14, 14, 8]);
  const paddings = b.addTensor({ name: 'paddings', type: TensorType.INT32, shape: [4, 2], data: Int32Array.of(0, 0, 1, 1, 1, 1, 0, 0) });
  b.addOperator({ op: BuiltinOperator.MIRROR_PAD, inputs: [x, paddings], outputs: [padded], options: { mode: MirrorPadMode.REFLECT } });
  const dw = f('dw', [1, 12, 12, 16]);
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [padded, f('w', [1, 3, 3, 16], floats(r, 144, -0.5, 0.5)), f('bias', [16], floats(r, 16))],
    outputs: [dw],
    options: {
      padding: Padding.VALID,
      strideH: 1,
      strideW: 1,
      dilationHFactor: 1,
      dilationWFactor: 1,
      fusedActivationFunction: 0,
      depthMultiplier: 2,
    },
  });
  const idx = b.addTensor({ name: 'idx', type: TensorType.INT32, shape: [6] });
  const g = f('g', [1, 12, 12, 6]);
  b.addOperator({ op: BuiltinOperator.GATHER, inputs: [dw, idx], outputs: [g], options: { axis: 3, batchDims: 0 } });
  const out = f('out', [2, 1, 12, 12, 6]);
  b.addOperator({ op: BuiltinOperator.PACK, inputs: [g, g], outputs: [out], options: { valuesCount: 2, axis: 0 } });
  b.setInputs([x, idx]).setOutputs([out]);
  return b.buildDef();
}

describe('MIRROR_PAD, DEPTHWISE_CONV_2D (float32, depth multiplier 2), GATHER and PACK in the interpreter', () => {
  it('run on ops-wasm within the float tolerance of ops-reference, and invoke allocates nothing', () => {
    const def = buildChain();
    const x = floats(rng(5), 12 * 12 * 8);
    const idx = Int32Array.of(15, 0, 3, 3, 8, 1);
    const run = (withWasm: boolean) => {
      const resolver = registerReferenceOps(new OpResolver());
      if (withWasm) resolver.registerAll(wasm().kernels, { fallback: true });
      const it_ = new MicroInterpreter(def, resolver, {
        planner: createPlanner('greedy'),
        ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
      }).allocateTensors();
      it_.input(0).bytes.set(new Uint8Array(x.buffer));
      it_.input(1).bytes.set(new Uint8Array(idx.buffer));
      it_.invoke();
      return it_;
    };
    const ref = run(false);
    const got = run(true);
    expect(got.nodes().map((n) => n.provider)).toEqual(new Array(4).fill(PROVIDER));
    expect(
      firstMismatch(new Float32Array(got.output(0).bytes.slice().buffer), new Float32Array(ref.output(0).bytes.slice().buffer)),
    ).toBeNull();
    const m = measureAllocation(() => got.invoke(), { warmup: 300, trials: 7, iterations: 300 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
