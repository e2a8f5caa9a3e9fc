/**
 * One allocateTensors() of a MicroInterpreter (or one preparation pass of checkModel): TFLM's
 * MicroInterpreter::AllocateTensors — StartModelAllocation → resolve → init → delegates → schedule →
 * prepare → FinishModelAllocation — over the allocator, the graph layer and the context it owns. The
 * other jobs live beside it: context-host.ts (the callbacks kernels reach), delegate-subsets.ts
 * (delegate partitioning), schedule-hook.ts (where a schedule plugs in) and node-outcomes.ts (every
 * node's outcome, and the error allocateTensors throws).
 */
import { ArenaLimitError } from '../errors.js';
import { MicroAllocator, type SubgraphPlanSteps } from '../arena/micro-allocator.js';
import { kernelInPlaceInputs } from '../arena/in-place.js';
import type { PlanStep } from '../arena/lifetimes.js';
import type { SingleArenaBufferAllocator } from '../arena/single-arena-buffer-allocator.js';
import { BuiltinOperator } from '../builtin-ops.js';
import { markModelLifetimes, type LifetimeStep, type ModelLifetimes } from '../graph/allocation-info.js';
import { runsAtInvoke, type PlanEntry } from '../graph/graph-node.js';
import { MicroInterpreterGraph, type NodeFailure, type Subgraph } from '../graph/micro-graph.js';
import { DEFAULT_RESOURCE_VARIABLE_SLOTS, MicroResourceVariables } from '../graph/resource-variables.js';
import { Phase } from '../kernel/api.js';
import type { Tensor } from '../kernel/tensor.js';
import type { ModelDef } from '../model/model-def.js';
import { readOfflineMemoryAllocation } from '../model/offline-plan.js';
import type { OpResolver } from '../resolver/op-resolver.js';
import { AllocationContextHost } from './context-host.js';
import type { Delegate } from '../delegate/delegate.js';
import { DelegateSubsets, type SkippedDelegate } from './delegate-subsets.js';
import type { InterpreterOptions } from './micro-interpreter.js';
import { MicroContext } from './micro-context.js';
import { buildOutcome, type PrepareOutcome } from './node-outcomes.js';
import { EntryPlanEditor, type Schedule, type ScheduleRun } from './schedule-hook.js';
import { ConstantFolder } from './folding.js';
import { PadAbsorber } from './pad-absorption.js';
import { checkDataDependentInputs, shapeNotes } from './shapes.js';

/** What a preparation pass does besides init and prepare. */
export interface PrepareOptions {
  /**
   * Per entry-subgraph step, receives the inputs its kernel lets output 0 share (in-place planning), or
   * null when in-place planning is off.
   */
  inPlace: (number[] | null)[] | null;
  /** Record a provider's throwing `supports()` as the node's failure instead of throwing (checkModel). */
  collectSupportsErrors?: boolean;
  /** The schedule to apply (null: TFLM's). */
  schedule?: Schedule | null;
}

/** One allocation's state: allocator, context, graph layer, delegates and schedule. */
export class Allocation {
  readonly allocator: MicroAllocator;
  readonly host: AllocationContextHost;
  readonly context: MicroContext;
  readonly graph: MicroInterpreterGraph;
  readonly delegates: DelegateSubsets;
  /** Arena bytes of the resource-variable slot table (0 without resource variables). */
  resourceVariableTableBytes = 0;
  /** The schedule's run of this allocation (null: the normal schedule). */
  schedule: ScheduleRun | null = null;
  /** Nodes evaluated during prepare and their outputs (interpreter/folding.ts). */
  readonly folder: ConstantFolder;
  /** PADs absorbed into their consumers' windows during prepare (interpreter/pad-absorption.ts). */
  readonly absorber: PadAbsorber;
  private editor: EntryPlanEditor | null = null;

  /** Delegates this allocation did not apply, and why (see `staticOnlySkip`). */
  readonly skippedDelegates: SkippedDelegate[] = [];

  constructor(
    readonly model: ModelDef,
    readonly options: InterpreterOptions,
    arena: SingleArenaBufferAllocator,
    /** Graph-input dims set by `resizeInputTensor` (entry-subgraph tensor index → dims). */
    private readonly inputDims?: ReadonlyMap<number, Int32Array>,
  ) {
    const entry = options.subgraph ?? 0;
    this.allocator = new MicroAllocator(model, entry, arena, inputDims);
    this.host = new AllocationContextHost(this.allocator, options.externalContexts, options.shapes);
    this.context = new MicroContext(this.host);
    this.context.shapeRule = options.shapes ?? 'computed';
    this.graph = new MicroInterpreterGraph(model, this.context, this.allocator.subgraphTensors, entry);
    this.graph.profiler = options.profiler ?? null;
    this.delegates = new DelegateSubsets(this.graph, this.context, options.delegateOptions);
    this.host.attach(this.graph, this.delegates);
    // a plan entry's builtin code from the model (-1 for delegate nodes and nodes a schedule added)
    const builtinCode = (sg: Subgraph, e: PlanEntry): number => {
      const op = sg.def.operators[e.node.index];
      return op && sg.entries[e.node.index] === e ? model.operatorCodes[op.opcodeIndex]!.builtinCode : -1;
    };
    const hasScratch = (subgraph: number, step: number): boolean =>
      this.allocator.scratch.some((r) => r.subgraph === subgraph && r.step === step);
    this.folder = new ConstantFolder(this.context, builtinCode, hasScratch);
    this.absorber = new PadAbsorber(this.graph, {
      builtinCode,
      prepared: (e) => this.prepared.has(e),
      blocked: (subgraph) => this.absorptionBlocked(subgraph),
      hasScratch,
      onAbsorbed: (sg, step) => {
        if (sg.index === this.graph.entry && this.inPlace) this.inPlace[step] = null;
      },
    });
    this.host.absorber = this.absorber;
  }

  /** Entries that prepared successfully in this pass (PAD absorption asks). */
  private readonly prepared = new Set<PlanEntry>();
  /** The in-place candidates of the pass being prepared (null: in-place planning off). */
  private inPlace: (number[] | null)[] | null = null;
  /** Per subgraph: why no PAD may be absorbed into it (computed on first ask). */
  private readonly blockedWhy = new Map<number, string | null>();

  /**
   * Why absorbing a PAD in subgraph `subgraph` is not allowed: a schedule (it may rewrite or tile the
   * PAD), or offline offsets for the subgraph (they were computed with the PAD's source dying at the PAD).
   */
  private absorptionBlocked(subgraph: number): string | null {
    let why = this.blockedWhy.get(subgraph);
    if (why !== undefined) return why;
    why = null;
    if (this.options.schedule) why = 'a schedule is applied';
    else if (this.offlineOffsetsOf(subgraph)) why = 'the subgraph has an offline memory plan';
    this.blockedWhy.set(subgraph, why);
    return why;
  }

  /** The offline offsets planning uses for subgraph `index` (option, else the model's metadata), or null. */
  private offlineOffsetsOf(index: number): Int32Array | null {
    const opt = this.options.offlineOffsets;
    if (index === this.graph.entry && opt !== undefined) return opt;
    return opt === null ? null : readOfflineMemoryAllocation(this.model, index);
  }

  /**
   * Why delegate `d` is not applied, or null. A delegate without `flags.allowDynamicTensors` partitions
   * the graph by the shapes it reads before any node prepares; after `resizeInputTensor` those are the
   * file's, stale past the resized inputs, until the kernels' prepare computes them. TFLite does not apply
   * such a delegate to a graph whose shapes are not static either (ModifyGraphWithDelegate's
   * kTfLiteApplicationError), and its nodes then run on the kernels.
   */
  private staticOnlySkip(d: Delegate): string | null {
    if (d.flags?.allowDynamicTensors || !this.inputDims?.size) return null;
    const resized = [...this.inputDims.keys()].join(', ');
    return `graph input tensor ${resized} resized, and delegate ${d.name} does not allow dynamic tensors (it plans with the file's shapes): its nodes run on the kernels`;
  }

  /** The entry subgraph (the one the interpreter runs; delegates and schedules apply to it). */
  get entry(): Subgraph {
    return this.graph.subgraphs[this.graph.entry]!;
  }

  get tensors(): readonly Tensor[] {
    return this.entry.tensors;
  }

  /**
   * StartModelAllocation → resolve → init → delegates → schedule → prepare, collecting every node's
   * outcome. The caller decides whether failures are fatal (allocateTensors: `allocationError`) or
   * reported (checkModel).
   */
  prepareAll(resolver: OpResolver, options: PrepareOptions): PrepareOutcome {
    const { graph, allocator, context: ctx } = this;
    const { inPlace } = options;
    allocator.startModelAllocation(this.options.stringInputBytes);
    const slots = this.options.resourceVariables ?? (hasVarHandle(this.model) ? DEFAULT_RESOURCE_VARIABLE_SLOTS : 0);
    if (slots > 0) {
      const rv = new MicroResourceVariables(slots, (bytes, what) => allocator.arena.allocatePersistent(bytes, what));
      this.resourceVariableTableBytes = rv.tableBytes;
      graph.resourceVariables = rv;
    }
    const failures: NodeFailure[] = [];
    const resolutions = graph.resolveAll(resolver, options.collectSupportsErrors ? (f) => failures.push(f) : undefined);
    const byEntry = new Map(resolutions.map((r) => [r.entry, r]));
    const prepared = this.prepared;
    prepared.clear();
    this.inPlace = inPlace;
    let stopped: Error | null = null;
    try {
      graph.initSubgraphs((f) => failures.push(f));
      const allReady = resolutions.every((r) => r.entry.registration && r.entry.initialized);
      // Delegates inspect every node of the entry subgraph: only when each has its kernel.
      if (allReady && this.options.delegates?.length) {
        ctx.phase = Phase.Prepare;
        for (const d of this.options.delegates) {
          const skip = this.staticOnlySkip(d);
          if (skip) this.skippedDelegates.push({ delegate: d.name, reason: skip });
          else this.delegates.prepare(d);
        }
      }
      const entryIndex = graph.entry;
      // The schedule may rewrite the entry plan before any node prepares.
      if (options.schedule && allReady) {
        ctx.phase = Phase.Prepare;
        this.editor = new EntryPlanEditor(this.entry, graph, ctx, resolver, () => this.timeline());
        this.schedule = options.schedule.begin(this.editor);
      }
      const run = this.schedule;
      const fold = (this.options.shapes ?? 'computed') === 'computed';
      graph.prepareSubgraphs(
        (f) => {
          failures.push(f);
          if (f.phase === 'prepare') this.absorber.undo(f.entry);
          allocator.arena.resetTempAllocations();
        },
        (sg, entry, step) => {
          prepared.add(entry);
          const folded = fold && this.folder.tryFold(sg, entry, step);
          if (sg.index === entryIndex) {
            if (inPlace) inPlace[step] = folded ? null : kernelInPlaceInputs(entry.registration!, ctx, entry.node);
            run?.afterPrepare?.(step);
          }
          allocator.arena.resetTempAllocations();
        },
        (sg, entry) => {
          // A node whose kernel cannot take a data-dependent input goes to a later provider that can.
          const r = byEntry.get(entry);
          const switched = graph.reresolveForDataDependentInputs(resolver, sg, entry, r?.resolution ?? null);
          if (switched && r) r.resolution = switched;
          checkDataDependentInputs(sg, entry);
          // A node core will fold must not keep a kernel that can only address the arena's memory.
          const foldable = fold && this.folder.foldable(sg, entry);
          const moved = graph.reresolveForFolding(resolver, sg, entry, r?.resolution ?? null, foldable);
          if (moved && r) r.resolution = moved;
        },
      );
      this.folder.place(graph.subgraphs, allocator.arena);
    } catch (e) {
      if (!(e instanceof ArenaLimitError)) throw e;
      stopped = e;
    } finally {
      ctx.phase = Phase.Idle;
    }
    const editor = this.editor;
    const outcome = buildOutcome({
      tensors: allocator.subgraphTensors,
      entry: graph.entry,
      resolutions,
      failures,
      prepared,
      stopped,
      delegatedTo: this.delegates.delegatedNodes(),
      replacementOf: (e) => editor?.replacementOf(e),
    });
    const notes = shapeNotes(this.model, graph.subgraphs, graph.entry, this.folder.tensors);
    if (notes.length) outcome.report.shapes = notes;
    return outcome;
  }

  /** The model's timeline over the current execution plans (graph/allocation-info.ts). */
  timeline(): ModelLifetimes {
    return markModelLifetimes(
      this.graph.lifetimeSubgraphs((sg, k) => this.stepOf(sg, k)),
      this.graph.entry,
    );
  }

  private stepOf(sg: Subgraph, k: number): LifetimeStep {
    const e = sg.entries[sg.plan[k]!]!;
    const base: PlanStep = !runsAtInvoke(e) ? FOLDED_STEP : sg.index === this.graph.entry ? this.delegates.planStep(e) : e.node;
    return { inputs: base.inputs, outputs: base.outputs, invokes: e.invokes, index: e.node.index } as LifetimeStep;
  }

  /** FinishModelAllocation: the model's timeline, then every reached subgraph planned in the one head. */
  planAll(inPlace: (number[] | null)[] | null): void {
    const { graph, allocator, context: ctx } = this;
    ctx.phase = Phase.MemoryPlanning;
    try {
      const lifetimes = this.timeline();
      const plans: (SubgraphPlanSteps | null)[] = graph.subgraphs.map((sg) => {
        sg.planned = lifetimes.subgraphs[sg.index] !== null;
        if (!sg.planned) return null;
        return { steps: sg.plan.map((_, k) => this.stepOf(sg, k)), offlineOffsets: this.offlineOffsetsOf(sg.index) };
      });
      allocator.finishModelAllocation(lifetimes, this.options.planner, plans, inPlace, this.schedule?.overwrites?.() ?? []);
      this.delegates.markDelegateTensors();
      graph.finalizePlans();
      this.editor?.planningDone();
      this.schedule?.afterPlanning?.();
    } finally {
      ctx.phase = Phase.Idle;
    }
  }

  /** Frees every initialized node (after a failed attempt, or on dispose). */
  freeAll(): void {
    this.graph.freeSubgraphs();
  }
}

/** What a folded (or absorbed) node reads and writes on the timeline: nothing (its outputs are constants, or never planned). */
const FOLDED_STEP: PlanStep = { inputs: new Int32Array(0), outputs: new Int32Array(0) };

function hasVarHandle(model: ModelDef): boolean {
  const codes = new Set<number>();
  model.operatorCodes.forEach((c, i) => {
    if (c.builtinCode === BuiltinOperator.VAR_HANDLE) codes.add(i);
  });
  if (!codes.size) return false;
  return model.subgraphs.some((sg) => sg.operators.some((op) => codes.has(op.opcodeIndex)));
}
