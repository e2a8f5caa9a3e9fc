/**
 * Real models through the real interpreter: ops-reference registered first, ops-simd in front of it with
 * `{ fallback: true }`, in both execution modes (test-support's describeConformanceModels): every case's
 * outputs and case 0's intermediates must equal TFLM's bytes. The emulated mode runs each served node
 * instruction by instruction, so it takes case 0 of the smaller models, and estimates their cycles.
 * Skipped when ../shared/conformance is absent.
 */
import { describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { SKIP_REASON, hasConformance, listModels, makeInterpreter, setCaseInputs } from '@micrort/test-support/conformance';
import { describeConformanceModels } from '@micrort/test-support/conformance-models-suite';
import { PROVIDER, SimdCounters, createSimdKernels, estimateCycles, type SimdMode } from '../src/index.js';

function simdResolver(mode: SimdMode, counters?: SimdCounters): () => OpResolver {
  return () => registerReferenceOps(new OpResolver()).registerAll(createSimdKernels({ mode, counters }), { fallback: true });
}

/** Models with nodes ops-simd serves (int8 CONV/DW/FC/POOL/SOFTMAX/ADD/MUL). */
const FAST_MODELS = [
  'hello_world_int8',
  'micro_speech_quantized',
  'person_detect',
  'simple_add_model',
  'trained_lstm_int8',
  'micro_speech_lstm',
  'keyword_scrambled_8bit',
  'dtln_noise_suppression',
  'mobilenet_v2_quantized_1x3x224x224',
];
/** Small enough to run instruction by instruction. */
const EMULATED_MODELS = [
  'hello_world_int8',
  'micro_speech_quantized',
  'simple_add_model',
  'trained_lstm_int8',
  'keyword_scrambled_8bit',
  'person_detect',
];
const mobilenet = (model: string) => model.startsWith('mobilenet');

describeConformanceModels({
  label: 'ops-simd, fast',
  provider: PROVIDER,
  resolver: simdResolver('fast'),
  models: FAST_MODELS,
  requireServed: true,
  // the 224x224 MobileNet takes seconds per case: case 0 only, outputs only
  cases: (model, available) => (mobilenet(model) ? 1 : available),
  fewerCases: 'seconds per case',
  intermediates: (model) => !mobilenet(model) || 'the 224x224 MobileNet: outputs only',
});

describeConformanceModels({
  label: 'ops-simd, emulated',
  provider: PROVIDER,
  resolver: simdResolver('emulated'),
  models: EMULATED_MODELS,
  requireServed: true,
  cases: () => 1,
  fewerCases: 'instruction by instruction: case 0',
});

describe.skipIf(!hasConformance)('ops-simd emulated: cycle estimates of the conformance models', () => {
  for (const name of EMULATED_MODELS) {
    it(`${name}: every served node counted, M4 slower than M7`, () => {
      if (!listModels().includes(name)) return;
      const counters = new SimdCounters();
      const interp = makeInterpreter(name, { resolver: simdResolver('emulated', counters) });
      setCaseInputs(interp, name, 0);
      interp.invoke();
      const served = interp.nodes().filter((n) => n.provider === PROVIDER);
      expect(counters.nodes.map((n) => n.nodeIndex).sort()).toEqual(served.map((n) => n.index).sort());
      const m4 = estimateCycles(counters, { core: 'm4', waitStates: 1 });
      const m7 = estimateCycles(counters, { core: 'm7' });
      expect(m4.cyclesPerInvoke).toBeGreaterThan(m7.cyclesPerInvoke);
      expect(m4.nodes.every((n) => n.invocations === 1 && n.cycles > 0)).toBe(true);
    });
  }
  if (!hasConformance) it.skip(SKIP_REASON, () => {});
});
