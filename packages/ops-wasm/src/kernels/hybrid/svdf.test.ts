import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { buildHybridSvdf, randomHybridSvdfCase, runSteps } from '../../__tests__/single-op-svdf.js';
import { wasm } from '../../__tests__/single-op.js';

// ops-reference's hybrid SVDF is TFLite's EvalHybridSVDF (svdf.h); the int8 feature sums are exact and
// every float32 step here is its operation in its order, so outputs (and the state they come from) are
// equal to the bit, not within a tolerance.
describe('hybrid SVDF (wasm) equals ops-reference bit for bit', () => {
  it('on 120 random layers, 6 invokes each (the state carries over): batches 1-3, ranks 1-3, odd memories, every fused activation, symmetric and asymmetric inputs, uint8 weights, all-zero inputs', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 120; seed++) {
      const c = randomHybridSvdfCase(seed);
      const m = buildHybridSvdf(c, 6);
      const steps = m.inputs.map((x) => [x]);
      const ref = runSteps(m.def, steps, null);
      const got = runSteps(m.def, steps, wasm());
      expect(got.served, m.desc).toBe(1);
      expect(got.outs, m.desc).toEqual(ref.outs);
      seen.add(`activation ${c.activation}`);
      seen.add(`asymmetric ${c.asymmetric}`);
      seen.add(`rank ${c.rank}`);
      seen.add(`batches ${c.batches}`);
      seen.add(`uint8 ${c.uint8}`);
    }
    expect(seen.size).toBe(6 + 2 + 3 + 3 + 2);
  });
});

describe('hybrid SVDF (wasm) declines what it does not take, with the reason', () => {
  const reason = (def: ModelDef): string => {
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const node = new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking }).check()
      .nodes[0]!;
    expect(node.provider).toBe('@micrort/ops-reference');
    return node.declined?.map((d) => d.reason).join('; ') ?? '';
  };

  it('per-filter feature scales go to ops-reference (TFLite reads the first), with the same outputs', () => {
    const c = { ...randomHybridSvdfCase(7), perChannel: true };
    const m = buildHybridSvdf(c, 4);
    const steps = m.inputs.map((x) => [x]);
    const got = runSteps(m.def, steps, wasm());
    expect(got.served).toBe(0);
    expect(got.outs).toEqual(runSteps(m.def, steps, null).outs);
    expect(reason(m.def)).toMatch(/weights_feature \(tensor \d+\) with \d+ scales \(TFLite's hybrid SVDF reads one scale per tensor\)/);
  });

  it('time weights that are not a constant', () => {
    const m = buildHybridSvdf({ ...randomHybridSvdfCase(8), dynamicTime: true }, 1);
    expect(reason(m.def)).toMatch(/weights_time \(tensor \d+\) is not a constant/);
  });
});
