/**
 * The schedules as plugins of core's schedule hook: `createSchedule(...)` is what interpreter option
 * `schedule` takes, `scheduleReport(interpreter)` what the schedule did.
 *
 * ```ts
 * const it = new MicroInterpreter(model, resolver, { planner, schedule: createSchedule('patch+inplace') });
 * it.allocateTensors();
 * scheduleReport(it).patch?.grid; // the tile grid of the patch stage
 * ```
 */
import { MicrortError, type Schedule, type ScheduleRun } from '@micrort/core';
import { resolveSchedule, type ScheduleName, type ScheduleOptions } from './schedule-options.js';
import { ScheduleSession, type ScheduleReport } from './schedule-run.js';

/**
 * The schedule `option` names (see ScheduleOptions; default `normal`, which changes nothing). Checks
 * the options at once: ScheduleError on a bad name or number. The schedule is stateless and may be
 * shared by any number of interpreters.
 */
export function createSchedule(option?: ScheduleName | ScheduleOptions): Schedule {
  const spec = resolveSchedule(option);
  return {
    name: spec.name,
    inPlace: spec.inPlace,
    begin: (plan) => new ScheduleSession(spec, plan).begin(),
  };
}

/**
 * What the schedule did in `interpreter`'s allocation (after allocateTensors): the patch stage (nodes,
 * tile grid, tile buffers, extra MACs) and the nodes running in-place variants. Without a schedule:
 * name `normal`, nothing else. MicrortError for a schedule of another package.
 */
export function scheduleReport(interpreter: { scheduleRun(): ScheduleRun | null }): ScheduleReport {
  const run = interpreter.scheduleRun();
  if (run === null) return { name: 'normal', patch: null, inPlace: null };
  if (!(run instanceof ScheduleSession)) throw new MicrortError('scheduleReport: the interpreter runs a schedule of another package');
  return run.report();
}
