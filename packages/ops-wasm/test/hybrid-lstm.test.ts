/**
 * The hybrid UNIDIRECTIONAL_SEQUENCE_LSTM of ops-wasm (float32 activations × int8 weights) in the
 * interpreter, in every variant of test/variants.ts (the relaxed builds in test/relaxed.test.ts's child
 * run): random hybrid LSTMs of every variant set (both layouts, 1 and 3 batches, CIFG, peepholes,
 * projection, int8 and uint8 weights, symmetric and asymmetric inputs) equal to ops-reference's over three
 * invokes, and invoke allocating nothing on a standard one and on one with CIFG, peepholes and projection.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { HYBRID_LSTM_CASES, buildLstmF32, firstDifference, runLstm, type LstmF32Variants } from '../src/__tests__/single-op-lstm-f32.js';
import { wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';
import { loadVariants } from './variants.js';

const variants = await loadVariants({ minMacs: 0 });
afterAll(() => variants.forEach((l) => l.wasm.dispose()));

describe('random hybrid LSTMs in every variant equal to ops-reference (3 invokes: the states carry over)', () => {
  for (const { variant, wasm: w } of variants)
    it.each(HYBRID_LSTM_CASES)(`${variant.name}: %s, 4 random LSTMs`, (_, v) => {
      for (let seed = 201; seed <= 204; seed++) {
        const m = buildLstmF32(seed, v);
        const got = runLstm(m.def, m.inputs[0]!, w, 3);
        expect(got.served, m.desc).toBe(1);
        expect(firstDifference(got.out, runLstm(m.def, m.inputs[0]!, null, 3).out), m.desc).toBeNull();
      }
    });
});

describe('hybrid LSTM invoke allocates nothing', () => {
  it.each<[string, LstmF32Variants]>([
    ['standard, batch-major, 3 batches, symmetric', { timeMajor: false, batches: 3, hybrid: 'int8' }],
    [
      'CIFG, peepholes and projection, time-major, 3 batches, asymmetric',
      { cifg: true, peephole: true, projection: true, timeMajor: true, batches: 3, hybrid: 'int8', asymmetric: true },
    ],
  ])('%s', (_, v) => {
    const m = buildLstmF32(4, v);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const interp = new MicroInterpreter(m.def, resolver, {
      planner: createPlanner('greedy'),
      arenaBacking: wasm().arenaBacking,
    }).allocateTensors();
    expect(interp.nodes().map((n) => n.provider)).toEqual([PROVIDER]);
    interp.input(0).bytes.set(new Uint8Array(m.inputs[0]!.buffer));
    const a = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(a.medianTrialBytes, `heap deltas per trial: ${a.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
