/**
 * `micrort plan --planner all --json` on every conformance model, against TFLM's own figures: greedy is
 * TFLM's planner, so its head must not exceed TFLM's `head_bytes`; optimal must reach the lower bound.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, SKIP_REASON, hasConformance, listModels, tflmFigures } from '@micrort/test-support/conformance';
import { main } from '../main.js';
import type { PlanRow, ScheduleRow } from './plan.js';

async function planJson(name: string, extra: string[] = []) {
  const log: string[] = [];
  const err: string[] = [];
  const code = await main(['plan', join(CONFORMANCE_DIR!, name, 'model.tflite'), '--planner', 'all', '--json', ...extra], {
    log: (l) => log.push(l),
    err: (l) => err.push(l),
  });
  expect(err, err.join('\n')).toEqual([]);
  expect(code).toBe(0);
  return JSON.parse(log[0]!) as {
    planners: PlanRow[];
    lowerBoundBytes: number;
    tailBytes: number;
    standIns?: { node: number; op: string }[];
  };
}

describe.skipIf(!hasConformance)('micrort plan --schedule all on MobileNetV2 and person detection', () => {
  it.each(['mobilenet_v2_quantized_1x3x224x224', 'person_detect'])(
    "%s: the best schedule needs at most half the normal lower bound, reported beside TFLM's head",
    async (name) => {
      const r = (await planJson(name, ['--schedule', 'all'])) as unknown as {
        schedules: ScheduleRow[];
        normalLowerBoundBytes: number;
        tflmHeadBytes: number;
      };
      expect(r.tflmHeadBytes).toBe(tflmFigures(name)!.head_bytes);
      const best = Math.min(...r.schedules.map((s) => s.headBytes));
      expect(best).toBeLessThanOrEqual(0.5 * r.normalLowerBoundBytes);
      const patch = r.schedules.find((s) => s.name === 'patch')!;
      expect(patch.extraMacs / patch.modelMacs).toBeLessThanOrEqual(0.2);
    },
  );
});

describe.skipIf(!hasConformance)('micrort plan on the conformance models', () => {
  it.each(hasConformance ? listModels() : [])('%s: greedy <= TFLM head, optimal = lower bound', async (name) => {
    const r = await planJson(name);
    const row = (n: string) => r.planners.find((p) => p.name === n)!;
    const tflm = tflmFigures(name)!;
    expect(row('greedy').headBytes).toBeLessThanOrEqual(tflm.head_bytes);
    expect(row('optimal').headBytes).toBe(r.lowerBoundBytes);
    for (const p of r.planners) expect(p.headBytes).toBeGreaterThanOrEqual(r.lowerBoundBytes);
    // Stand-ins only for ops without a kernel (the signal library's custom ops).
    for (const s of r.standIns ?? []) expect(s.op).toMatch(/^CUSTOM:Signal/);
  });
});

if (!hasConformance) {
  describe('micrort plan on the conformance models', () => {
    it.skip(SKIP_REASON, () => {});
  });
}
