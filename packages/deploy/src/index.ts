/**
 * @micrort/deploy — what a TFLM build of a model needs: the exact arena size (kTensorArenaSize) and the
 * arena_used_bytes() TFLM will report, for 64-bit hosts and 32-bit MCUs; the MicroMutableOpResolver
 * header; optionally the model with an offline memory plan. No Node APIs: usable from the CLI and from a
 * browser.
 */
export * from './abi.js';
export * from './tflm/structs.js';
export * from './tflm/node-view.js';
export * from './tflm/kernel-model.js';
export * from './tflm/kernels.js';
export * from './tflm/arena-model.js';
export * from './stand-ins.js';
export * from './micrort-plan.js';
export * from './tflm-plan.js';
export * from './resolver-header.js';
export * from './refusals.js';
export * from './deploy.js';
export * from './summary.js';
