/**
 * The patch schedule on real float models (MediaPipe's, @micrort/corpus) with the CLI's kernels: their
 * float16 weights are DEQUANTIZE nodes the stage runs once before its tiles, their channel-widening PADs
 * run on the tiles; the outputs are the normal schedule's, byte for byte, in well under half the head.
 */
import { describe, expect, it } from 'vitest';
import { loadModel } from '@micrort/core';
import { corpusBytes } from '@micrort/corpus';
import { createPlanner } from '@micrort/planners';
import { createSchedule, scheduleReport, type ScheduleName } from '@micrort/schedules';
import { Rng } from '@micrort/test-support/spatial-models';
import { composeOps } from '../src/runtime.js';

function run(name: string, schedule: ScheduleName) {
  const interp = composeOps('reference')
    .createInterpreter(loadModel(corpusBytes(name)), {
      planner: createPlanner('greedy'),
      schedule: createSchedule(schedule),
    })
    .allocateTensors();
  const r = new Rng(5);
  for (let i = 0; i < interp.inputsSize; i++) (interp.input(i).data as Float32Array).forEach((_, k, a) => (a[k] = r.next() * 2 - 1));
  interp.invoke();
  const outputs = Array.from({ length: interp.outputsSize }, (_, j) => Array.from(interp.output(j).bytes));
  return { outputs, head: interp.arenaUsage().headBytes, report: scheduleReport(interp) };
}

describe('schedules on MediaPipe float models', () => {
  it.each(['face_detection_short_range', 'hand_landmark_lite'])(
    '%s: patch+inplace gives the same bytes in less than half the head',
    (name) => {
      const normal = run(name, 'normal');
      const patched = run(name, 'patch+inplace');
      expect(patched.report.patch?.grid).not.toBeNull();
      expect(patched.report.patch!.macs.overhead).toBeLessThanOrEqual(0.2);
      expect(patched.head).toBeLessThan(0.5 * normal.head);
      expect(patched.outputs).toEqual(normal.outputs);
    },
  );
});
