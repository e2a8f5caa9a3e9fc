/**
 * Buffer lifetimes over every subgraph of a model, as TFLM's AllocationInfoBuilder marks them
 * (micro_allocation_info.cc): one timeline for the whole model, in which a control-flow node (IF,
 * WHILE, CALL_ONCE) opens a new scope for each subgraph it invokes, right after its own outputs are
 * created and before its inputs' last use. So the invoked subgraphs' tensors live strictly inside the
 * node's step: they may share memory with anything not live then, and never with the node's own
 * inputs and outputs. All subgraphs are then planned together in the one arena head.
 *
 * Conventions (those of micrort's single-subgraph planning, which this extends):
 * - the entry subgraph's step k is at time k when no control flow precedes it, its inputs are created
 *   at its first step and its outputs live to its last;
 * - an invoked subgraph's visit starts one time unit after the calling step; its inputs and outputs
 *   are created at that start, each of its nodes takes one more unit (as TFLM's scope count);
 * - a tensor is created by its first writer in a visit (TFLM: the last `UpdateFirstCreated`, the same
 *   for a graph whose tensors each have one producer); a subgraph output nothing writes is created at
 *   the visit's start;
 * - a subgraph visited more than once (two nodes invoking it) gets the union of its visits' lifetimes
 *   (TFLM keeps only the last visit's, which can overlap what is live during the first);
 * - scratch buffers of a node live from its step to the end of the subgraphs it invokes;
 * - subgraphs no control-flow node of the entry subgraph reaches are not visited: their tensors are
 *   not planned, and `invokeSubgraph` refuses them.
 */
import { ModelError } from '../errors.js';
import type { PlanStep } from '../arena/lifetimes.js';

/** One step of a subgraph's execution plan, for lifetime marking. */
export interface LifetimeStep extends PlanStep {
  /** Subgraphs the step's node invokes (in planning order), or empty. */
  readonly invokes: ArrayLike<number>;
}

/** What the walker needs of one subgraph. */
export interface LifetimeSubgraph {
  readonly tensorCount: number;
  readonly inputs: ArrayLike<number>;
  readonly outputs: ArrayLike<number>;
  /** The execution plan (for the entry subgraph: after delegate partitioning). */
  readonly steps: readonly LifetimeStep[];
}

/** Lifetimes of one visited subgraph. */
export interface SubgraphLifetimes {
  /** Time that creates tensor i, or -1 (never used). */
  firstCreated: Int32Array;
  /** Last time tensor i is used, or -1. */
  lastUsed: Int32Array;
  /** Time of each step (its outputs are created then). */
  stepStart: Int32Array;
  /** Time each step ends: its start, or the end of the last subgraph it invokes. */
  stepEnd: Int32Array;
}

/** The model's timeline: lifetimes per visited subgraph (null for a subgraph never reached). */
export interface ModelLifetimes {
  subgraphs: (SubgraphLifetimes | null)[];
  /** Last time of the timeline. */
  lastTime: number;
}

/**
 * Marks lifetimes over the whole model, starting from `entry`. Throws ModelError for a subgraph index
 * out of range and for a subgraph that (directly or not) invokes itself.
 */
export function markModelLifetimes(subgraphs: readonly LifetimeSubgraph[], entry: number): ModelLifetimes {
  const result: (SubgraphLifetimes | null)[] = subgraphs.map(() => null);
  const onStack = new Uint8Array(subgraphs.length);
  const path: number[] = [];
  let time = 0;

  const visit = (s: number, isEntry: boolean, caller: string): void => {
    const sg = subgraphs[s];
    if (!Number.isInteger(s) || !sg)
      throw new ModelError(`${caller} invokes subgraph ${s}, but the model has ${subgraphs.length} subgraphs`, {
        table: 'Operator',
        field: 'builtin_options',
      });
    if (onStack[s])
      throw new ModelError(`subgraph ${s} invokes itself (${[...path, s].join(' → ')}): recursive control flow cannot be planned`, {
        table: 'SubGraph',
        index: s,
        path: `subgraphs[${s}]`,
      });
    onStack[s] = 1;
    path.push(s);
    if (!isEntry) time++;
    const start = time;
    const n = sg.tensorCount;
    const first = new Int32Array(n).fill(-1);
    const last = new Int32Array(n).fill(-1);
    const create = (t: number, at: number) => {
      if (t < 0 || t >= n) return;
      if (first[t] === -1) first[t] = at;
      if (last[t]! < at) last[t] = at;
    };
    const use = (t: number, at: number) => {
      if (t < 0 || t >= n) return;
      if (last[t]! < at) last[t] = at;
    };
    for (let i = 0; i < sg.inputs.length; i++) create(sg.inputs[i]!, start);
    const stepStart = new Int32Array(sg.steps.length);
    const stepEnd = new Int32Array(sg.steps.length);
    sg.steps.forEach((step, k) => {
      if (!(isEntry && k === 0)) time++;
      const t0 = time;
      stepStart[k] = t0;
      for (let i = 0; i < step.outputs.length; i++) create(step.outputs[i]!, t0);
      for (let j = 0; j < step.invokes.length; j++)
        visit(step.invokes[j]!, false, `operator ${(step as { index?: number }).index ?? k} of subgraph ${s}`);
      const t1 = time;
      stepEnd[k] = t1;
      for (let i = 0; i < step.inputs.length; i++) use(step.inputs[i]!, t1);
      for (let i = 0; i < step.outputs.length; i++) use(step.outputs[i]!, t1);
    });
    const end = time;
    for (let i = 0; i < sg.outputs.length; i++) {
      create(sg.outputs[i]!, start);
      use(sg.outputs[i]!, end);
    }
    // Read but never written (and not an input): live from the start of the visit.
    for (let t = 0; t < n; t++) if (first[t] === -1 && last[t]! >= 0) first[t] = start;
    merge(result, s, first, last, stepStart, stepEnd);
    path.pop();
    onStack[s] = 0;
  };

  visit(entry, true, 'the interpreter');
  return { subgraphs: result, lastTime: time };
}

/** Union of a visit's lifetimes with the earlier visits of the same subgraph. */
function merge(
  result: (SubgraphLifetimes | null)[],
  s: number,
  first: Int32Array,
  last: Int32Array,
  stepStart: Int32Array,
  stepEnd: Int32Array,
): void {
  const prev = result[s];
  if (!prev) {
    result[s] = { firstCreated: first, lastUsed: last, stepStart, stepEnd };
    return;
  }
  for (let t = 0; t < first.length; t++) {
    if (first[t] === -1) continue;
    if (prev.firstCreated[t] === -1 || first[t]! < prev.firstCreated[t]!) prev.firstCreated[t] = first[t]!;
    if (last[t]! > prev.lastUsed[t]!) prev.lastUsed[t] = last[t]!;
  }
  // Steps: keep the first visit's start and the last visit's end (scratch buffers span both).
  for (let k = 0; k < stepEnd.length; k++) if (stepEnd[k]! > prev.stepEnd[k]!) prev.stepEnd[k] = stepEnd[k]!;
}
