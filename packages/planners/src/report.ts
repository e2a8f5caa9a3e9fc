/** Plan reports: how close a planner gets to the lower bound, and how long it takes. */
import type { BufferRequirement, MemoryPlan, MemoryPlanner, PlanOptions } from '@micrort/core';
import { lowerBound } from './lower-bound.js';
import { validatePlan } from './validate.js';

/** One planner's result on one buffer set. */
export interface PlanReport {
  /** The planner's name. */
  name: string;
  headBytes: number;
  lowerBoundBytes: number;
  /** headBytes / lowerBoundBytes (1 when both are 0). */
  ratio: number;
  /** Wall-clock time of `plan()` in milliseconds. */
  planMs: number;
  /** The plan itself (validated). */
  plan: MemoryPlan;
}

/** Runs `planner` on `buffers`, validates the plan and compares its head with the lower bound. */
export function planReport(buffers: readonly BufferRequirement[], planner: MemoryPlanner, options: PlanOptions): PlanReport {
  const t0 = performance.now();
  const plan = planner.plan(buffers, options);
  const planMs = performance.now() - t0;
  validatePlan(buffers, plan, options);
  const lowerBoundBytes = lowerBound(buffers);
  return {
    name: planner.name,
    headBytes: plan.headBytes,
    lowerBoundBytes,
    ratio: lowerBoundBytes > 0 ? plan.headBytes / lowerBoundBytes : 1,
    planMs,
    plan,
  };
}
