/**
 * ../shared/conformance-ops through the GPU delegate (gpu.js `cpu` mode, which every machine has) in
 * front of ops-reference: the delegate claims the float32 nodes it has kernels for and runs them as GPU
 * kernel chains; the rest stays on ops-reference. Every case must match TFLM (float32 within
 * 1e-5 + 1e-4·|expected|, integers byte for byte); the printed table counts the cases the delegate runs
 * and names why it leaves the others (`op not provided: falls back to ops-reference` when it has no
 * kernel for the op, otherwise the delegate's own reason, e.g. the tensor type it does not take).
 */
import { afterAll } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { describeConformanceOps, delegateHandling } from '@micrort/test-support/conformance-ops-suite';
import { GpuDelegate, PROVIDER } from '../src/index.js';

const delegate = new GpuDelegate({ mode: 'cpu' });
afterAll(() => delegate.destroy());

describeConformanceOps({
  label: 'ops-gpu delegate, gpu.js cpu mode',
  provider: PROVIDER,
  resolver: () => registerReferenceOps(new OpResolver()),
  delegates: () => [delegate],
  handling: delegateHandling(
    () => delegate.decisions(),
    (reason) => reason.startsWith('no GPU kernel for '),
  ),
});
