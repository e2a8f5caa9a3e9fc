/**
 * One allocateTensors() of a MicroInterpreter (or one checkModel pass): the allocator, the graph layer,
 * the context, and the lifecycle TFLM's
 * MicroInterpreter::AllocateTensors runs — resolve → init → delegates → prepare → plan — collecting
 * every node's outcome on the way (see check-report.ts).
 */
import { ArenaLimitError, DelegateError, KernelError, MicrortError, UnsupportedOpError } from '../errors.js';
import { MicroAllocator, type SubgraphPlanSteps } from '../arena/micro-allocator.js';
import { kernelInPlaceInputs } from '../arena/in-place.js';
import type { PlanStep } from '../arena/lifetimes.js';
import type { SingleArenaBufferAllocator } from '../arena/single-arena-buffer-allocator.js';
import { BuiltinOperator } from '../builtin-ops.js';
import type { Delegate } from '../delegate/delegate.js';
import { partitionGraphIntoIndependentNodeSubsets, type NodeSubset } from '../delegate/partition.js';
import { markModelLifetimes, type LifetimeStep, type ModelLifetimes } from '../graph/allocation-info.js';
import { NodeImpl, type PlanEntry } from '../graph/graph-node.js';
import { MicroInterpreterGraph, type NodeFailure, type NodeResolution, type Subgraph } from '../graph/micro-graph.js';
import { DEFAULT_RESOURCE_VARIABLE_SLOTS, MicroResourceVariables } from '../graph/resource-variables.js';
import { Phase, type DelegateParams, type NodeAndRegistration, type Registration } from '../kernel/api.js';
import type { ArenaRegion } from '../kernel/arena-region.js';
import { AllocationType, type Tensor } from '../kernel/tensor.js';
import type { ModelDef } from '../model/model-def.js';
import { readOfflineMemoryAllocation } from '../model/offline-plan.js';
import type { OpResolver } from '../resolver/op-resolver.js';
import type { ScheduleRun } from '../schedule/schedule-run.js';
import { tensorTypeName } from '../types.js';
import { groupByOp, moreFailuresNote, type CheckReport, type CheckTensor, type NodeCheck } from './check-report.js';
import { MicroContext, type ContextHost } from './micro-context.js';
import type { InterpreterOptions, PartitionInfo, TensorOwner } from './micro-interpreter.js';

const NONE = new Int32Array(0);

/** One allocation attempt's state. */
export class Allocation implements ContextHost {
  readonly allocator: MicroAllocator;
  readonly context: MicroContext;
  readonly graph: MicroInterpreterGraph;
  readonly partitions: PartitionInfo[] = [];
  readonly errors: string[] = [];
  /** Tensor index → owning delegate node, for delegate-node outputs (entry subgraph). */
  readonly tensorOwners = new Map<number, TensorOwner>();
  /** Arena bytes of the resource-variable slot table (0 without resource variables). */
  resourceVariableTableBytes = 0;
  private currentDelegate: Delegate | null = null;
  /** The schedule applied by prepareAll (null: the normal schedule). */
  schedule: ScheduleRun | null = null;

  constructor(
    readonly model: ModelDef,
    readonly options: InterpreterOptions,
    arena: SingleArenaBufferAllocator,
  ) {
    const entry = options.subgraph ?? 0;
    this.allocator = new MicroAllocator(model, entry, arena);
    this.context = new MicroContext(this);
    this.graph = new MicroInterpreterGraph(model, this.context, this.allocator.subgraphTensors, entry);
    this.graph.profiler = options.profiler ?? null;
  }

  /** The entry subgraph (the one the interpreter runs; delegates apply to it). */
  get entry(): Subgraph {
    return this.graph.subgraphs[this.graph.entry]!;
  }

  get tensors(): readonly Tensor[] {
    return this.entry.tensors;
  }

  // --- ContextHost ------------------------------------------------------------------------------------

  allocatePersistentBuffer(bytes: number): ArenaRegion {
    const cur = this.graph.current;
    const e = cur.entry;
    if (!e) return this.allocator.allocatePersistentBuffer(bytes, 'persistent buffer');
    const where = cur.subgraph === 0 ? `node ${e.node.index}` : `node ${e.node.index} of subgraph ${cur.subgraph}`;
    return this.allocator.allocatePersistentBuffer(bytes, `persistent buffer for ${where} (${e.op})`, [cur.subgraph, e.node.index]);
  }
  requestScratchBuffer(bytes: number): number {
    const cur = this.graph.current;
    if (cur.step < 0 || !cur.entry) throw new MicrortError("requestScratchBufferInArena called outside a node's prepare");
    return this.allocator.requestScratchBuffer(bytes, cur.step, cur.entry.node.index, cur.subgraph);
  }
  scratchRegion(index: number): ArenaRegion | undefined {
    return this.allocator.scratch[index]?.region ?? undefined;
  }
  executionPlan(): Int32Array {
    return Int32Array.from(this.entry.plan);
  }
  nodeAndRegistration(nodeIndex: number): NodeAndRegistration {
    const e = this.entry.entries[nodeIndex];
    if (!e || !e.registration)
      throw new MicrortError(`getNodeAndRegistration(${nodeIndex}): no such node (there are ${this.entry.entries.length})`);
    return { node: e.node, registration: e.registration };
  }
  externalContext(key: string): unknown {
    return this.options.externalContexts?.[key];
  }
  recordError(message: string): void {
    this.errors.push(message);
  }

  /** Delegate prepare: partition the entry subgraph and replace claimed subsets with delegate nodes. */
  replaceNodeSubsets(registration: Registration, nodesToReplace: ArrayLike<number>, delegate: unknown): void {
    const sg = this.entry;
    const d = (delegate ?? this.currentDelegate) as Delegate | null;
    const name = d?.name ?? 'delegate';
    const inPlan = new Set(sg.plan);
    const opts = this.options.delegateOptions ?? {};
    const exclude = new Set(opts.excludeNodes ?? []);
    let claimed = new Set<number>();
    for (let i = 0; i < nodesToReplace.length; i++) {
      const n = nodesToReplace[i]!;
      if (!inPlan.has(n)) throw new DelegateError(`delegate ${name} claimed node ${n}, which is not in the execution plan`);
      if (sg.entries[n]!.delegate) throw new DelegateError(`delegate ${name} claimed node ${n}, which is already a delegate node`);
      if (sg.entries[n]!.invokes.length)
        throw new DelegateError(
          `delegate ${name} claimed node ${n} (${sg.entries[n]!.op}), which invokes subgraphs: control flow stays with the interpreter`,
        );
      if (!exclude.has(n)) claimed.add(n);
    }
    const tensorCount = sg.tensors.length;
    const outputs = sg.outputs;
    const getNode = (i: number) => sg.entries[i]!.node;
    let subsets: NodeSubset[] = [];
    // Apply minPartitionSize / maxPartitions, re-partitioning until the claimed set is stable.
    for (let iter = 0; iter < 16; iter++) {
      subsets = partitionGraphIntoIndependentNodeSubsets(sg.plan, getNode, claimed, tensorCount, outputs);
      let kept = subsets.filter((s) => s.delegated && s.nodes.length >= (opts.minPartitionSize ?? 1));
      if (opts.maxPartitions !== undefined && kept.length > opts.maxPartitions)
        kept = [...kept]
          .sort((a, b) => b.nodes.length - a.nodes.length || a.nodes[0]! - b.nodes[0]!)
          .slice(0, Math.max(0, opts.maxPartitions));
      const next = new Set(kept.flatMap((s) => s.nodes));
      if (next.size === claimed.size) break;
      claimed = next;
    }
    const newPlan: number[] = [];
    for (const s of subsets) {
      if (!s.delegated) {
        newPlan.push(...s.nodes);
        continue;
      }
      const index = sg.entries.length;
      const node = new NodeImpl(index, Int32Array.from(s.inputTensors), Int32Array.from(s.outputTensors), new Int32Array(0), null, null);
      node.delegate = d;
      const params: DelegateParams = {
        delegate: d,
        nodesToReplace: Int32Array.from(s.nodes),
        inputTensors: Int32Array.from(s.inputTensors),
        outputTensors: Int32Array.from(s.outputTensors),
      };
      const exported = new Set(s.outputTensors);
      const internalTensors: number[] = [];
      for (const n of s.nodes) {
        const outs = sg.entries[n]!.node.outputs;
        for (let k = 0; k < outs.length; k++) if (outs[k]! >= 0 && !exported.has(outs[k]!)) internalTensors.push(outs[k]!);
      }
      const hasHooks = !!d && (!!d.copyToBufferHandle || !!d.copyFromBufferHandle || !!d.freeBufferHandle);
      const entry: PlanEntry = {
        node,
        registration,
        op: registration.name ?? `DELEGATE:${name}`,
        version: 1,
        declinedBy: [],
        initialized: false,
        invokes: NONE,
        delegate: { name, nodes: s.nodes },
        internalTensors,
        keepInternal: !!d?.flags?.keepInternalTensorsInArena,
        sync: hasHooks
          ? {
              delegate: d!,
              toHandles: Int32Array.from(s.inputTensors.filter((t) => !sg.tensors[t]!.isConstant)),
              fromHandles: Int32Array.from(s.outputTensors),
            }
          : null,
      };
      // init runs now, as TFLite's AddNodeWithParameters does; the context stays in the delegate phase.
      // The entry joins the node list only once init succeeded, so a failed allocation frees only what
      // was initialized.
      this.graph.current.entry = entry;
      node.userData = registration.init ? registration.init(this.context, params) : undefined;
      this.graph.current.entry = null;
      entry.initialized = true;
      sg.entries.push(entry);
      newPlan.push(index);
      this.partitions.push({
        delegate: name,
        nodeIndex: index,
        nodes: s.nodes,
        inputTensors: s.inputTensors,
        outputTensors: s.outputTensors,
        internalTensors,
      });
      for (const t of s.outputTensors) this.tensorOwners.set(t, { delegate: name, nodeIndex: index });
    }
    sg.plan = newPlan;
  }

  // --- the lifecycle ----------------------------------------------------------------------------------

  /**
   * StartModelAllocation → resolve → init → delegates → prepare, collecting every node's outcome.
   * Returns the report; the caller decides whether failures are fatal (allocateTensors) or reported
   * (checkModel). `inPlace` receives, per entry-subgraph step, the inputs its kernel lets output 0
   * share (when the interpreter's `inPlace` option is on).
   */
  prepareAll(
    resolver: OpResolver,
    inPlace: (number[] | null)[] | null,
    collectSupportsErrors = false,
    schedule: ScheduleRun | null = null,
  ): CheckReport {
    const { graph, allocator, context: ctx } = this;
    allocator.startModelAllocation();
    const slots = this.options.resourceVariables ?? (hasVarHandle(this.model) ? DEFAULT_RESOURCE_VARIABLE_SLOTS : 0);
    if (slots > 0) {
      const rv = new MicroResourceVariables(slots, (bytes, what) => allocator.arena.allocatePersistent(bytes, what));
      this.resourceVariableTableBytes = rv.tableBytes;
      graph.resourceVariables = rv;
    }
    const failures: NodeFailure[] = [];
    const resolutions = graph.resolveAll(resolver, collectSupportsErrors ? (f) => failures.push(f) : undefined);
    const prepared = new Set<PlanEntry>();
    let stopped: Error | null = null;
    try {
      graph.initSubgraphs((f) => failures.push(f));
      const allReady = resolutions.every((r) => r.entry.registration && r.entry.initialized);
      // Delegates inspect every node of the entry subgraph: only when each has its kernel.
      if (allReady && this.options.delegates?.length) {
        ctx.phase = Phase.Prepare;
        for (const d of this.options.delegates) this.runDelegatePrepare(d);
      }
      const entryIndex = graph.entry;
      // The schedule rewrites the entry plan (patch stage) before any node prepares, and grants kernels'
      // in-place variants on the final plan's timeline as they prepare.
      if (schedule && allReady) {
        ctx.phase = Phase.Prepare;
        this.schedule = schedule;
        schedule.applyPatch({ sg: this.entry, graph, context: ctx }, resolver);
        if (schedule.spec.inPlace) schedule.startGrants(this.timeline(), entryIndex, this.entry, ctx);
      }
      graph.prepareSubgraphs(
        (f) => {
          failures.push(f);
          allocator.arena.resetTempAllocations();
        },
        (sg, entry, step) => {
          prepared.add(entry);
          if (inPlace && sg.index === entryIndex) inPlace[step] = kernelInPlaceInputs(entry.registration!, ctx, entry.node);
          if (this.schedule && sg.index === entryIndex) this.schedule.afterPrepare(ctx, entry, step);
          allocator.arena.resetTempAllocations();
        },
      );
    } catch (e) {
      if (!(e instanceof ArenaLimitError)) throw e;
      stopped = e;
    } finally {
      ctx.phase = Phase.Idle;
    }
    return this.buildReport(resolutions, failures, prepared, stopped);
  }

  /** The model's timeline over the current execution plans (graph/allocation-info.ts). */
  timeline(): ModelLifetimes {
    const entryIndex = this.graph.entry;
    return markModelLifetimes(
      this.graph.lifetimeSubgraphs((sg, k) => this.stepOf(sg, k)),
      entryIndex,
    );
  }

  private stepOf(sg: Subgraph, k: number): LifetimeStep {
    const e = sg.entries[sg.plan[k]!]!;
    const base: PlanStep = sg.index === this.graph.entry ? this.planStep(e) : e.node;
    return { inputs: base.inputs, outputs: base.outputs, invokes: e.invokes, index: e.node.index } as LifetimeStep;
  }

  /** FinishModelAllocation: the model's timeline, then every reached subgraph planned in the one head. */
  planAll(inPlace: (number[] | null)[] | null): void {
    const { graph, allocator, context: ctx } = this;
    ctx.phase = Phase.MemoryPlanning;
    try {
      const entryIndex = graph.entry;
      const stepOf = (sg: Subgraph, k: number): LifetimeStep => this.stepOf(sg, k);
      const lifetimes = this.timeline();
      const plans: (SubgraphPlanSteps | null)[] = graph.subgraphs.map((sg) => {
        sg.planned = lifetimes.subgraphs[sg.index] !== null;
        if (!sg.planned) return null;
        const offline =
          sg.index === entryIndex && this.options.offlineOffsets !== undefined
            ? this.options.offlineOffsets
            : this.options.offlineOffsets === null
              ? null
              : readOfflineMemoryAllocation(this.model, sg.index);
        return { steps: sg.plan.map((_, k) => stepOf(sg, k)), offlineOffsets: offline };
      });
      allocator.finishModelAllocation(lifetimes, this.options.planner, plans, inPlace, this.schedule?.grants ?? []);
      this.markDelegateTensors();
      graph.finalizePlans();
      this.schedule?.bind();
    } finally {
      ctx.phase = Phase.Idle;
    }
  }

  /** Frees every initialized node (after a failed attempt, or on dispose). */
  freeAll(): void {
    this.graph.freeSubgraphs();
  }

  /**
   * The step the planner sees for entry `e`: the node itself, or for a delegate node that keeps its
   * subset's internal tensors in the arena, the node with those tensors as extra outputs (live during
   * its step only).
   */
  private planStep(e: PlanEntry): PlanStep {
    if (!e.keepInternal || !e.internalTensors?.length) return e.node;
    return { inputs: e.node.inputs, outputs: [...Array.from(e.node.outputs), ...e.internalTensors] };
  }

  /** Marks internal tensors of delegated subsets that got no arena space as delegate-owned. */
  private markDelegateTensors(): void {
    const sg = this.entry;
    for (const i of sg.plan) {
      const e = sg.entries[i]!;
      if (!e.internalTensors || e.keepInternal) continue;
      for (const t of e.internalTensors) {
        const tensor = sg.tensors[t]!;
        if (tensor.allocationType === AllocationType.None) tensor.allocationType = AllocationType.Delegate;
      }
    }
  }

  private runDelegatePrepare(delegate: Delegate): void {
    this.currentDelegate = delegate;
    this.context.delegatePreparing = true;
    try {
      delegate.prepare(this.context, delegate);
    } finally {
      this.context.delegatePreparing = false;
      this.currentDelegate = null;
    }
  }

  private buildReport(
    resolutions: NodeResolution[],
    failures: NodeFailure[],
    prepared: Set<PlanEntry>,
    stopped: Error | null,
  ): CheckReport {
    const failed = new Map<PlanEntry, NodeFailure>();
    for (const f of failures) if (!failed.has(f.entry)) failed.set(f.entry, f);
    const delegatedTo = new Map<number, string>();
    for (const p of this.partitions) for (const n of p.nodes) delegatedTo.set(n, p.delegate);
    const nodes: NodeCheck[] = resolutions.map(({ subgraph, entry, resolution }) => {
      const tensors = this.graph.subgraphs[subgraph]!.tensors;
      const n: NodeCheck = {
        subgraph,
        index: entry.node.index,
        op: entry.op,
        version: entry.version,
        inputs: describeTensors(tensors, entry.node.inputs),
        outputs: describeTensors(tensors, entry.node.outputs),
        status: 'ok',
      };
      const declined = (resolution?.tried ?? [])
        .filter((t) => !t.accepted)
        .map((t) => (t.reason ? { provider: t.provider, kernel: t.name, reason: t.reason } : { provider: t.provider, kernel: t.name }));
      if (declined.length) n.declined = declined;
      // A node the patch schedule replaced by a tile node: that node's outcome is this node's.
      const tile = this.schedule?.replacement(entry);
      const f = failed.get(entry) ?? (tile ? failed.get(tile) : undefined);
      if (f && f.phase === 'supports') {
        n.status = 'prepare-failed';
        n.error = { phase: 'supports', name: f.error.name, message: f.error instanceof KernelError ? f.error.detail : f.error.message };
      } else if (!resolution) {
        n.status = 'no-provider';
      } else if (!resolution.registration) {
        n.status = 'declined';
      } else {
        n.provider = resolution.registration.provider ?? 'unknown';
        n.kernel = resolution.registration.name ?? entry.op;
        if (f) {
          n.status = 'prepare-failed';
          const err = f.error;
          n.error = { phase: f.phase, name: err.name, message: err instanceof KernelError ? err.detail : err.message };
        } else if (subgraph === this.graph.entry && delegatedTo.has(entry.node.index)) {
          n.delegate = delegatedTo.get(entry.node.index)!;
        } else if (!prepared.has(entry) && !(tile && prepared.has(tile))) {
          // Not prepared: the pass stopped early, or a node of the same subgraph ran into the arena limit.
          n.status = 'not-prepared';
        }
      }
      return n;
    });
    const failingCount = nodes.filter((n) => n.status !== 'ok').length;
    const report: CheckReport = {
      ok: failingCount === 0 && !stopped,
      subgraphs: this.model.subgraphs.length,
      nodeCount: nodes.length,
      failingCount,
      nodes,
      ops: groupByOp(nodes),
    };
    if (stopped) report.stopped = { name: stopped.name, message: stopped.message };
    (report as { failures?: NodeFailure[] }).failures = failures; // for errorFromReport, not enumerable below
    Object.defineProperty(report, 'failures', { enumerable: false });
    if (stopped) Object.defineProperty(report, 'stoppedError', { value: stopped, enumerable: false });
    return report;
  }
}

/**
 * The error allocateTensors() throws for a report that is not ok: UnsupportedOpError when some node has
 * no provider that takes it; else the prepare failure itself when there is one (with the report
 * attached), or a KernelError naming the first and counting the others; else the error that stopped
 * preparation.
 */
export function errorFromReport(report: CheckReport): Error {
  const failures = (report as { failures?: NodeFailure[] }).failures ?? [];
  const unresolved = report.nodes.find((n) => n.status === 'no-provider' || n.status === 'declined');
  if (unresolved) return new UnsupportedOpError(unresolved.op, unresolved.version, unresolved.index, '', report, unresolved.subgraph);
  if (failures.length === 1) {
    const err = failures[0]!.error;
    if (err instanceof KernelError) err.report = report;
    return err;
  }
  if (failures.length > 1) {
    const f = failures[0]!;
    const detail = f.error instanceof KernelError ? f.error.detail : f.error.message;
    const op = f.error instanceof KernelError ? f.error.op : f.entry.op;
    const err = new KernelError(
      op,
      f.entry.node.index,
      `${detail} ${moreFailuresNote(report, f.subgraph, f.entry.node.index)}`,
      f.subgraph,
    );
    err.report = report;
    (err as { cause?: unknown }).cause = f.error;
    return err;
  }
  // The error that stopped preparation (e.g. ArenaLimitError, ArenaTooSmallError), itself: its type and
  // numbers are what the caller needs; only a report without it (deserialized) gets a generic error.
  const stoppedError = (report as { stoppedError?: Error }).stoppedError;
  if (stoppedError) return stoppedError;
  const s = report.stopped;
  return new MicrortError(s ? `${s.name}: ${s.message}` : 'allocation failed');
}

function describeTensors(tensors: readonly Tensor[], indices: Int32Array): CheckTensor[] {
  return Array.from(indices, (i) => {
    const t = i >= 0 ? tensors[i] : undefined;
    return t ? { index: i, type: tensorTypeName(t.type), shape: Array.from(t.dims) } : { index: i, type: '-', shape: [] };
  });
}

function hasVarHandle(model: ModelDef): boolean {
  const codes = new Set<number>();
  model.operatorCodes.forEach((c, i) => {
    if (c.builtinCode === BuiltinOperator.VAR_HANDLE) codes.add(i);
  });
  if (!codes.size) return false;
  return model.subgraphs.some((sg) => sg.operators.some((op) => codes.has(op.opcodeIndex)));
}
