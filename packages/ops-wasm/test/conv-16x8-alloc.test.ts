/**
 * 16x8 CONV_2D -> DEPTHWISE_CONV_2D (depth multiplier 2) -> FULLY_CONNECTED inside the interpreter: runs
 * wholly on ops-wasm with the bytes of ops-reference, and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { buildChain16 } from '../src/__tests__/single-op-16x8.js';
import { runBoth, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

describe('16x8 chain in the interpreter', () => {
  it('runs wholly on ops-wasm with the bytes of ops-reference, and invoke allocates nothing', () => {
    const { def, input } = buildChain16();
    const r = runBoth(def, [input]);
    expect(r.served).toBe(3);
    expect(r.got).toEqual(r.ref);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const interp = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      arenaBacking: wasm().arenaBacking,
    }).allocateTensors();
    expect(interp.nodes().map((n) => n.provider)).toEqual(Array(3).fill(PROVIDER));
    interp.input(0).bytes.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
    const m = measureAllocation(() => interp.invoke(), { warmup: 300, trials: 7, iterations: 500 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
