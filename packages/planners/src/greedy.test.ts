import { PlannerError } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { buf, bufs, PERSON_DETECTION } from './__tests__/fixtures.js';
import { InvalidRequirementError } from './errors.js';
import { greedy, greedyOrder, GreedyPlanner } from './greedy.js';
import { buildTable } from './plan-common.js';
import { validatePlan } from './validate.js';

const A1 = { alignment: 1 };

describe('greedy (TFLM GreedyMemoryPlanner)', () => {
  it('TestGreedyBasics: disjoint lifetimes share offset 0', () => {
    const plan = greedy.plan(
      bufs([
        [10, 0, 1],
        [20, 2, 3],
      ]),
      A1,
    );
    expect(Array.from(plan.offsets)).toEqual([0, 0]);
    expect(plan.headBytes).toBe(20);
  });

  it('TestGreedyMedium: offsets 50, 70, 40, 0, 0 and head 90', () => {
    const buffers = bufs([
      [10, 0, 1],
      [20, 1, 2],
      [30, 2, 3],
      [40, 3, 4],
      [50, 0, 1],
    ]);
    const plan = greedy.plan(buffers, A1);
    expect(Array.from(plan.offsets)).toEqual([50, 70, 40, 0, 0]);
    expect(plan.headBytes).toBe(90);
    validatePlan(buffers, plan, A1);
  });

  it('TestOverlapCase: head 120', () => {
    const buffers = bufs([
      [100, 0, 1],
      [50, 2, 3],
      [20, 1, 2],
    ]);
    const plan = greedy.plan(buffers, A1);
    expect(plan.headBytes).toBe(120);
    validatePlan(buffers, plan, A1);
  });

  it('TestPersonDetectionModel: valid and well below the 241027-byte sum', () => {
    const buffers = bufs(PERSON_DETECTION);
    const plan = greedy.plan(buffers, A1);
    validatePlan(buffers, plan, A1);
    expect(plan.headBytes).toBeLessThan(241027);
    // The two largest neighbours (36864 at steps 2..3, 18432 at 1..2 and 4..5) bound it from below.
    expect(plan.headBytes).toBeGreaterThanOrEqual(36864 + 18432);
  });

  it('seed 000 worked example: A 100 [0,1], B 80 [2,3], C 50 [1,2] -> 0, 0, 100, head 150', () => {
    const plan = greedy.plan(
      bufs([
        [100, 0, 1],
        [80, 2, 3],
        [50, 1, 2],
      ]),
      A1,
    );
    expect(Array.from(plan.offsets)).toEqual([0, 0, 100]);
    expect(plan.headBytes).toBe(150);
  });

  it('orders equal sizes latest request first, as TFLM (reverse fill + stable sort)', () => {
    const buffers = bufs([
      [32, 0, 1],
      [32, 1, 2],
      [64, 0, 2],
      [32, 2, 3],
    ]);
    expect(Array.from(greedyOrder(buildTable(buffers, true)))).toEqual([2, 3, 1, 0]);
    const plan = greedy.plan(buffers, A1);
    // 2 -> 0; 3 overlaps 2 -> 64; 1 overlaps 2 and 3 -> 96; 0 overlaps 2 and 1 -> 64.
    expect(Array.from(plan.offsets)).toEqual([64, 96, 0, 64]);
  });

  it('takes offline buffers first, in request order, at their offsets, and fills the gaps around them', () => {
    const buffers = [buf(0, 80, 0, 1), buf(1, 50, 0, 2, { offlineOffset: 100 }), buf(2, 40, 1, 2), buf(3, 8, 0, 0, { offlineOffset: 0 })];
    expect(Array.from(greedyOrder(buildTable(buffers, true)))).toEqual([1, 3, 0, 2]);
    const plan = greedy.plan(buffers, A1);
    // 0 (80, steps 0..1) must clear buffer 3 at [0, 8) -> 8; 2 (steps 1..2) clears 0 -> 88, too small
    // a gap before buffer 1 at 100 -> 150.
    expect(Array.from(plan.offsets)).toEqual([8, 100, 150, 0]);
    expect(plan.headBytes).toBe(190);
  });

  it('keeps candidates aligned when sizes are not multiples of the alignment', () => {
    const plan = greedy.plan(
      bufs([
        [10, 0, 1],
        [20, 0, 1],
      ]),
      { alignment: 16 },
    );
    expect(Array.from(plan.offsets)).toEqual([32, 0]);
    expect(plan.headBytes).toBe(42);
  });

  it('plans nothing for no buffers', () => {
    const plan = greedy.plan([], { alignment: 16 });
    expect(plan.offsets.length).toBe(0);
    expect(plan.headBytes).toBe(0);
  });

  it('is deterministic and independent of instance', () => {
    const buffers = bufs(PERSON_DETECTION);
    expect(Array.from(new GreedyPlanner().plan(buffers, A1).offsets)).toEqual(Array.from(greedy.plan(buffers, A1).offsets));
  });

  it('rejects bad requirements and options with typed errors', () => {
    expect(() => greedy.plan([buf(0, -1, 0, 0)], A1)).toThrow(InvalidRequirementError);
    expect(() => greedy.plan([buf(0, 16, 3, 2)], A1)).toThrow(/lastUsed = 2 is before firstUsed 3/);
    expect(() => greedy.plan([buf(0, 1.5, 0, 0)], A1)).toThrow(PlannerError);
    expect(() => greedy.plan([buf(0, 16, 0, 0)], { alignment: 0 })).toThrow(/alignment = 0/);
  });
});
