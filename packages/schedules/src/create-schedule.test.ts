/**
 * The schedules through core's hook: a kernel declining its tile node leaves the plan, the tensors and
 * the op data as they were (SchedulePlan.rollback), a kernel that declares no spatial behaviour keeps its
 * node out of every stage, and every op data is freed once.
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  loadModel,
  type Registration,
} from '@micrort/core';
import { referenceKernels, registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { ScheduleError, createSchedule, scheduleReport } from './index.js';

/** x [1,12,12,2] → CONV_2D 3x3 → a [1,12,12,4] → DEPTHWISE_CONV_2D 3x3 s2 → y [1,6,6,4] (float32). */
function model(): Uint8Array {
  const b = new ModelBuilder();
  const F = TensorType.FLOAT32;
  const x = b.addTensor({ name: 'x', type: F, shape: [1, 12, 12, 2] });
  const a = b.addTensor({ name: 'a', type: F, shape: [1, 12, 12, 4] });
  const y = b.addTensor({ name: 'y', type: F, shape: [1, 6, 6, 4] });
  const w1 = b.addTensor({
    name: 'w1',
    type: F,
    shape: [4, 3, 3, 2],
    data: Float32Array.from({ length: 72 }, (_, i) => (i % 7) / 7 - 0.4),
  });
  const b1 = b.addTensor({ name: 'b1', type: F, shape: [4], data: new Float32Array([0.1, -0.2, 0.3, 0]) });
  const w2 = b.addTensor({
    name: 'w2',
    type: F,
    shape: [1, 3, 3, 4],
    data: Float32Array.from({ length: 36 }, (_, i) => (i % 5) / 5 - 0.3),
  });
  const b2 = b.addTensor({ name: 'b2', type: F, shape: [4], data: new Float32Array(4) });
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    inputs: [x, w1, b1],
    outputs: [a],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1 },
  });
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [a, w2, b2],
    outputs: [y],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, depthMultiplier: 1 },
  });
  return b.setInputs([x]).setOutputs([y]).build();
}

const reference = (code: BuiltinOperator) => referenceKernels.find((r) => r.builtinCode === code)!;

/** ops-reference's DEPTHWISE_CONV_2D, counting init and free, declining inputs under 12 rows (tiles). */
function picky(counts: { init: number; free: number }, spatial = true): Registration {
  const dw = reference(BuiltinOperator.DEPTHWISE_CONV_2D);
  const { spatial: declared, ...rest } = dw;
  return {
    ...rest,
    ...(spatial ? { spatial: declared } : {}),
    supports: (ctx, node) => (ctx.getTensor(node.inputs[0]!).dims[1]! < 12 ? 'only whole images' : true),
    init: (ctx, data) => (counts.init++, dw.init!(ctx, data)),
    free: (ctx, data) => {
      counts.free++;
      dw.free?.(ctx, data);
    },
  };
}

function run(resolver: OpResolver, schedule?: Parameters<typeof createSchedule>[0]) {
  const it = new MicroInterpreter(loadModel(model()), resolver, {
    planner: createPlanner('greedy'),
    ...(schedule ? { schedule: createSchedule(schedule) } : {}),
  }).allocateTensors();
  (it.input(0).data as Float32Array).forEach((_, i, d) => (d[i] = Math.sin(i)));
  it.invoke();
  return { it, out: Array.from(it.output(0).data as Float32Array) };
}

describe('schedules through the hook', () => {
  it('a patch stage of both nodes runs their kernels on tiles and gives the normal bytes', () => {
    const normal = run(registerReferenceOps(new OpResolver())).out;
    const { it, out } = run(registerReferenceOps(new OpResolver()), {
      name: 'patch',
      stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 },
    });
    expect(scheduleReport(it).patch?.grid).toEqual({ rows: 2, cols: 2, tileH: 3, tileW: 3 });
    expect(it.nodes().map((n) => n.op)).toContain('DEPTHWISE_CONV_2D (tile)');
    expect(out).toEqual(normal);
  });

  it('a kernel declining its tile node: the stage is rolled back, the op data given back and freed once', () => {
    const normal = run(registerReferenceOps(new OpResolver())).out;
    const counts = { init: 0, free: 0 };
    const resolver = () => new OpResolver().register(reference(BuiltinOperator.CONV_2D)).register(picky(counts));
    const { it, out } = run(resolver(), { name: 'patch', recomputeBudget: 1 });
    const r = scheduleReport(it).patch!;
    expect(r.grid).toBeNull();
    expect(r.reason).toMatch(/the kernel of node 1 \(DEPTHWISE_CONV_2D\) declines its tile node: only whole images/);
    // The plan, the tensors and the op data are the model's: the nodes run as in the normal schedule.
    expect(it.nodes().map((n) => n.op)).toEqual(['CONV_2D', 'DEPTHWISE_CONV_2D']);
    expect(it.memoryPlan().requirements.filter((q) => q.kind === 'tensor').length).toBe(3);
    expect(out).toEqual(normal);
    it.dispose();
    expect(counts).toEqual({ init: 1, free: 1 });
    expect(() => run(resolver(), { name: 'patch', stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 } })).toThrow(ScheduleError);
  });

  it('a kernel that declares no spatial behaviour keeps its node out of every stage', () => {
    const counts = { init: 0, free: 0 };
    const resolver = new OpResolver().register(reference(BuiltinOperator.CONV_2D)).register(picky(counts, false));
    expect(() => run(resolver, { name: 'patch', stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 } })).toThrow(
      /DEPTHWISE_CONV_2D is not a spatial operator the patch schedule can tile \(its kernel declares no spatial behaviour\)/,
    );
  });

  it('a schedule name where a schedule object belongs is refused, pointing at createSchedule', () => {
    const options = { planner: createPlanner('greedy'), schedule: 'patch' as never };
    expect(() => new MicroInterpreter(loadModel(model()), registerReferenceOps(new OpResolver()), options)).toThrow(
      /options.schedule must be a schedule object \(e.g. createSchedule\("patch"\) from @micrort\/schedules\)/,
    );
  });
});
