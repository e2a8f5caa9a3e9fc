import { describe, expect, it, vi } from 'vitest';
import { buf, bufs, randomBuffers } from './__tests__/fixtures.js';
import { PlanOverlapError } from './errors.js';
import { greedy } from './greedy.js';
import { lowerBound } from './lower-bound.js';
import { OptimalPlanner, WORK_UNITS_PER_MS } from './optimal.js';
import { Prng } from './prng.js';
import { validatePlan } from './validate.js';
import { bruteForceHead, exhaustiveHead } from './__tests__/brute-force.js';

describe('optimal planner', () => {
  it('beats greedy where TFLM is suboptimal: chain 5, 3, 2, 4 -> 8 (greedy 10)', () => {
    const buffers = bufs([
      [5, 0, 1],
      [3, 1, 2],
      [2, 2, 3],
      [4, 3, 4],
    ]);
    expect(greedy.plan(buffers, { alignment: 1 }).headBytes).toBe(10);
    const planner = new OptimalPlanner();
    const plan = planner.plan(buffers, { alignment: 1, timeBudgetMs: 50 });
    expect(plan.headBytes).toBe(8);
    expect(lowerBound(buffers)).toBe(8);
    expect(planner.lastSearch?.provenOptimal).toBe(true);
    validatePlan(buffers, plan, { alignment: 1 });
  });

  it('exact search equals brute force over all orders on small random sets', () => {
    const rng = new Prng(2024);
    for (let k = 0; k < 30; k++) {
      const buffers = randomBuffers(rng, { count: 6, steps: 4, maxLifetime: 2, unit: 16, maxUnits: 9, scratchRate: 0.1 });
      const planner = new OptimalPlanner();
      const plan = planner.plan(buffers, { alignment: 16, timeBudgetMs: 50 });
      validatePlan(buffers, plan, { alignment: 16 });
      expect(plan.headBytes).toBe(bruteForceHead(buffers, 16));
      expect(planner.lastSearch?.provenOptimal).toBe(true);
    }
  });

  it('proves optima above the lower bound when an offline buffer fragments the arena', () => {
    const rng = new Prng(11);
    let provedAboveBound = 0;
    for (let k = 0; k < 20; k++) {
      const buffers = randomBuffers(rng, { count: 5, steps: 4, maxLifetime: 2, unit: 16, maxUnits: 6, scratchRate: 0 });
      buffers.push(buf(99, 16, 0, 3, { offlineOffset: 16 * (1 + rng.int(4)) }));
      const planner = new OptimalPlanner();
      const plan = planner.plan(buffers, { alignment: 16, timeBudgetMs: 50 });
      validatePlan(buffers, plan, { alignment: 16 });
      expect(plan.headBytes).toBe(bruteForceHead(buffers, 16));
      expect(planner.lastSearch?.provenOptimal).toBe(true);
      if (plan.headBytes > lowerBound(buffers) && planner.lastSearch!.exactNodes > 0) provedAboveBound++;
    }
    expect(provedAboveBound).toBeGreaterThan(0);
  });

  it('the order-search reference agrees with exhaustive offset enumeration', () => {
    const rng = new Prng(5);
    for (let k = 0; k < 12; k++) {
      const buffers = randomBuffers(rng, { count: 4, steps: 3, maxLifetime: 2, unit: 16, maxUnits: 4, scratchRate: 0 });
      if (k % 2 === 0) buffers.push(buf(50, 16, 0, 2, { offlineOffset: 16 }));
      expect(bruteForceHead(buffers, 16)).toBe(exhaustiveHead(buffers, 16));
    }
  });

  it('local search is deterministic, valid, and between the lower bound and greedy', () => {
    const buffers = randomBuffers(new Prng(99), { count: 60, steps: 20, maxLifetime: 10, unit: 16, maxUnits: 40 });
    const options = { alignment: 16, timeBudgetMs: 15 };
    // Without the wall-clock guard the search is bounded by work units only, so it is reproducible on a
    // loaded machine too (with the guard, a slow run may stop earlier: stoppedByDeadline says so).
    const a = new OptimalPlanner({ exactLimit: 0, wallClockGuard: false });
    const planA = a.plan(buffers, options);
    const planB = new OptimalPlanner({ exactLimit: 0, wallClockGuard: false }).plan(buffers, options);
    expect(Array.from(planA.offsets)).toEqual(Array.from(planB.offsets));
    validatePlan(buffers, planA, options);
    expect(planA.headBytes).toBeLessThan(greedy.plan(buffers, options).headBytes);
    expect(planA.headBytes).toBeGreaterThanOrEqual(lowerBound(buffers));
    expect(a.lastSearch!.source).toBe('local-search');
    expect(a.lastSearch!.localSearchMoves).toBeGreaterThan(0);
    expect(a.lastSearch!.stoppedByDeadline).toBe(false);
  });

  it('the wall-clock guard stops a search that runs past its deadline, and says so', () => {
    const buffers = randomBuffers(new Prng(99), { count: 60, steps: 20, maxLifetime: 10, unit: 16, maxUnits: 40 });
    // A clock that jumps 1 s per reading: the first deadline check is past 4 x 15 + 100 ms.
    const realNow = performance.now.bind(performance);
    let fake = realNow();
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => (fake += 1000));
    try {
      const p = new OptimalPlanner({ exactLimit: 0 });
      const plan = p.plan(buffers, { alignment: 16, timeBudgetMs: 15 });
      validatePlan(buffers, plan, { alignment: 16 });
      expect(p.lastSearch!.stoppedByDeadline).toBe(true);
      expect(p.lastSearch!.workUnits).toBeLessThan(15 * WORK_UNITS_PER_MS);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps offline buffers at their offsets', () => {
    const buffers = [buf(0, 64, 0, 2, { offlineOffset: 64 }), buf(1, 64, 1, 3), buf(2, 32, 0, 0), buf(3, 48, 3, 4)];
    const plan = new OptimalPlanner().plan(buffers, { alignment: 16, timeBudgetMs: 20 });
    expect(plan.offsets[0]).toBe(64);
    validatePlan(buffers, plan, { alignment: 16 });
    expect(plan.headBytes).toBeLessThanOrEqual(greedy.plan(buffers, { alignment: 16 }).headBytes);
  });

  it('rejects overlapping offline buffers', () => {
    const buffers = [buf(0, 64, 0, 2, { offlineOffset: 0 }), buf(1, 64, 1, 3, { offlineOffset: 32 })];
    expect(() => new OptimalPlanner().plan(buffers, { alignment: 16 })).toThrow(PlanOverlapError);
  });

  it('with a zero budget still returns a valid plan no worse than greedy', () => {
    const buffers = randomBuffers(new Prng(5), { count: 40, steps: 15, maxLifetime: 6, unit: 16, maxUnits: 20 });
    const plan = new OptimalPlanner().plan(buffers, { alignment: 16, timeBudgetMs: 0 });
    validatePlan(buffers, plan, { alignment: 16 });
    expect(plan.headBytes).toBeLessThanOrEqual(greedy.plan(buffers, { alignment: 16 }).headBytes);
  });
});
