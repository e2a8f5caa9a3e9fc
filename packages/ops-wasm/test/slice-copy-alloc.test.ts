/**
 * SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK and REVERSE_V2 inside the interpreter: a chain of the six
 * (a reversed strided slice, a slice, a split, a split_v with -1, an unpack, a reverse) runs wholly on
 * ops-wasm with ops-reference's bytes, and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { int8s, rng, runBoth, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function buildChain() {
  const b = new ModelBuilder();
  const q = { quantization: { scale: 0.25, zeroPoint: -3 } };
  const t = (name: string, shape: number[]) => b.addTensor({ name, type: TensorType.INT8, shape, ...q });
  const i32 = (name: string, values: number[], shape = [values.length]) =>
    b.addTensor({ name, type: TensorType.INT32, shape, data: Int32Array.from(values) });
  const x = t('x', [2, 6, 8, 16]);
  const s1 = t('s1', [2, 4, 4, 16]);
  b.addOperator({
    op: BuiltinOperator.STRIDED_SLICE,
    inputs: [x, i32('b1', [0, 1, 0, 0]), i32('e1', [2, 5, 8, 0]), i32('st1', [1, 1, 2, -1])],
    outputs: [s1],
    options: { beginMask: 8, endMask: 8, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0, offset: false },
  });
  const s2 = t('s2', [2, 4, 4, 12]);
  b.addOperator({ op: BuiltinOperator.SLICE, inputs: [s1, i32('b2', [0, 0, 0, 2]), i32('z2', [-1, -1, -1, 12])], outputs: [s2] });
  const a = t('a', [2, 4, 4, 6]);
  const c = t('c', [2, 4, 4, 6]);
  b.addOperator({ op: BuiltinOperator.SPLIT, inputs: [i32('ax3', [3], []), s2], outputs: [a, c], options: { numSplits: 2 } });
  const d = t('d', [2, 1, 4, 6]);
  const e = t('e', [2, 3, 4, 6]);
  b.addOperator({
    op: BuiltinOperator.SPLIT_V,
    inputs: [a, i32('sz', [1, -1]), i32('ax1', [1], [])],
    outputs: [d, e],
    options: { numSplits: 2 },
  });
  const f = t('f', [4, 4, 6]);
  const g = t('g', [4, 4, 6]);
  b.addOperator({ op: BuiltinOperator.UNPACK, inputs: [c], outputs: [f, g], options: { num: 2, axis: 0 } });
  const h = t('h', [4, 4, 6]);
  b.addOperator({ op: BuiltinOperator.REVERSE_V2, inputs: [g, i32('ax01', [1, 0])], outputs: [h] });
  b.setInputs([x]).setOutputs([d, e, f, h]);
  return b.buildDef();
}

describe('SLICE, STRIDED_SLICE, SPLIT, SPLIT_V, UNPACK and REVERSE_V2 in the interpreter', () => {
  it('run on ops-wasm with the bytes of ops-reference, and invoke allocates nothing', () => {
    const def = buildChain();
    const input = int8s(rng(5), 2 * 6 * 8 * 16);
    const both = runBoth(def, [input]);
    expect(both.served).toBe(6);
    expect(both.got).toEqual(both.ref);

    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const interp = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      arenaBacking: wasm().arenaBacking,
    }).allocateTensors();
    expect(interp.nodes().map((n) => n.provider)).toEqual(new Array(6).fill(PROVIDER));
    interp.input(0).bytes.set(new Uint8Array(input.buffer));
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
