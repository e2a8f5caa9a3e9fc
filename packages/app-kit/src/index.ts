/**
 * @micrort/app-kit — what micrort's apps share (the CLI, the playground, the benchmarks): the kernel
 * packages they offer and the base every runtime has (composed with core's `composeRuntime()`), which
 * package served each node, the built-in models, seeded inputs (SplitMix64, as the conformance suite's)
 * and progress lines. Apps import this package; none of them imports another app.
 */
export * from './kernel-packages.js';
export * from './served.js';
export * from './macs.js';
export * from './built-in-models.js';
export { buildDemoModel } from './demo-model.js';
export { SplitMix64, fillRandom } from './inputs.js';
export * from './progress.js';
export * from './labels.js';
