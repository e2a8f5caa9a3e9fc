/**
 * The memory picture of a model: its arena head's buffers (planned tensors and scratch buffers, from a
 * real allocation with the chosen kernels, so every kernel's scratch request is in), laid out by each
 * planner, against the lower bound; plus the tail (persistent op data, variable tensors). Like
 * `micrort plan`: one allocation, then each planner re-plans the same requirements.
 */
import {
  ARENA_ALIGNMENT,
  MicroInterpreter,
  type BufferRequirement,
  type InterpreterOptions,
  type ModelDef,
  type OpResolver,
} from '@micrort/core';
import { OptimalPlanner, PLANNER_NAMES, createPlanner, lowerBoundAt, planReport } from '@micrort/planners';
import { errorOf, withStandIns } from './check.js';

/** One buffer of the head (structured-clone safe copy of core's BufferRequirement). */
export interface PlanBuffer {
  size: number;
  firstUsed: number;
  lastUsed: number;
  kind: 'tensor' | 'scratch';
  id: number;
  label: string;
  offlineOffset?: number;
}

/** One planner's plan. */
export interface PlannerResult {
  name: string;
  /** Planned head, bytes. */
  headBytes: number;
  /** head + tail: what `arena: 'auto'` allocates with this planner. */
  arenaBytes: number;
  /** headBytes / lower bound. */
  ratio: number;
  planMs: number;
  /** Offset of each buffer, in `buffers` order. */
  offsets: number[];
  /** `optimal`: whether the search proved the plan minimal. */
  provenMinimal?: boolean;
  /** The planner refused (e.g. a bad offline plan): its typed error. */
  error?: { name: string; message: string };
}

/** The memory picture. */
export interface PlanAnalysis {
  buffers: PlanBuffer[];
  /** Op per execution step, and its node index. */
  stepOps: string[];
  stepNodes: number[];
  lowerBoundBytes: number;
  /** First execution step where the lower bound is reached. */
  peakStep: number;
  /** Persistent section: kernel op data, variable tensors. */
  tailBytes: number;
  persistentBufferBytes: number;
  variableBufferBytes: number;
  /** Buffers carrying an offline offset (model metadata); 0: `offline` plans like greedy. */
  offlineBuffers: number;
  planners: PlannerResult[];
  /** Nodes no kernel serves: planned from the graph, their own scratch and op data unknown. */
  standIns: number[];
  /** The arena `arena: 'auto'` allocated for the greedy plan (the allocation the buffers come from). */
  autoArenaBytes: number;
}

/** Progress of a long analysis: the planner being run, i of n. */
export type PlanProgress = (label: string, done: number, total: number) => void;

/** Options of {@link analyzePlans}. */
export interface AnalyzeOptions {
  planners?: readonly string[];
  /** Time budget of the optimal planner, ms (default: the planner's). */
  timeBudgetMs?: number;
  onProgress?: PlanProgress;
}

/** Allocates `model` once (greedy, arena auto) and re-plans its head with each planner. */
export function analyzePlans(
  model: ModelDef,
  resolver: OpResolver,
  interpreterOptions: Partial<InterpreterOptions> & Record<string, unknown>,
  options: AnalyzeOptions = {},
): PlanAnalysis {
  const names = options.planners ?? PLANNER_NAMES;
  options.onProgress?.('allocating (greedy)', 0, names.length + 1);
  const serving = withStandIns(resolver);
  const interp = new MicroInterpreter(model, serving.resolver, {
    ...interpreterOptions,
    planner: createPlanner('greedy'),
    arena: 'auto',
  } as InterpreterOptions);
  let requirements: BufferRequirement[];
  let usage: ReturnType<MicroInterpreter['arenaUsage']>;
  let stepOps: string[];
  let stepNodes: number[];
  try {
    interp.allocateTensors();
    requirements = interp.memoryPlan().requirements;
    usage = interp.arenaUsage();
    const nodes = interp.nodes();
    stepOps = nodes.map((n) => n.op);
    stepNodes = nodes.map((n) => n.index);
  } finally {
    interp.dispose();
  }
  const bound = lowerBoundAt(requirements);
  const planOptions = { alignment: ARENA_ALIGNMENT, ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}) };
  const planners: PlannerResult[] = [];
  names.forEach((name, i) => {
    options.onProgress?.(`planning with ${name}`, i + 1, names.length + 1);
    const planner = createPlanner(name);
    try {
      const r = planReport(requirements, planner, planOptions);
      const row: PlannerResult = {
        name,
        headBytes: r.headBytes,
        arenaBytes: r.headBytes + usage.tailBytes,
        ratio: r.ratio,
        planMs: r.planMs,
        offsets: Array.from(r.plan.offsets),
      };
      if (planner instanceof OptimalPlanner) row.provenMinimal = planner.lastSearch?.provenOptimal ?? false;
      planners.push(row);
    } catch (e) {
      planners.push({ name, headBytes: 0, arenaBytes: 0, ratio: 0, planMs: 0, offsets: [], error: errorOf(e) });
    }
  });
  return {
    buffers: requirements.map((b) => ({
      size: b.size,
      firstUsed: b.firstUsed,
      lastUsed: b.lastUsed,
      kind: b.kind,
      id: b.id,
      label: b.label ?? `${b.kind} ${b.id}`,
      ...(b.offlineOffset !== undefined && b.offlineOffset >= 0 ? { offlineOffset: b.offlineOffset } : {}),
    })),
    stepOps,
    stepNodes,
    lowerBoundBytes: bound.bytes,
    peakStep: bound.step,
    tailBytes: usage.tailBytes,
    persistentBufferBytes: usage.persistentBufferBytes,
    variableBufferBytes: usage.variableBufferBytes,
    offlineBuffers: requirements.filter((r) => r.offlineOffset !== undefined && r.offlineOffset >= 0).length,
    planners,
    standIns: serving.standIns(),
    autoArenaBytes: usage.arenaBytes,
  };
}
