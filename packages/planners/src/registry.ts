/** The planner registry: every planner of this package by name. */
import type { MemoryPlanner } from '@micrort/core';
import { BestFitPlanner } from './bestfit.js';
import { UnknownPlannerError } from './errors.js';
import { GreedyPlanner } from './greedy.js';
import { LinearPlanner } from './linear.js';
import { OfflinePlanner } from './offline.js';
import { OptimalPlanner } from './optimal.js';

/** Names of the registered planners. */
export type PlannerName = 'greedy' | 'linear' | 'bestfit' | 'offline' | 'optimal';

/** Factories of the registered planners, by name. Each call returns a new instance. */
export const PLANNERS: Readonly<Record<PlannerName, () => MemoryPlanner>> = Object.freeze({
  greedy: () => new GreedyPlanner(),
  linear: () => new LinearPlanner(),
  bestfit: () => new BestFitPlanner(),
  offline: () => new OfflinePlanner(),
  optimal: () => new OptimalPlanner(),
});

/** The registered names, in a stable order. */
export const PLANNER_NAMES: readonly PlannerName[] = Object.freeze(Object.keys(PLANNERS) as PlannerName[]);

/** True when `name` is a registered planner name. */
export function isPlannerName(name: string): name is PlannerName {
  return Object.prototype.hasOwnProperty.call(PLANNERS, name);
}

/** A new planner by name; throws {@link UnknownPlannerError} listing the valid names otherwise. */
export function createPlanner(name: string): MemoryPlanner {
  if (!isPlannerName(name)) throw new UnknownPlannerError(name, PLANNER_NAMES);
  return PLANNERS[name]();
}
