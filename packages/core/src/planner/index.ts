export * from './memory-planner.js';
