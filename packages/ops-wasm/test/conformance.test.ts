/**
 * Real models through the real interpreter with `--ops wasm`'s composition: ops-reference (and the
 * signal ops) registered first, ops-wasm in front with `{ fallback: true }`, the arena in the kernels'
 * WebAssembly memory, in every variant of test/variants.ts (one thread; the threaded build on two). Every
 * case's outputs must equal TFLM's bytes (float32 within the README tolerance), and case 0's
 * intermediates too wherever ops-wasm runs a node (test-support's describeConformanceModels). Skipped
 * when ../shared/conformance is absent.
 */
import { afterAll } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { hasConformance } from '@micrort/test-support/conformance';
import { describeConformanceModels } from '@micrort/test-support/conformance-models-suite';
import { PROVIDER } from '../src/index.js';
import { VARIANTS, loadVariants } from './variants.js';

const loaded = hasConformance ? await loadVariants() : [];
afterAll(() => loaded.forEach((l) => l.wasm.dispose()));
const mobilenet = (model: string) => model.startsWith('mobilenet');

for (const { variant, wasm } of loaded.length ? loaded : [{ variant: VARIANTS[0]!, wasm: null }]) {
  describeConformanceModels({
    label: `ops-wasm (${variant.name}) in front of ops-reference`,
    provider: PROVIDER,
    resolver: () => registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(wasm!.kernels, { fallback: true }),
    ...(wasm ? { arenaBacking: wasm.arenaBacking } : {}),
    // the 224x224 MobileNet takes a while per case through the reference fallbacks: case 0 only
    cases: (model, available) => (mobilenet(model) ? 1 : available),
    fewerCases: 'slow through the reference fallbacks',
    intermediates: (model, served) =>
      mobilenet(model)
        ? 'the 224x224 MobileNet: outputs only (a no-reuse plan of every tensor is slow)'
        : served > 0 || 'no node on ops-wasm: ops-reference’s own suite compares these intermediates',
  });
}
