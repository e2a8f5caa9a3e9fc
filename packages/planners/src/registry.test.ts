import { PlannerError } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { UnknownPlannerError } from './errors.js';
import { createPlanner, isPlannerName, PLANNER_NAMES, PLANNERS } from './registry.js';

describe('planner registry', () => {
  it('lists the five planners and creates each by name', () => {
    expect([...PLANNER_NAMES]).toEqual(['greedy', 'linear', 'bestfit', 'offline', 'optimal']);
    for (const name of PLANNER_NAMES) {
      const planner = createPlanner(name);
      expect(planner.name).toBe(name);
      expect(PLANNERS[name]()).not.toBe(planner);
      expect(planner.plan([], { alignment: 16 }).headBytes).toBe(0);
    }
  });

  it('rejects unknown names with the list of valid ones', () => {
    expect(isPlannerName('greedy')).toBe(true);
    expect(isPlannerName('toString')).toBe(false);
    expect(() => createPlanner('Greedy')).toThrow(UnknownPlannerError);
    expect(() => createPlanner('toString')).toThrow(PlannerError);
    expect(() => createPlanner('best-fit')).toThrow(
      'unknown memory planner "best-fit"; valid names: greedy, linear, bestfit, offline, optimal',
    );
  });
});
