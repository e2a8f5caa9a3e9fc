/**
 * Real models through the real interpreter with `--ops wasm`'s composition: ops-reference (and the
 * signal ops) registered first, ops-wasm in front with `{ fallback: true }`, the arena in the kernels'
 * WebAssembly memory. Every case's outputs must equal TFLM's bytes (float32 within the README
 * tolerance), and case 0's intermediates too wherever ops-wasm runs a node (test-support's
 * describeConformanceModels). Skipped when ../shared/conformance is absent.
 */
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { describeConformanceModels } from '@micrort/test-support/conformance-models-suite';
import { PROVIDER, loadWasmKernelsSync } from '../src/index.js';

const wasm = loadWasmKernelsSync();
const mobilenet = (model: string) => model.startsWith('mobilenet');

describeConformanceModels({
  label: 'ops-wasm in front of ops-reference',
  provider: PROVIDER,
  resolver: () => registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(wasm.kernels, { fallback: true }),
  arenaBacking: wasm.arenaBacking,
  // the 224x224 MobileNet takes a while per case through the reference fallbacks: case 0 only
  cases: (model, available) => (mobilenet(model) ? 1 : available),
  fewerCases: 'slow through the reference fallbacks',
  intermediates: (model, served) =>
    mobilenet(model)
      ? 'the 224x224 MobileNet: outputs only (a no-reuse plan of every tensor is slow)'
      : served > 0 || 'no node on ops-wasm: ops-reference’s own suite compares these intermediates',
});
