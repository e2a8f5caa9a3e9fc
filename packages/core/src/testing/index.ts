/**
 * @micrort/core/testing — the harness that tests one kernel without an interpreter (build its node's
 * tensors, run init → prepare → invoke through a real context). For tests of kernel packages.
 */
export { KernelHarness, type HarnessOptions, type HarnessTensorSpec } from './kernel-harness.js';
