import { describe, expect, it } from 'vitest';
import { bufs } from './__tests__/fixtures.js';
import { greedy } from './greedy.js';
import { linear } from './linear.js';
import { planReport } from './report.js';

describe('planReport', () => {
  const buffers = bufs([
    [10, 0, 1],
    [20, 1, 2],
    [30, 2, 3],
    [40, 3, 4],
    [50, 0, 1],
  ]);

  it('reports head, lower bound, their ratio and the planning time', () => {
    const report = planReport(buffers, greedy, { alignment: 1 });
    expect(report.name).toBe('greedy');
    expect(report.headBytes).toBe(90);
    expect(report.lowerBoundBytes).toBe(80);
    expect(report.ratio).toBeCloseTo(90 / 80, 12);
    expect(report.planMs).toBeGreaterThanOrEqual(0);
    expect(report.plan.offsets.length).toBe(5);
    expect(planReport(buffers, linear, { alignment: 1 }).ratio).toBeCloseTo(150 / 80, 12);
  });

  it('has ratio 1 for no buffers', () => {
    expect(planReport([], greedy, { alignment: 16 })).toMatchObject({ headBytes: 0, lowerBoundBytes: 0, ratio: 1 });
  });
});
