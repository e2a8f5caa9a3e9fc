export * from './memory-planner.js';
export * from './validate-plan.js';
