export * from './micro-interpreter.js';
export * from './micro-context.js';
export * from './arena-usage.js';
export * from './check-report.js';
export * from './check.js';
export * from './profiler.js';
export type { PartitionInfo, TensorOwner } from './delegate-subsets.js';
export type { Schedule, ScheduleRun, SchedulePlan, ScheduleStep, ScheduleNodeSpec, ScheduleTensorSpec } from './schedule-hook.js';
