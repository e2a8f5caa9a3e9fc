import { describe, expect, it } from 'vitest';
import { buf, bufs, PERSON_DETECTION } from './__tests__/fixtures.js';
import { linear } from './linear.js';
import { validatePlan } from './validate.js';

describe('linear (TFLM LinearMemoryPlanner)', () => {
  it('TestBasics: offsets accumulate in request order', () => {
    const plan = linear.plan(
      bufs([
        [10, 0, 1],
        [20, 1, 2],
      ]),
      { alignment: 1 },
    );
    expect(Array.from(plan.offsets)).toEqual([0, 10]);
    expect(plan.headBytes).toBe(30);
  });

  it('TestPersonDetectionModel: head is the 241027-byte sum', () => {
    const buffers = bufs(PERSON_DETECTION);
    const plan = linear.plan(buffers, { alignment: 1 });
    expect(plan.headBytes).toBe(241027);
    validatePlan(buffers, plan, { alignment: 1 });
  });

  it('never reuses memory, even for disjoint lifetimes, and ignores offline offsets as TFLM does', () => {
    const plan = linear.plan([buf(0, 32, 0, 0), buf(1, 16, 5, 5, { offlineOffset: 0 }), buf(2, 48, 9, 9)], { alignment: 16 });
    expect(Array.from(plan.offsets)).toEqual([0, 32, 48]);
    expect(plan.headBytes).toBe(96);
  });

  it('aligns each offset', () => {
    const plan = linear.plan(
      bufs([
        [10, 0, 0],
        [20, 0, 0],
        [1, 0, 0],
      ]),
      { alignment: 16 },
    );
    expect(Array.from(plan.offsets)).toEqual([0, 16, 48]);
    expect(plan.headBytes).toBe(49);
  });
});
