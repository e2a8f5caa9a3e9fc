/**
 * Real models through the real interpreter: ops-reference registered first, ops-simd in front of it with
 * `{ fallback: true }`. Every case's outputs (and, for the emulated runs, every intermediate tensor of
 * case 0) must equal TFLM's bytes. Skipped when ../shared/conformance is absent.
 */
import { describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import {
  SKIP_REASON,
  firstDifferingIntermediate,
  hasConformance,
  listModels,
  makeInterpreter,
  readManifest,
  runCase,
  setCaseInputs,
} from '@micrort/test-support/conformance';
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

describe.skipIf(!hasConformance)('conformance: ops-simd in front of ops-reference', () => {
  for (const name of FAST_MODELS) {
    it(`${name}: every case matches TFLM [fast]`, () => {
      if (!listModels().includes(name)) return;
      const interp = makeInterpreter(name, { resolver: simdResolver('fast') });
      expect(interp.nodes().filter((n) => n.provider === PROVIDER).length).toBeGreaterThan(0);
      // the 224x224 MobileNet takes seconds per case: case 0 only
      const cases = name.startsWith('mobilenet') ? 1 : readManifest(name).cases.length;
      for (let c = 0; c < cases; c++) {
        const r = runCase(name, c, { resolver: simdResolver('fast') });
        expect({ name, c, failed: r.outputs.filter((o) => !o.pass) }).toEqual({ name, c, failed: [] });
      }
    });
  }

  for (const name of EMULATED_MODELS) {
    it(`${name}: case 0 outputs and intermediates match TFLM, cycles estimated [emulated]`, () => {
      if (!listModels().includes(name)) return;
      expect(firstDifferingIntermediate(name, { resolver: simdResolver('emulated') })).toBeNull();
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
