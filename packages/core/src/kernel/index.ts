export * from './api.js';
export * from './arena-region.js';
export * from './tensor.js';
export * from './kernel-util.js';
