/**
 * Every conformance model under every schedule (inplace, patch, patch+inplace) with the reference
 * kernels: case 0's outputs equal TFLM's (integers byte for byte, float32 within tolerance). In-place
 * schedules run with a planner that really aliases every pair the allocator grants. On MobileNetV2 and
 * person detection the best schedule's head is at most half the normal schedule's lower bound.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter } from '@micrort/core';
import { createSchedule, type ScheduleName } from '@micrort/schedules';
import { createPlanner, lowerBound } from '@micrort/planners';
import { AlwaysSharePlanner } from '@micrort/test-support/always-share';
import {
  SKIP_REASON,
  hasConformance,
  listModels,
  loadConformanceModel,
  referenceResolver,
  runCase,
} from '@micrort/test-support/conformance';

const SCHEDULES: ScheduleName[] = ['inplace', 'patch', 'patch+inplace'];

describe.skipIf(!hasConformance)('schedules on the conformance models (ops-reference)', () => {
  for (const model of listModels()) {
    it(`${model}: case 0 matches TFLM under ${SCHEDULES.join(', ')}`, () => {
      for (const schedule of SCHEDULES) {
        // In-place schedules: every variant that may run, on buffers really shared.
        const planner = schedule === 'patch' ? createPlanner('greedy') : new AlwaysSharePlanner();
        const r = runCase(model, 0, { schedule: { name: schedule, inPlaceVariants: 'all' }, planner });
        expect({ schedule, failed: r.outputs.filter((o) => !o.pass) }).toEqual({ schedule, failed: [] });
      }
    });
  }

  for (const model of ['mobilenet_v2_quantized_1x3x224x224', 'person_detect']) {
    it(`${model}: the best schedule's head is at most half the normal schedule's lower bound`, () => {
      if (!listModels().includes(model)) return;
      const head = (schedule: ScheduleName) =>
        new MicroInterpreter(loadConformanceModel(model), referenceResolver(), {
          planner: createPlanner('greedy'),
          schedule: createSchedule(schedule),
        }).allocateTensors();
      const normal = head('normal');
      const bound = lowerBound(normal.memoryPlan().requirements);
      const best = Math.min(...SCHEDULES.map((s) => head(s).arenaUsage().headBytes));
      expect(best).toBeLessThanOrEqual(0.5 * bound);
    });
  }
});

if (!hasConformance) describe.skip(SKIP_REASON, () => {});
