import { afterAll, describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { buildSvdf, randomSvdfCase, runSteps } from '../__tests__/single-op-svdf.js';
import { loadVariants } from '../../test/variants.js';

const STEPS = 6;
const loaded = await loadVariants({ minMacs: 0 });
afterAll(() => loaded.forEach((l) => l.wasm.dispose()));

for (const { variant, wasm } of loaded) {
  describe(`SVDF int8 (wasm, ${variant.name}) equals ops-reference byte for byte`, () => {
    it(`on 160 random layers over ${STEPS} invokes each (state carried): int16 and int8 state, ranks 1-3, batches 1-2, odd input and memory sizes, with and without bias`, () => {
      const seen = { state16: 0, state8: 0, rank2: 0, batch2: 0, noBias: 0, oddMemory: 0, oddInput: 0, stateZp: 0 };
      let inside = 0;
      let clamped = 0;
      for (let seed = 1; seed <= 160; seed++) {
        const c = randomSvdfCase(seed);
        const { def, inputs } = buildSvdf(c, STEPS);
        const steps = inputs.map((x) => [x]);
        const ref = runSteps(def, steps, null);
        const got = runSteps(def, steps, wasm);
        expect(got.served, JSON.stringify(c)).toBe(1);
        expect(got.outs, JSON.stringify(c)).toEqual(ref.outs);
        for (const out of ref.outs)
          for (const v of out[0]!)
            if (v === -128 || v === 127) clamped++;
            else inside++;
        seen[c.state16 ? 'state16' : 'state8']++;
        if (c.rank > 1) seen.rank2++;
        if (c.batches > 1) seen.batch2++;
        if (!c.bias) seen.noBias++;
        if (c.memory % 8) seen.oddMemory++;
        if (c.inputSize % 8) seen.oddInput++;
        if (c.stateZp) seen.stateZp++;
      }
      for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(20);
      // most outputs are requantized values, not the clamp (output zero points of -128 and 127 clamp about half of theirs, gains of 30 most)
      expect(inside, `${clamped} clamped`).toBeGreaterThan(clamped);
      expect(clamped).toBeGreaterThan(0);
    });
  });
}

describe('SVDF (wasm) declines what it does not take', () => {
  const { wasm } = loaded[0]!;
  const reason = (c: ReturnType<typeof randomSvdfCase>): string => {
    const { def } = buildSvdf(c, 1);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm.kernels, { fallback: true });
    const it = new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: wasm.arenaBacking });
    const node = it.check().nodes[0]!;
    expect(node.provider).toBe('@micrort/ops-reference');
    return node.declined?.map((d) => d.reason).join('; ') ?? '';
  };

  it('an int16 state with a nonzero zero point goes to ops-reference, with the same outputs', () => {
    const c = { ...randomSvdfCase(3), state16: true, stateZp: 5 };
    const { def, inputs } = buildSvdf(c, STEPS);
    const steps = inputs.map((x) => [x]);
    const got = runSteps(def, steps, wasm);
    expect(got.served).toBe(0);
    expect(got.outs).toEqual(runSteps(def, steps, null).outs);
    expect(reason(c)).toMatch(/int16 activation state zero point 5/);
  });
});
