/**
 * @micrort/core — model loading, the TfLiteContext callback table, arena allocators, the interpreter,
 * the op-resolver registry and the planner/delegate interfaces. Imports no plugin package.
 */
export * from './types.js';
export * from './builtin-ops.js';
export * from './options.js';
export * from './errors.js';
export * from './kernel/index.js';
export * from './quant/index.js';
export * from './model/index.js';
export * from './planner/index.js';
export * from './testing/index.js';
export * from './resolver/index.js';
export * from './arena/single-arena-buffer-allocator.js';
export * from './arena/micro-allocator.js';
export * from './arena/lifetimes.js';
export * from './delegate/index.js';
export * from './interpreter/index.js';
export * from './graph/index.js';
export * from './di/index.js';
export * from './arena/in-place.js';
