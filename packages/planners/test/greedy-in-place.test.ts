/** Greedy with in-place pairs: valid plans, never a larger head than the same buffers without pairs. */
import { describe, expect, it } from 'vitest';
import type { BufferRequirement } from '@micrort/core';
import { GreedyPlanner, OfflinePlanner, Prng, lowerBound, validatePlan } from '@micrort/planners';

/** A chain of ops, each output possibly in place of its input, plus side buffers and scratch. */
function chain(rng: Prng, steps: number): BufferRequirement[] {
  const out: BufferRequirement[] = [];
  let prevSize = 0;
  for (let s = 0; s < steps; s++) {
    const size = rng.next() < 0.5 && prevSize > 0 ? prevSize : (1 + rng.int(8)) * 16;
    out.push({ kind: 'tensor', id: s, size, firstUsed: s, lastUsed: s + 1, ...(s > 0 && rng.next() < 0.6 ? { inPlaceOf: s - 1 } : {}) });
    prevSize = size;
    if (rng.next() < 0.4)
      out.push({ kind: 'tensor', id: 1000 + s, size: (1 + rng.int(6)) * 16, firstUsed: s, lastUsed: Math.min(steps, s + 1 + rng.int(4)) });
    if (rng.next() < 0.3) out.push({ kind: 'scratch', id: s, size: (1 + rng.int(4)) * 16, firstUsed: s, lastUsed: s });
  }
  return out;
}

describe('greedy with inPlaceOf', () => {
  it('is valid and never larger than without the pairs (200 random chains)', () => {
    const rng = new Prng(2024);
    const options = { alignment: 16 };
    let smaller = 0;
    for (let k = 0; k < 200; k++) {
      const buffers = chain(rng, 6 + rng.int(14));
      const withPairs = new GreedyPlanner().plan(buffers, options);
      const without = new GreedyPlanner({ inPlace: false }).plan(buffers, options);
      validatePlan(buffers, withPairs, options);
      expect(withPairs.headBytes).toBeLessThanOrEqual(without.headBytes);
      expect(withPairs.headBytes).toBeGreaterThanOrEqual(lowerBound(buffers));
      expect(new OfflinePlanner().plan(buffers, options).headBytes).toBe(withPairs.headBytes);
      if (withPairs.headBytes < without.headBytes) smaller++;
    }
    expect(smaller).toBeGreaterThan(20); // the pairs do pay off on such chains
  });
});
