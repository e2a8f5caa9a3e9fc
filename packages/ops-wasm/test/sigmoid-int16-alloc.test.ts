/**
 * int16 LOGISTIC and TANH inside the interpreter: a 16x8-style chain (LOGISTIC under a general input
 * multiplier, TANH under the power-of-two scale 2^-11, TANH under 2^-12, each on a length that is not a
 * multiple of 8) runs wholly on ops-wasm with ops-reference's bytes, and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { int, rng, runBoth, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function buildChain() {
  const b = new ModelBuilder();
  const t = (name: string, scale: number) =>
    b.addTensor({ name, type: TensorType.INT16, shape: [1, 37, 29], quantization: { scale, zeroPoint: 0 } });
  const x = t('x', 0.00071);
  const l = t('l', 2 ** -15);
  const x2 = t('x2', 2 ** -11);
  const y = t('y', 2 ** -15);
  const x3 = t('x3', 2 ** -12);
  const z = t('z', 2 ** -15);
  b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [x], outputs: [l] });
  b.addOperator({ op: BuiltinOperator.TANH, inputs: [x2], outputs: [y] });
  b.addOperator({ op: BuiltinOperator.TANH, inputs: [x3], outputs: [z] });
  b.setInputs([x, x2, x3]).setOutputs([l, y, z]);
  return b.buildDef();
}

describe('int16 LOGISTIC / TANH in the interpreter', () => {
  it('run on ops-wasm with the bytes of ops-reference, and invoke allocates nothing', () => {
    const def = buildChain();
    const r = rng(3);
    const inputs = [0, 1, 2].map(() => {
      const x = Int16Array.from({ length: 37 * 29 }, () => int(r, -32768, 32767));
      x[0] = -32768;
      x[1] = 32767;
      return new Int8Array(x.buffer);
    });
    const both = runBoth(def, inputs);
    expect(both.served).toBe(3);
    expect(both.got).toEqual(both.ref);

    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const interp = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      arenaBacking: wasm().arenaBacking,
    }).allocateTensors();
    expect(interp.nodes().map((n) => n.provider)).toEqual([PROVIDER, PROVIDER, PROVIDER]);
    inputs.forEach((x, i) => interp.input(i).bytes.set(new Uint8Array(x.buffer)));
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
