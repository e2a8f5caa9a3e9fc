/**
 * Schedules: how a model's nodes run, chosen per deployment like a planner (interpreter option
 * `schedule`). Every schedule gives the normal schedule's output bytes; they differ in which buffers
 * are live when, so in the smallest arena a model fits.
 *
 * | name            | what changes                                                                   |
 * |-----------------|--------------------------------------------------------------------------------|
 * | `normal`        | nothing: TFLM's schedule                                                       |
 * | `inplace`       | kernels' in-place variants write their output over a dying input (plus the     |
 * |                 | elementwise in-place pairs of option `inPlace`)                                |
 * | `patch`         | the first stage of spatial operators runs tile by tile (patch-based inference) |
 * | `patch+inplace` | both                                                                           |
 */
import { MicrortError } from '@micrort/core';

/**
 * A schedule option cannot be honoured: an unknown schedule name, a bad recompute budget, or a fixed
 * patch stage whose nodes cannot run tile by tile (the message says which node and why).
 */
export class ScheduleError extends MicrortError {}

/** Names of the schedules. */
export type ScheduleName = 'normal' | 'inplace' | 'patch' | 'patch+inplace';

/** Every schedule name, in a stable order. */
export const SCHEDULE_NAMES: readonly ScheduleName[] = Object.freeze(['normal', 'inplace', 'patch', 'patch+inplace'] as ScheduleName[]);

/** Default recompute budget of the patch schedule: 20 % more multiply-accumulates than the normal schedule. */
export const DEFAULT_RECOMPUTE_BUDGET = 0.2;

/** A patch stage fixed by hand instead of searched. */
export interface FixedStage {
  /** Operator index of the stage's first and last node (entry subgraph); the nodes between run tiled. */
  firstNode: number;
  lastNode: number;
  /** Tile grid over the stage output: rows × columns of tiles. */
  rows: number;
  cols: number;
}

/** Options of interpreter option `schedule`. */
export interface ScheduleOptions {
  /** The schedule (default `normal`). */
  name: ScheduleName;
  /**
   * Patch schedules: the largest extra multiply-accumulates the tiles may compute (halos recomputed by
   * neighbouring tiles), as a fraction of the model's (default 0.2: at most 20 % more).
   */
  recomputeBudget?: number;
  /** Patch schedules: use this stage and grid instead of searching (ScheduleError when it cannot be tiled). */
  stage?: FixedStage;
  /** Patch schedules: largest number of tile rows or columns the search tries (default 8). */
  maxGrid?: number;
  /**
   * In-place schedules: `where-needed` (default) grants a kernel's in-place variant only at steps that
   * would otherwise stay above the peak reached with every variant (elsewhere the variant costs time
   * and saves no arena); `all` grants every variant that may run (tests use it to run them all).
   */
  inPlaceVariants?: 'where-needed' | 'all';
}

/** A schedule spelled out. */
export interface ResolvedSchedule {
  name: ScheduleName;
  patch: boolean;
  inPlace: boolean;
  recomputeBudget: number;
  stage: FixedStage | null;
  maxGrid: number;
  inPlaceVariants: 'where-needed' | 'all';
}

/** Whether `name` is a schedule name. */
export function isScheduleName(name: string): name is ScheduleName {
  return (SCHEDULE_NAMES as readonly string[]).includes(name);
}

/** Checks and spells out interpreter option `schedule`; ScheduleError on a bad name or number. */
export function resolveSchedule(option: ScheduleName | ScheduleOptions | undefined): ResolvedSchedule {
  const o: ScheduleOptions = option === undefined ? { name: 'normal' } : typeof option === 'string' ? { name: option } : option;
  if (!isScheduleName(o.name)) throw new ScheduleError(`unknown schedule "${String(o.name)}" (known: ${SCHEDULE_NAMES.join(', ')})`);
  const budget = o.recomputeBudget ?? DEFAULT_RECOMPUTE_BUDGET;
  if (!(Number.isFinite(budget) && budget >= 0))
    throw new ScheduleError(`recomputeBudget must be a non-negative number (0.2 = 20 % more MACs), got ${budget}`);
  const maxGrid = o.maxGrid ?? 8;
  if (!(Number.isInteger(maxGrid) && maxGrid >= 1 && maxGrid <= 64))
    throw new ScheduleError(`maxGrid must be an integer in [1, 64], got ${maxGrid}`);
  const patch = o.name === 'patch' || o.name === 'patch+inplace';
  if (o.stage) {
    if (!patch) throw new ScheduleError(`a fixed stage needs a patch schedule (patch or patch+inplace), not ${o.name}`);
    const s = o.stage;
    for (const [k, v] of [
      ['firstNode', s.firstNode],
      ['lastNode', s.lastNode],
      ['rows', s.rows],
      ['cols', s.cols],
    ] as const)
      if (!(Number.isInteger(v) && v >= (k === 'rows' || k === 'cols' ? 1 : 0)))
        throw new ScheduleError(`stage.${k} must be a ${k === 'rows' || k === 'cols' ? 'positive' : 'non-negative'} integer, got ${v}`);
    if (s.lastNode < s.firstNode) throw new ScheduleError(`stage.lastNode ${s.lastNode} is before stage.firstNode ${s.firstNode}`);
  }
  const inPlaceVariants = o.inPlaceVariants ?? 'where-needed';
  if (inPlaceVariants !== 'where-needed' && inPlaceVariants !== 'all')
    throw new ScheduleError(`inPlaceVariants must be where-needed or all, got ${String(inPlaceVariants)}`);
  return {
    name: o.name,
    patch,
    inPlace: o.name === 'inplace' || o.name === 'patch+inplace',
    recomputeBudget: budget,
    stage: o.stage ?? null,
    maxGrid,
    inPlaceVariants,
  };
}
