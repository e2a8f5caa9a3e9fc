/**
 * Schedules on random chains of spatial operators (packages/test-support/src/spatial-models.ts: odd sizes, strides 1
 * and 2, dilation, SAME and VALID, residual ADDs, PADs, pools) with the reference kernels: every patch
 * stage and tile grid, and the in-place variants on really aliased buffers, give the normal schedule's
 * output bytes (float32 too: tiles add only exact zeros to a sum).
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, Padding, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { ScheduleError, createSchedule, scheduleReport, type ScheduleOptions } from '@micrort/schedules';
import { checkFixedStages, checkSearchedSchedules } from '@micrort/test-support/schedule-checks';
import { registerReferenceOps } from '../src/index.js';

const resolver = () => registerReferenceOps(new OpResolver());

describe('schedule errors and reports (ops-reference)', () => {
  /** input → dw 3x3 → a → `pool` 3x3 SAME → p → ADD(a, p) → output (float32). */
  function model(pool: BuiltinOperator) {
    const b = new ModelBuilder();
    const F = TensorType.FLOAT32;
    const x = b.addTensor({ name: 'x', type: F, shape: [1, 8, 8, 2] });
    const a = b.addTensor({ name: 'a', type: F, shape: [1, 8, 8, 2] });
    const p = b.addTensor({ name: 'p', type: F, shape: [1, 8, 8, 2] });
    const y = b.addTensor({ name: 'y', type: F, shape: [1, 8, 8, 2] });
    const w = b.addTensor({ name: 'w', type: F, shape: [1, 3, 3, 2], data: new Float32Array(18).fill(0.5) });
    const bias = b.addTensor({ name: 'bias', type: F, shape: [2], data: new Float32Array(2) });
    b.addOperator({
      op: BuiltinOperator.DEPTHWISE_CONV_2D,
      inputs: [x, w, bias],
      outputs: [a],
      options: { padding: Padding.SAME, strideH: 1, strideW: 1, depthMultiplier: 1 },
    });
    b.addOperator({
      op: pool,
      inputs: [a],
      outputs: [p],
      options: { padding: Padding.SAME, strideH: 1, strideW: 1, filterHeight: 3, filterWidth: 3 },
    });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [a, p], outputs: [y] });
    return loadModel(b.setInputs([x]).setOutputs([y]).build());
  }
  const make = (schedule: ScheduleOptions, pool = BuiltinOperator.AVERAGE_POOL_2D) =>
    new MicroInterpreter(model(pool), resolver(), { planner: createPlanner('greedy'), schedule: createSchedule(schedule) });

  it('a fixed stage that cannot be tiled is a ScheduleError saying why', () => {
    expect(() => make({ name: 'patch', stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 } }).allocateTensors()).toThrow(
      /nodes 0\.\.1 cannot form a patch stage: AVERAGE_POOL_2D with padding averages over the in-image taps only/,
    );
    const internal = make({ name: 'patch', stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 } }, BuiltinOperator.MAX_POOL_2D);
    expect(() => internal.allocateTensors()).toThrow(ScheduleError);
    expect(() =>
      make({ name: 'patch', stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 } }, BuiltinOperator.MAX_POOL_2D).allocateTensors(),
    ).toThrow(/tensor 1 is produced inside the stage and read after it/);
    expect(() => make({ name: 'patch', stage: { firstNode: 0, lastNode: 0, rows: 9, cols: 2 } }).allocateTensors()).toThrow(
      /a 9x2 tile grid does not fit the stage output 8x8/,
    );
    // One node whose output the rest reads is a stage; its bytes are the normal schedule's.
    const one = make({ name: 'patch', stage: { firstNode: 0, lastNode: 0, rows: 3, cols: 2 } }).allocateTensors();
    expect(scheduleReport(one).patch?.grid).toEqual({ rows: 3, cols: 2, tileH: 3, tileW: 4 });
  });

  it('the searched schedule reports why no stage helps, and runs as the normal one', () => {
    const interp = make({ name: 'patch' }).allocateTensors();
    const r = scheduleReport(interp);
    expect(r.patch?.grid).toBeNull();
    expect(r.patch?.reason).toMatch(
      /^(the peak .* lies outside every run of spatial operators that can be tiled|no stage lowers the peak)/,
    );
    expect(interp.nodes().map((n) => n.op)).toEqual(['DEPTHWISE_CONV_2D', 'AVERAGE_POOL_2D', 'ADD']);
    expect(
      scheduleReport(
        new MicroInterpreter(model(BuiltinOperator.AVERAGE_POOL_2D), resolver(), { planner: createPlanner('greedy') }).allocateTensors(),
      ),
    ).toEqual({ name: 'normal', patch: null, inPlace: null });
  });
});

describe('schedules on random spatial chains (ops-reference)', () => {
  for (const type of ['int8', 'float32'] as const) {
    const salt = type === 'int8' ? 0 : 1000;
    it(`${type}: fixed patch stages with random tile grids give the normal schedule's bytes`, () => {
      expect(checkFixedStages(resolver, type, 40, salt)).toBeGreaterThan(20);
    });
    it(`${type}: searched patch, inplace and patch+inplace schedules (every in-place pair aliased) give the normal bytes`, () => {
      const { granted, patched } = checkSearchedSchedules(resolver, type, 25, salt);
      expect(granted).toBeGreaterThan(10);
      expect(patched).toBeGreaterThan(5);
    });
  }
});
