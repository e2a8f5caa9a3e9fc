import { MicrortError } from '../errors.js';
import { DEFAULT_MAX_ARENA_BYTES, SingleArenaBufferAllocator } from '../arena/single-arena-buffer-allocator.js';
import type { ModelDef } from '../model/model-def.js';
import type { MemoryPlan, MemoryPlanner } from '../planner/memory-planner.js';
import type { OpResolver } from '../resolver/op-resolver.js';
import { Allocation } from './allocation.js';
import type { CheckReport } from './check-report.js';
import { MicroInterpreter, type InterpreterOptions } from './micro-interpreter.js';

/** Options of {@link checkModel}: the interpreter's, with the planner optional. */
export interface CheckOptions extends Omit<InterpreterOptions, 'planner' | 'arena'> {
  /**
   * When given and every node resolves and prepares, the model is also allocated with this planner
   * (`arena: 'auto'`) and the report gets its arena figures (or the allocation error).
   */
  planner?: MemoryPlanner;
}

/** A planner for the prepare-only pass, which never plans. */
const NOT_PLANNING: MemoryPlanner = {
  name: 'none',
  plan(): MemoryPlan {
    throw new MicrortError('checkModel does not plan without a planner');
  },
};

/**
 * Everything a model needs, in one pass: resolves a provider for every node of every subgraph, runs
 * init and prepare of every node that has one, and reports each node's outcome — the provider that
 * takes it, each registered provider's reason for declining (`supports()`), "no provider registered",
 * or its init/prepare error — without stopping at the first problem (only the arena limit stops
 * preparation). Nodes are grouped by op, version, tensor types and outcome in `report.ops`.
 *
 * Runs in an arena that only measures, so nothing is allocated for real; with `options.planner` a
 * model whose every node is fine is then allocated once to report its arena figures. Model-level
 * problems that prevent any preparation (a malformed constant, a tensor over `maxArenaBytes`) throw
 * their typed error, as `allocateTensors()` does.
 */
export function checkModel(model: ModelDef, resolver: OpResolver, options: CheckOptions = {}): CheckReport {
  const limit = options.maxArenaBytes ?? DEFAULT_MAX_ARENA_BYTES;
  const a = new Allocation(model, { ...options, planner: options.planner ?? NOT_PLANNING }, new SingleArenaBufferAllocator(0, limit));
  let report: CheckReport;
  try {
    report = a.prepareAll(resolver, { inPlace: null, collectSupportsErrors: true }).report;
  } finally {
    a.freeAll();
  }
  if (report.ok && options.planner) {
    const interp = new MicroInterpreter(model, resolver, { ...options, planner: options.planner, arena: 'auto' });
    try {
      interp.allocateTensors();
      const u = interp.arenaUsage();
      report.arena = { usedBytes: u.usedBytes, headBytes: u.headBytes, tailBytes: u.tailBytes };
    } catch (e) {
      const err = e as Error;
      report.allocationError = { name: err.name, message: err.message };
      report.ok = false;
    } finally {
      interp.dispose();
    }
  }
  return report;
}
