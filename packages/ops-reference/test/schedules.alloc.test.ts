/**
 * "invoke() allocates nothing" under the schedules: the patch stage's runner (gathers, fills, crops,
 * scatters and the tile nodes' kernels) and the in-place variants (DEPTHWISE_CONV_2D, and the pools and
 * PAD where the chain has them) allocate no heap memory per invoke.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel } from '@micrort/core';
import { createSchedule, scheduleReport } from '@micrort/schedules';
import { measureAllocation } from '@micrort/test-support/alloc';
import { AlwaysSharePlanner } from '@micrort/test-support/always-share';
import { randomSpatialModel } from '@micrort/test-support/spatial-models';
import { registerReferenceOps } from '../src/index.js';

describe('schedules allocate nothing in invoke()', () => {
  it('patch+inplace on a chain with a residual crop and a PAD', () => {
    // A chain the search tiles (a stage with crops and fills) and whose depthwise/pool/PAD nodes run in place.
    const candidates = Array.from({ length: 200 }, (_, i) => randomSpatialModel(i + 1, 'int8', 9));
    let picked: MicroInterpreter | null = null;
    for (const m of candidates) {
      if (!m.layers.some((l) => l.includes('residual')) || !m.layers.some((l) => l.startsWith('PAD'))) continue;
      const interp = new MicroInterpreter(loadModel(m.bytes), registerReferenceOps(new OpResolver()), {
        planner: new AlwaysSharePlanner(),
        schedule: createSchedule({ name: 'patch+inplace', recomputeBudget: 1, inPlaceVariants: 'all' }),
      }).allocateTensors();
      const r = scheduleReport(interp);
      if (r.patch?.grid && r.patch.buffers.some((b) => b.crop) && (r.inPlace?.length ?? 0) > 0) {
        picked = interp;
        break;
      }
    }
    expect(picked).not.toBeNull();
    const interp = picked!;
    const m = measureAllocation(() => interp.invoke(), { warmup: 300, trials: 5, iterations: 300 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
