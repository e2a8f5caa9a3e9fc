/**
 * @micrort/planners — memory planners behind core's `MemoryPlanner` interface: TFLM's greedy and linear
 * planners, TFLite's best-fit arena, offline plans, a search for the smallest head, the lower bound, plan
 * validation, reports and SVG pictures.
 */
export * from './errors.js';
export { alignUp, buildAliasTable, MAX_PLAN_BYTES } from './plan-common.js';
export { GreedyPlanner, greedy, greedyOrder, type GreedyPlannerOptions } from './greedy.js';
export { LinearPlanner, linear } from './linear.js';
export { BestFitPlanner, bestfit, bestFitOrder } from './bestfit.js';
export { OfflinePlanner, offline, checkOfflineOffsets } from './offline.js';
export {
  OptimalPlanner,
  optimal,
  DEFAULT_TIME_BUDGET_MS,
  WORK_UNITS_PER_MS,
  type OptimalPlannerOptions,
  type OptimalSearchInfo,
} from './optimal.js';
export { lowerBound, lowerBoundAt, type LowerBoundInfo } from './lower-bound.js';
export { validatePlan, findOverlap, DEFAULT_ALIGNMENT } from './validate.js';
export { planReport, type PlanReport } from './report.js';
export { renderPlanSvg, type PlanSvgOptions } from './render-svg.js';
export { PLANNERS, PLANNER_NAMES, createPlanner, isPlannerName, type PlannerName } from './registry.js';
export { Prng } from './prng.js';
export { OFFLINE_PLAN_FORMAT_VERSION, offlinePlanBytes, offlinePlanOffsets, withOfflinePlan } from './embed-plan.js';
