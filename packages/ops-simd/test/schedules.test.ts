/**
 * Schedules with ops-simd in front of ops-reference on random int8 chains of spatial operators (see
 * packages/test-support/src/spatial-models.ts): patch stages run ops-simd's kernels on tile buffers, and its in-place
 * DEPTHWISE_CONV_2D runs on really aliased buffers; the bytes are the normal schedule's.
 */
import { describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { scheduleReport } from '@micrort/schedules';
import { AlwaysSharePlanner } from '@micrort/test-support/always-share';
import { checkFixedStages, checkSearchedSchedules, runSpatialModel } from '@micrort/test-support/schedule-checks';
import { randomSpatialModel } from '@micrort/test-support/spatial-models';
import { PROVIDER, createSimdKernels } from '../src/index.js';

const resolver = () => registerReferenceOps(new OpResolver()).registerAll(createSimdKernels({ mode: 'fast' }), { fallback: true });

describe('schedules on random spatial chains (ops-simd fast)', () => {
  it("int8: fixed patch stages with random tile grids give the normal schedule's bytes", () => {
    expect(checkFixedStages(resolver, 'int8', 40, 7)).toBeGreaterThan(20);
  });
  it('int8: searched patch, inplace and patch+inplace schedules (every in-place pair aliased) give the normal bytes', () => {
    const { granted, patched } = checkSearchedSchedules(resolver, 'int8', 25, 7);
    expect(granted).toBeGreaterThan(10);
    expect(patched).toBeGreaterThan(5);
  });
  it('its DEPTHWISE_CONV_2D runs the in-place variant in fast mode and declines it in emulated mode', () => {
    // A depthwise layer (depth multiplier 1) between two others: its input is not the graph input, its
    // output not the graph output, so the allocator may grant the variant.
    const m = Array.from({ length: 80 }, (_, i) => randomSpatialModel(i + 1, 'int8')).find(
      (x) => x.layers.length > 2 && x.layers[1]!.startsWith('DEPTHWISE_CONV_2D m1'),
    )!;
    const node = m.cuts[0]! + 1;
    for (const mode of ['fast', 'emulated'] as const) {
      const r = () => registerReferenceOps(new OpResolver()).registerAll(createSimdKernels({ mode }), { fallback: true });
      const { interp, out } = runSpatialModel(m, r, { name: 'inplace', inPlaceVariants: 'all' }, new AlwaysSharePlanner());
      const simdNodes = new Set(
        interp
          .nodes()
          .filter((n) => n.provider === PROVIDER && n.op === 'DEPTHWISE_CONV_2D')
          .map((n) => n.index),
      );
      const granted = scheduleReport(interp).inPlace!.filter((g) => simdNodes.has(g.node));
      expect(simdNodes.has(node)).toBe(true);
      if (mode === 'fast') expect(granted.map((g) => g.node)).toContain(node);
      else expect(granted).toEqual([]);
      expect(Array.from(out)).toEqual(Array.from(runSpatialModel(m, r, 'normal').out));
    }
  });
});
