/**
 * The conformance models ops-simd serves, under every schedule (inplace, patch, patch+inplace), with
 * ops-simd (fast) in front of ops-reference: case 0's outputs equal TFLM's. In-place schedules run
 * with a planner that really aliases every pair the allocator grants.
 */
import { describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import type { ScheduleName } from '@micrort/schedules';
import { createPlanner } from '@micrort/planners';
import { registerReferenceOps } from '@micrort/ops-reference';
import { AlwaysSharePlanner } from '@micrort/test-support/always-share';
import { SKIP_REASON, hasConformance, listModels, runCase } from '@micrort/test-support/conformance';
import { createSimdKernels } from '../src/index.js';

const resolver = () => registerReferenceOps(new OpResolver()).registerAll(createSimdKernels({ mode: 'fast' }), { fallback: true });
const SCHEDULES: ScheduleName[] = ['inplace', 'patch', 'patch+inplace'];
/** The models ops-simd serves nodes of (as test/conformance.test.ts); the audio preprocessor needs ops-signal. */
const MODELS = [
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

describe.skipIf(!hasConformance)('schedules on the conformance models (ops-simd fast)', () => {
  for (const model of MODELS) {
    it(`${model}: case 0 matches TFLM under ${SCHEDULES.join(', ')}`, () => {
      if (!listModels().includes(model)) return;
      for (const schedule of SCHEDULES) {
        // In-place schedules: every variant that may run, on buffers really shared.
        const planner = schedule === 'patch' ? createPlanner('greedy') : new AlwaysSharePlanner();
        const r = runCase(model, 0, { schedule: { name: schedule, inPlaceVariants: 'all' }, planner, resolver });
        expect({ schedule, failed: r.outputs.filter((o) => !o.pass) }).toEqual({ schedule, failed: [] });
      }
    });
  }
});

if (!hasConformance) describe.skip(SKIP_REASON, () => {});
