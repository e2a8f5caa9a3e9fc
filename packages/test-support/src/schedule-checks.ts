/**
 * Checks shared by the kernel packages' schedule tests: random spatial chains (spatial-models.ts) run
 * under the normal schedule and under fixed patch stages, searched patch stages and in-place variants
 * (every in-place pair really aliased by AlwaysSharePlanner); the output bytes must be the same.
 */
import { expect } from 'vitest';
import { MicroInterpreter, loadModel, type MemoryPlanner, type OpResolver } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { createSchedule, scheduleReport, type ScheduleName, type ScheduleOptions } from '@micrort/schedules';
import { AlwaysSharePlanner } from './always-share.js';
import { Rng, randomSpatialModel, type SpatialModel } from './spatial-models.js';

/** Runs `m` once under `schedule` on seeded random inputs; returns the output bytes and the interpreter. */
export function runSpatialModel(
  m: SpatialModel,
  resolver: () => OpResolver,
  schedule: ScheduleName | ScheduleOptions,
  planner: MemoryPlanner = createPlanner('greedy'),
  seed = 1,
) {
  const interp = new MicroInterpreter(loadModel(m.bytes), resolver(), { planner, schedule: createSchedule(schedule) }).allocateTensors();
  const input = interp.input(0);
  const r = new Rng(seed);
  if (m.type === 'int8') (input.data as Int8Array).forEach((_, i, a) => (a[i] = r.int(-128, 127)));
  else (input.data as Float32Array).forEach((_, i, a) => (a[i] = r.next() * 4 - 2));
  interp.invoke();
  return { out: interp.output(0).bytes.slice(), interp };
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Fixed stages (node 0 to a random cut) with random tile grids; returns how many stages ran. Each
 * output must equal the normal schedule's byte for byte.
 */
export function checkFixedStages(resolver: () => OpResolver, type: 'int8' | 'float32', seeds: number, salt = 0): number {
  let stages = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const m = randomSpatialModel(seed * 7 + salt, type);
    if (m.cuts.length === 0) continue;
    const base = runSpatialModel(m, resolver, 'normal');
    const r = new Rng(seed);
    const last = r.pick(m.cuts);
    const shape = base.interp.tensor(base.interp.nodes()[last]!.outputs[0]!).dims;
    const rows = r.int(1, Math.min(5, shape[1]!));
    const cols = r.int(rows === 1 ? Math.min(2, shape[2]!) : 1, Math.min(5, shape[2]!));
    if (rows * cols < 2) continue;
    const stage = { firstNode: 0, lastNode: last, rows, cols };
    const { out, interp } = runSpatialModel(m, resolver, { name: 'patch', stage });
    // rows × cols asks for tiles of ceil(H / rows) × ceil(W / cols) pixels.
    const tileH = Math.ceil(shape[1]! / rows);
    const tileW = Math.ceil(shape[2]! / cols);
    expect(scheduleReport(interp).patch?.grid, m.layers.join(' | ')).toEqual({
      tileH,
      tileW,
      rows: Math.ceil(shape[1]! / tileH),
      cols: Math.ceil(shape[2]! / tileW),
    });
    expect({ seed, layers: m.layers, stage, equal: same(out, base.out) }).toMatchObject({ equal: true });
    stages++;
  }
  return stages;
}

/**
 * Searched schedules (recompute budget 1: any stage that lowers the estimated peak) and every in-place
 * variant that may run (`inPlaceVariants: 'all'`) on aliased buffers; returns the granted in-place nodes and the models that got a stage.
 */
export function checkSearchedSchedules(
  resolver: () => OpResolver,
  type: 'int8' | 'float32',
  seeds: number,
  salt = 0,
): { granted: number; patched: number } {
  let granted = 0;
  let patched = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const m = randomSpatialModel(seed * 13 + salt, type, 9);
    const normal = runSpatialModel(m, resolver, 'normal').out;
    for (const name of ['patch', 'inplace', 'patch+inplace'] as const) {
      const { out, interp } = runSpatialModel(m, resolver, { name, recomputeBudget: 1, inPlaceVariants: 'all' }, new AlwaysSharePlanner());
      const rep = scheduleReport(interp);
      granted += rep.inPlace?.length ?? 0;
      if (rep.patch?.grid) patched++;
      for (const p of interp.memoryPlan().inPlacePairs)
        expect(interp.tensor(p.output).bytes.byteOffset).toBe(interp.tensor(p.input).bytes.byteOffset);
      expect({ seed, name, layers: m.layers, equal: same(out, normal) }).toMatchObject({ equal: true });
    }
  }
  return { granted, patched };
}
