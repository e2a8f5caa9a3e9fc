import { PlannerError } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { buf } from './__tests__/fixtures.js';
import { PlanOffsetError, PlanOverlapError } from './errors.js';
import { greedy } from './greedy.js';
import { offline, OfflinePlanner } from './offline.js';
import { validatePlan } from './validate.js';

const A16 = { alignment: 16 };

describe('offline planner', () => {
  it('puts offline buffers exactly at their offsets and plans the rest around them', () => {
    const buffers = [
      buf(0, 64, 0, 1),
      buf(1, 32, 0, 3, { offlineOffset: 32 }),
      buf(2, 16, 1, 2),
      buf(3, 48, 2, 3, { offlineOffset: 64 }),
      buf(4, 16, 3, 3),
    ];
    const plan = offline.plan(buffers, A16);
    expect(plan.offsets[1]).toBe(32);
    expect(plan.offsets[3]).toBe(64);
    // Greedy rule for the rest: 0 (64 B, steps 0..1) cannot sit below 32 -> after buffer 1 at 64;
    // 2 (steps 1..2) and 4 (step 3), alive at different steps, both fit in [0, 32).
    expect(Array.from(plan.offsets)).toEqual([64, 32, 0, 64, 0]);
    expect(plan.headBytes).toBe(128);
    validatePlan(buffers, plan, A16);
  });

  it('lets offline buffers with disjoint lifetimes share an offset', () => {
    const buffers = [buf(0, 64, 0, 1, { offlineOffset: 0 }), buf(1, 64, 2, 3, { offlineOffset: 0 })];
    expect(offline.plan(buffers, A16).headBytes).toBe(64);
  });

  it('rejects overlapping offline buffers, naming both with offsets, sizes and lifetimes', () => {
    const buffers = [
      buf(0, 16, 0, 9),
      buf(7, 64, 1, 4, { offlineOffset: 0, label: 'conv/out' }),
      buf(9, 32, 3, 6, { offlineOffset: 48, label: 'pool/out' }),
    ];
    let error: unknown;
    try {
      offline.plan(buffers, A16);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PlanOverlapError);
    expect(error).toBeInstanceOf(PlannerError);
    const e = error as PlanOverlapError;
    expect(e.source).toBe('offline');
    expect([e.a.index, e.b.index]).toEqual([1, 2]);
    expect([e.a.id, e.a.offset, e.a.size, e.a.firstUsed, e.a.lastUsed]).toEqual([7, 0, 64, 1, 4]);
    expect([e.b.id, e.b.offset, e.b.size, e.b.firstUsed, e.b.lastUsed]).toEqual([9, 48, 32, 3, 6]);
    expect(e.message).toContain('"conv/out"');
    expect(e.message).toContain('"pool/out"');
    expect(e.message).toContain('bytes [48, 64)');
    expect(e.message).toContain('steps 3..4');
  });

  it('rejects a misaligned offline offset', () => {
    const buffers = [buf(3, 16, 0, 1, { offlineOffset: 8 })];
    expect(() => offline.plan(buffers, A16)).toThrow(PlanOffsetError);
    expect(() => offline.plan(buffers, A16)).toThrow(/offset 8 is not a multiple of the alignment 16/);
    expect(new OfflinePlanner().plan(buffers, { alignment: 8 }).offsets[0]).toBe(8);
  });

  it('matches greedy when the offline plan is consistent, while greedy (like TFLM) trusts a broken one', () => {
    const ok = [buf(0, 32, 0, 1, { offlineOffset: 0 }), buf(1, 32, 1, 2), buf(2, 16, 2, 3, { offlineOffset: 0 })];
    expect(Array.from(offline.plan(ok, A16).offsets)).toEqual(Array.from(greedy.plan(ok, A16).offsets));
    const broken = [buf(0, 32, 0, 1, { offlineOffset: 0 }), buf(1, 32, 1, 2, { offlineOffset: 16 })];
    const trusted = greedy.plan(broken, A16);
    expect(Array.from(trusted.offsets)).toEqual([0, 16]);
    expect(() => validatePlan(broken, trusted, A16)).toThrow(PlanOverlapError);
    expect(() => offline.plan(broken, A16)).toThrow(PlanOverlapError);
  });
});
