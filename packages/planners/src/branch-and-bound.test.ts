import { describe, expect, it } from 'vitest';
import { bruteForceHead } from './__tests__/brute-force.js';
import { buf, randomBuffers } from './__tests__/fixtures.js';
import { branchAndBound } from './branch-and-bound.js';
import { lowerBound } from './lower-bound.js';
import { buildTable } from './plan-common.js';
import { Prng } from './prng.js';
import { SearchState } from './search-common.js';
import { validatePlan } from './validate.js';

describe('branchAndBound', () => {
  it('finds the brute-force optimum from scratch on random sets of 6 buffers', () => {
    const rng = new Prng(7);
    for (let k = 0; k < 30; k++) {
      const buffers = randomBuffers(rng, { count: 6, steps: 5, maxLifetime: 3, unit: 16, maxUnits: 12 });
      const table = buildTable(buffers, false);
      const state = new SearchState(table, 16, lowerBound(buffers), 1e9, Infinity);
      const result = branchAndBound(state);
      expect(result.complete).toBe(true);
      expect(state.bestHead).toBe(bruteForceHead(buffers, 16));
      const plan = { offsets: Int32Array.from(state.bestOffsets), headBytes: state.bestHead };
      validatePlan(buffers, plan, { alignment: 16 });
    }
  });

  it('places around fixed (offline) buffers and reports an incomplete search when out of budget', () => {
    const buffers = [buf(0, 32, 0, 3, { offlineOffset: 32 }), buf(1, 32, 0, 1), buf(2, 48, 1, 2), buf(3, 16, 2, 3)];
    const state = new SearchState(buildTable(buffers, false), 16, 0, 1e9, Infinity);
    expect(branchAndBound(state).complete).toBe(true);
    expect(state.bestOffsets[0]).toBe(32);
    validatePlan(buffers, { offsets: Int32Array.from(state.bestOffsets), headBytes: state.bestHead }, { alignment: 16 });

    const many = randomBuffers(new Prng(3), { count: 12, steps: 6, maxLifetime: 4, unit: 16, maxUnits: 30 });
    const starved = new SearchState(buildTable(many, false), 16, 0, 50, Infinity);
    expect(branchAndBound(starved).complete).toBe(false);
  });
});
