/**
 * One allocation's schedule: applies the patch stage to the entry subgraph before its nodes prepare,
 * grants kernels' in-place variants while they prepare, and reports what it did. The interpreter owns
 * the lifecycle (interpreter/allocation.ts calls in here at those three points).
 */
import {
  BuiltinOperator,
  alignUp,
  computeLifetimes,
  type GrantedOverwrite,
  type ScheduleRun,
  type SchedulePlan,
  type ScheduleStep,
} from '@micrort/core';
import { canGrantInPlaceVariant } from './in-place-grants.js';
import { stageGeometry, type StageGeometry, type StageGraph } from './patch-geometry.js';
import { describeSteps, normalLiveBytes, plannedBytes, searchPatchStage, stageGraphOf, type SearchStep } from './patch-search.js';
import { PatchStage } from './patch-stage.js';
import { nodeMacs } from './spatial-ops.js';
import { ScheduleError, type ResolvedSchedule, type ScheduleName } from './schedule-options.js';

/** What the patch schedule decided. */
export interface PatchDecision {
  /** Operator indices of the stage's first and last nodes, and the tile size; null: no stage. */
  stage: { firstNode: number; lastNode: number; tileH: number; tileW: number } | null;
  reason?: string;
  normalPeak: number;
  estimatedPeak: number;
  totalMacs: number;
  extraMacs: number;
  evaluated: number;
}

/** One tile buffer of the stage, for reports. */
export interface PatchBufferInfo {
  /** Tensor index of the buffer (after the model's tensors). */
  tensor: number;
  /** The model tensor whose window it holds. */
  of: number;
  shape: number[];
  bytes: number;
  /** A cropped copy for a reader that needs less than the whole window. */
  crop: boolean;
}

/** The patch part of a schedule report. */
export interface PatchReport {
  /** The stage's nodes (operator indices, in order) and ops; empty when no stage was applied. */
  nodes: number[];
  ops: string[];
  /** `nodes 1-18 (CONV_2D ×6, …)`, or why there is no stage. */
  description: string;
  /** Why no stage was applied. */
  reason?: string;
  /** Whole tensors the stage reads, and the tensor it writes tile by tile. */
  inputs: number[];
  output: number;
  /** Tile grid over the stage output and the tile size in output pixels. */
  grid: { rows: number; cols: number; tileH: number; tileW: number } | null;
  buffers: PatchBufferInfo[];
  /** Plan positions of one tile's steps in the scheduled plan. */
  planRange: [number, number] | null;
  /** Multiply-accumulates of the model, and the extra ones the tiles recompute. */
  macs: { model: number; extra: number; overhead: number };
  /** The search's estimates of live activation bytes (no scratch buffers): normal schedule vs this one. */
  estimate: { normalPeak: number; peak: number };
  /** Stage × grid candidates the search evaluated (0 for a fixed stage). */
  evaluated: number;
}

/** One node that runs its kernel's in-place variant. */
export interface InPlaceNodeInfo {
  /** Node index in the scheduled plan's entries (a tile node for nodes inside a patch stage). */
  node: number;
  op: string;
  input: number;
  output: number;
  scratchBytes: number;
}

/** What a schedule did (interpreter.scheduleReport()). */
export interface ScheduleReport {
  name: ScheduleName;
  /** Patch schedules: the stage (or why none). */
  patch: PatchReport | null;
  /** In-place schedules: the nodes whose in-place variant was granted. */
  inPlace: InPlaceNodeInfo[] | null;
}

/**
 * What a schedule does during one allocation (core's ScheduleRun): applies the patch stage to the entry
 * subgraph before its nodes prepare (`begin`), grants kernels' in-place variants while they prepare
 * (`afterPrepare`), hands the grants to planning (`overwrites`), puts the stage's runner in the run
 * list (`afterPlanning`), and reports what it did.
 */
export class ScheduleSession implements ScheduleRun {
  stage: PatchStage | null = null;
  readonly grants: GrantedOverwrite[] = [];
  private readonly taken = new Set<number>();
  private patch: PatchReport | null = null;
  private timeline: { firstCreated: Int32Array; lastUsed: Int32Array; stepStart: Int32Array } | null = null;
  private graphIo = new Set<number>();
  /** Plan positions where a variant lowers the peak (`inPlaceVariants: 'where-needed'`); null: grant everywhere. */
  private needed: Set<number> | null = null;
  /** The final plan's steps (after `begin`). */
  private steps: ScheduleStep[] = [];

  constructor(
    readonly spec: ResolvedSchedule,
    private readonly plan: SchedulePlan,
  ) {}

  /** Before any node prepares: the patch stage (patch schedules), then the grant timeline (in-place schedules). */
  begin(): this {
    if (this.spec.patch) this.applyPatch();
    this.steps = this.plan.steps();
    if (this.spec.inPlace) this.startGrants();
    return this;
  }

  /** Chooses the patch stage and builds it into the entry subgraph. */
  private applyPatch(): void {
    const { plan } = this;
    const planSteps = plan.steps();
    const tensors = plan.tensors;
    const steps: SearchStep[] = planSteps.map((e) => {
      const reg = e.registration;
      const code = reg && !e.delegated && !e.invokesSubgraphs && reg.builtinCode !== BuiltinOperator.CUSTOM ? reg.builtinCode : -1;
      return { node: e.node, code, spatial: code >= 0 ? this.declaredSpatial(e) : null, inPlace: this.declaredVariant(e) };
    });
    const decision = this.spec.stage ? this.fixedDecision(steps) : this.searchDecision(steps);
    const base = {
      nodes: [],
      ops: [],
      inputs: [],
      output: -1,
      grid: null,
      buffers: [],
      planRange: null,
      evaluated: decision.evaluated,
    } as const;
    const macs = {
      model: decision.totalMacs,
      extra: decision.extraMacs,
      overhead: decision.totalMacs ? decision.extraMacs / decision.totalMacs : 0,
    };
    const estimate = { normalPeak: decision.normalPeak, peak: decision.estimatedPeak };
    if (!decision.stage) {
      this.patch = {
        ...base,
        nodes: [],
        ops: [],
        inputs: [],
        buffers: [],
        description: `no stage: ${decision.reason}`,
        reason: decision.reason!,
        macs,
        estimate,
      };
      return;
    }
    const s = decision.stage;
    const first = planSteps.findIndex((e) => e.node.index === s.firstNode && !e.delegated);
    const last = planSteps.findIndex((e) => e.node.index === s.lastNode && !e.delegated);
    const { lastUsed } = computeLifetimes(
      tensors.length,
      steps.map((st) => st.node),
      plan.inputs,
      plan.outputs,
    );
    const built = this.buildStage(steps, first, last, lastUsed, s.tileH, s.tileW);
    if (typeof built === 'string') {
      if (this.spec.stage) throw new ScheduleError(`the fixed patch stage cannot run: ${built}`);
      this.patch = {
        ...base,
        nodes: [],
        ops: [],
        inputs: [],
        buffers: [],
        description: `no stage: ${built}`,
        reason: built,
        macs: { ...macs, extra: 0, overhead: 0 },
        estimate: { ...estimate, peak: estimate.normalPeak },
      };
      return;
    }
    this.stage = built;
    const g = built.geometry;
    this.patch = {
      nodes: built.graph.nodes.map((n) => n.node.index),
      ops: built.graph.nodes.map((n) => builtinName(n.code)),
      description: built.describe(),
      inputs: [...built.graph.inputs],
      output: built.graph.output,
      grid: { rows: g.rows, cols: g.cols, tileH: g.tileH, tileW: g.tileW },
      buffers: g.buffers.map((b, k) => ({
        tensor: built.bufferTensors[k]!,
        of: b.root,
        shape: [b.batch, b.rows, b.cols, b.channels],
        bytes: b.bytes,
        crop: b.cropOf !== undefined,
      })),
      planRange: built.planRange,
      macs,
      estimate,
      evaluated: decision.evaluated,
    };
  }

  private buildStage(
    steps: readonly SearchStep[],
    first: number,
    last: number,
    lastUsed: Int32Array,
    tileH: number,
    tileW: number,
  ): PatchStage | string {
    if (first < 0 || last < 0 || last < first) return 'the stage nodes are not in the execution plan in order';
    const graph = stageOf(steps, this.plan, first, last, lastUsed);
    if (typeof graph === 'string') return graph;
    const geometry = stageGeometry(graph, this.plan.tensors, tileH, tileW);
    if (typeof geometry === 'string') return geometry;
    return PatchStage.build(this.plan, graph, geometry, first, last);
  }

  private searchDecision(steps: readonly SearchStep[]): PatchDecision {
    const r = searchPatchStage({
      steps,
      tensors: this.plan.tensors,
      graphInputs: this.plan.inputs,
      graphOutputs: this.plan.outputs,
      recomputeBudget: this.spec.recomputeBudget,
      maxGrid: this.spec.maxGrid,
    });
    const b = r.best;
    return {
      stage: b
        ? { firstNode: steps[b.first]!.node.index, lastNode: steps[b.last]!.node.index, tileH: b.geometry.tileH, tileW: b.geometry.tileW }
        : null,
      ...(b ? {} : { reason: r.reason! }),
      normalPeak: r.normalPeak,
      estimatedPeak: b ? b.estimatedPeak : r.normalPeak,
      totalMacs: r.totalMacs,
      extraMacs: b ? b.extraMacs : 0,
      evaluated: r.evaluated,
    };
  }

  private fixedDecision(steps: readonly SearchStep[]): PatchDecision {
    const f = this.spec.stage!;
    const { tensors } = this.plan;
    const pos = (node: number) => steps.findIndex((s) => s.node.index === node && s.code >= 0);
    const first = pos(f.firstNode);
    const last = pos(f.lastNode);
    if (first < 0) throw new ScheduleError(`stage.firstNode ${f.firstNode} is not a node of the entry subgraph's plan`);
    if (last < 0) throw new ScheduleError(`stage.lastNode ${f.lastNode} is not a node of the entry subgraph's plan`);
    if (last < first) throw new ScheduleError(`stage.lastNode ${f.lastNode} runs before stage.firstNode ${f.firstNode}`);
    const { live, lastUsed } = normalLiveBytes({ steps, tensors, graphInputs: this.plan.inputs, graphOutputs: this.plan.outputs });
    const graph = stageOf(steps, this.plan, first, last, lastUsed);
    if (typeof graph === 'string') throw new ScheduleError(`nodes ${f.firstNode}..${f.lastNode} cannot form a patch stage: ${graph}`);
    const out = tensors[graph.output]!;
    if (f.rows > out.dims[1]! || f.cols > out.dims[2]!)
      throw new ScheduleError(`a ${f.rows}x${f.cols} tile grid does not fit the stage output ${out.dims[1]}x${out.dims[2]}`);
    const g = stageGeometry(graph, tensors, Math.ceil(out.dims[1]! / f.rows), Math.ceil(out.dims[2]! / f.cols));
    if (typeof g === 'string') throw new ScheduleError(`nodes ${f.firstNode}..${f.lastNode} cannot run in ${f.rows}x${f.cols} tiles: ${g}`);
    let totalMacs = 0;
    for (const s of steps) if (s.code >= 0) totalMacs += nodeMacs(s.code, s.node, tensors);
    const normalPeak = live.reduce((a, b) => Math.max(a, b), 0);
    return {
      stage: { firstNode: f.firstNode, lastNode: f.lastNode, tileH: g.tileH, tileW: g.tileW },
      normalPeak,
      estimatedPeak: normalPeak,
      totalMacs,
      extraMacs: g.rows * g.cols * g.tileMacs - g.wholeMacs,
      evaluated: 0,
    };
  }

  /** What the step's kernel declares it does spatially (`Registration.spatial`); a throwing declaration is a reason. */
  private declaredSpatial(e: ScheduleStep): SearchStep['spatial'] {
    const reg = e.registration;
    if (!reg?.spatial) return null;
    try {
      return reg.spatial(this.plan.context, e.node);
    } catch (err) {
      return `its kernel's spatial() failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** The kernel's declared in-place variant of a step (in-place schedules), for the search's estimate. */
  private declaredVariant(e: ScheduleStep): SearchStep['inPlace'] {
    if (!this.spec.inPlace || !e.registration?.inPlaceVariant || !e.registration.useInPlaceVariant) return null;
    const v = e.registration.inPlaceVariant(this.plan.context, e.node);
    return v ? { input: v.input, tempBytes: v.scratchBytes } : null;
  }

  /**
   * Before nodes prepare (in-place schedules): the timeline of the final plan, for granting variants.
   * With `inPlaceVariants: 'where-needed'` (the default) a variant is granted only at a step whose live
   * bytes would otherwise stay above the peak that granting every declared variant reaches: elsewhere
   * it would cost time (one channel at a time) and save no arena. `'all'` grants every one that may run.
   */
  private startGrants(): void {
    const life = this.plan.lifetimes();
    if (!life) return;
    const { tensors } = this.plan;
    this.timeline = life;
    this.graphIo = new Set([...Array.from(this.plan.inputs), ...Array.from(this.plan.outputs)]);
    if (this.spec.inPlaceVariants === 'all') return;
    // Live bytes per step (planned tensors; scratch buffers are not known yet), and each declared
    // variant's saving where it may be granted.
    const n = this.steps.length;
    const times = life.stepStart;
    const last = times.length ? times[n - 1]! : 0;
    const delta = new Float64Array(last + 2);
    for (const t of tensors) {
      const bytes = plannedBytes(t);
      const a = life.firstCreated[t.index]!;
      const b = life.lastUsed[t.index]!;
      if (bytes === 0 || a < 0 || b < 0) continue;
      delta[a]! += bytes;
      delta[Math.min(b + 1, last + 1)]! -= bytes;
    }
    const liveAt = new Float64Array(last + 1);
    for (let t = 0, acc = 0; t <= last; t++) liveAt[t] = acc += delta[t]!;
    const saving = new Float64Array(n);
    let reachable = 0;
    for (let k = 0; k < n; k++) {
      const e = this.steps[k]!;
      const v = this.declaredVariant(e);
      const live = liveAt[times[k]!]!;
      if (v) {
        const x = e.node.inputs[v.input] ?? -1;
        const y = e.node.outputs[0] ?? -1;
        const input = x >= 0 ? tensors[x] : undefined;
        const output = y >= 0 ? tensors[y] : undefined;
        if (canGrantInPlaceVariant(input, output, times[k]!, life.firstCreated, life.lastUsed, this.graphIo, new Set()))
          saving[k] = Math.max(0, Math.min(plannedBytes(input!), plannedBytes(output!)) - alignUp(v.tempBytes));
      }
      reachable = Math.max(reachable, live - saving[k]!);
    }
    this.needed = new Set();
    for (let k = 0; k < n; k++) if (saving[k]! > 0 && liveAt[times[k]!]! > reachable) this.needed.add(k);
  }

  /** After an entry-subgraph node prepared at plan position `step`: grant its in-place variant when it may run. */
  afterPrepare(step: number): void {
    const e = this.steps[step];
    const reg = e?.registration;
    if (!e || !this.spec.inPlace || !this.timeline || !reg?.inPlaceVariant || !reg.useInPlaceVariant) return;
    if (this.needed && !this.needed.has(step)) return;
    const context = this.plan.context;
    const v = reg.inPlaceVariant(context, e.node);
    if (!v) return;
    const x = e.node.inputs[v.input];
    const y = e.node.outputs[0];
    if (x === undefined || y === undefined || x < 0 || y < 0) return;
    const tl = this.timeline;
    const input = context.getTensor(x);
    const output = context.getTensor(y);
    if (!canGrantInPlaceVariant(input, output, tl.stepStart[step]!, tl.firstCreated, tl.lastUsed, this.graphIo, this.taken)) return;
    reg.useInPlaceVariant(context, e.node);
    this.taken.add(x);
    this.grants.push({ step, input: x, output: y, scratchBytes: v.scratchBytes });
  }

  /** The in-place variants granted, for planning. */
  overwrites(): readonly GrantedOverwrite[] {
    return this.grants;
  }

  /** After planning: the stage's runner replaces its steps in the run list. */
  afterPlanning(): void {
    this.stage?.bind();
  }

  /** What the schedule did. */
  report(): ScheduleReport {
    return {
      name: this.spec.name,
      patch: this.patch,
      inPlace: this.spec.inPlace
        ? this.grants.map((g) => {
            const e = this.steps[g.step]!;
            return { node: e.node.index, op: e.op, input: g.input, output: g.output, scratchBytes: g.scratchBytes };
          })
        : null,
    };
  }
}

function builtinName(code: number): string {
  return BuiltinOperator[code] ?? `BUILTIN_${code}`;
}

function stageOf(steps: readonly SearchStep[], plan: SchedulePlan, first: number, last: number, lastUsed: Int32Array): StageGraph | string {
  return stageGraphOf(steps, describeSteps(steps, plan.tensors, plan.outputs), first, last, lastUsed, new Set(Array.from(plan.outputs)));
}

export type { StageGeometry };
