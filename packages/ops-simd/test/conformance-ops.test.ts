/**
 * ../shared/conformance-ops through ops-simd, in both execution modes: the CMSIS-NN-style kernels
 * registered with `{ fallback: true }` in front of ops-reference, as a user composes them. Every case
 * must match TFLM byte for byte (float32 within tolerance); the printed tables count the cases ops-simd
 * runs and name why it does not take the others (`op not provided: falls back to ops-reference`, or its
 * `supports()` reason). The emulated mode runs each served node instruction by instruction.
 */
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { describeConformanceOps, kernelHandling } from '@micrort/test-support/conformance-ops-suite';
import { PROVIDER, createSimdKernels, type SimdMode } from '../src/index.js';

for (const mode of ['fast', 'emulated'] as SimdMode[]) {
  const resolver = () => registerReferenceOps(new OpResolver()).registerAll(createSimdKernels({ mode }), { fallback: true });
  describeConformanceOps({ label: `ops-simd, ${mode}`, provider: PROVIDER, resolver, handling: kernelHandling(PROVIDER) });
}
