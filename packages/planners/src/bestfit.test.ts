import { describe, expect, it } from 'vitest';
import { buf, bufs } from './__tests__/fixtures.js';
import { bestfit, bestFitOrder } from './bestfit.js';
import { greedy } from './greedy.js';
import { buildTable } from './plan-common.js';
import { validatePlan } from './validate.js';

const A1 = { alignment: 1 };

describe('bestfit (TFLite ArenaPlanner + SimpleMemoryArena)', () => {
  it('puts whole-run buffers first, by index, then the rest by size', () => {
    const buffers = bufs([
      [16, 0, 4],
      [100, 1, 2],
      [16, 0, 4],
    ]);
    expect(Array.from(bestFitOrder(buildTable(buffers, false)))).toEqual([0, 2, 1]);
    expect(Array.from(bestfit.plan(buffers, A1).offsets)).toEqual([0, 32, 16]);
    // TFLM's greedy takes the largest first instead.
    expect(Array.from(greedy.plan(buffers, A1).offsets)).toEqual([116, 0, 100]);
  });

  it('breaks size ties by first use (greedy: by latest request)', () => {
    const buffers = bufs([
      [50, 1, 2],
      [50, 2, 3],
      [10, 0, 0],
    ]);
    expect(Array.from(bestfit.plan(buffers, A1).offsets)).toEqual([0, 50, 0]);
    expect(Array.from(greedy.plan(buffers, A1).offsets)).toEqual([50, 0, 0]);
  });

  it('takes the smallest fitting gap, where greedy takes the first', () => {
    const fixed = { first: 0, last: 5 };
    const buffers = [
      buf(0, 40, fixed.first, fixed.last, { offlineOffset: 0 }),
      buf(1, 20, fixed.first, fixed.last, { offlineOffset: 100 }),
      buf(2, 10, fixed.first, fixed.last, { offlineOffset: 150 }),
      buf(3, 25, 1, 2),
    ];
    // Gaps: [40, 100) of 60 bytes and [120, 150) of 30 bytes.
    expect(bestfit.plan(buffers, A1).offsets[3]).toBe(120);
    expect(greedy.plan(buffers, A1).offsets[3]).toBe(40);
  });

  it('aligns the running offset before fitting a gap', () => {
    // Placed (alive throughout): [0, 10) and [64, 80); aligned candidate 16 fits 32 bytes before 64.
    const buffers = [buf(0, 10, 0, 3, { offlineOffset: 0 }), buf(1, 16, 0, 3, { offlineOffset: 64 }), buf(2, 32, 1, 2)];
    const plan = bestfit.plan(buffers, { alignment: 16 });
    expect(plan.offsets[2]).toBe(16);
    validatePlan(buffers, plan, { alignment: 16 });
  });

  it('gives empty buffers offset 0 and leaves them out of the arena', () => {
    const plan = bestfit.plan(
      bufs([
        [0, 0, 3],
        [32, 0, 3],
        [16, 1, 1],
      ]),
      { alignment: 16 },
    );
    expect(Array.from(plan.offsets)).toEqual([0, 0, 32]);
    expect(plan.headBytes).toBe(48);
  });
});
