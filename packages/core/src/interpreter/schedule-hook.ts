/**
 * The hook through which a schedule plugs into allocateTensors (interpreter option `schedule`). A
 * schedule changes which buffers are live when, never the bytes of any output: it may rewrite the entry
 * subgraph's execution plan before nodes prepare (e.g. run a stage of nodes tile by tile), grant kernels'
 * in-place variants as they prepare, and change the run list after planning. Core implements none;
 * `@micrort/schedules` provides the in-place and patch schedules.
 *
 * allocateTensors calls a schedule at four points, all on the entry subgraph:
 * 1. `begin(plan)`, once, after delegates' prepare and before any node prepares (phase prepare): the
 *    schedule reads the plan and may rewrite it through `plan` (a SchedulePlan); returns its run.
 * 2. `run.afterPrepare(step)` after each entry-subgraph node prepared successfully.
 * 3. `run.overwrites()` at FinishModelAllocation: the in-place variants it granted, planned as
 *    overwrite pairs (see arena/in-place.ts).
 * 4. `run.afterPlanning()` once tensors are bound (`plan.runInstead` is allowed from then on).
 */
import { MicrortError } from '../errors.js';
import type { GrantedOverwrite } from '../arena/in-place.js';
import type { ModelLifetimes } from '../graph/allocation-info.js';
import { NodeImpl, type PlanEntry } from '../graph/graph-node.js';
import type { MicroInterpreterGraph, Subgraph } from '../graph/micro-graph.js';
import type { Node, NodeAndRegistration, Registration, TfLiteContext } from '../kernel/api.js';
import { Tensor, type AffineQuantization } from '../kernel/tensor.js';
import type { BuiltinOptions, BuiltinOptions2 } from '../options.js';
import type { OpResolver } from '../resolver/op-resolver.js';
import type { TensorType } from '../types.js';

/** A schedule (interpreter option `schedule`). Stateless: `begin` makes the state of one allocation. */
export interface Schedule {
  /** Name shown in reports, e.g. `patch+inplace`. */
  readonly name: string;
  /** Also plan kernels' elementwise in-place pairs, as interpreter option `inPlace: true` does. */
  readonly inPlace?: boolean;
  /** Point 1 (see the file comment): read and rewrite the entry subgraph's plan; returns this allocation's run. */
  begin(plan: SchedulePlan): ScheduleRun;
}

/** What a schedule does during one allocation (points 2–4 of the file comment). */
export interface ScheduleRun {
  /** After the entry-subgraph node at plan position `step` prepared (phase prepare; `getTensor` works). */
  afterPrepare?(step: number): void;
  /** The in-place variants granted, for planning. */
  overwrites?(): readonly GrantedOverwrite[];
  /** After planning: tensors are bound; the run list may change (`SchedulePlan.runInstead`). */
  afterPlanning?(): void;
}

/** One step of the entry subgraph's execution plan, as a schedule sees it. */
export interface ScheduleStep {
  readonly node: Node;
  /** Display name, e.g. `CONV_2D`, `CUSTOM:foo`, `CONV_2D (tile)`. */
  readonly op: string;
  readonly version: number;
  /** The kernel serving the node (null only for a node nobody took, which stops allocation before). */
  readonly registration: Registration | null;
  /** A delegate node (it runs a whole subset). */
  readonly delegated: boolean;
  /** A control-flow node (IF, WHILE, CALL_ONCE: it invokes other subgraphs). */
  readonly invokesSubgraphs: boolean;
}

/** A node a schedule adds (every field as on `Node`; tensor indices of the entry subgraph). */
export interface ScheduleNodeSpec {
  /** Display name (inspection, reports, errors). */
  op: string;
  inputs: ArrayLike<number>;
  outputs: ArrayLike<number>;
  intermediates?: Int32Array;
  builtinData?: BuiltinOptions | BuiltinOptions2 | null;
  customInitialData?: Uint8Array | null;
}

/** A tensor a schedule adds to the entry subgraph (planned like any activation). */
export interface ScheduleTensorSpec {
  name: string;
  type: TensorType;
  dims: Int32Array;
  quantization: AffineQuantization | null;
}

/**
 * The entry subgraph as a schedule may change it, during `begin` (and `runInstead` after planning).
 * Nodes a schedule adds get indices after the model's operators and delegate nodes; they are freed with
 * the others on dispose.
 */
export interface SchedulePlan {
  /** The context kernels see (phase prepare during `begin`). */
  readonly context: TfLiteContext;
  /** The entry subgraph's tensors (with the ones the schedule added). */
  readonly tensors: readonly Tensor[];
  readonly inputs: Int32Array;
  readonly outputs: Int32Array;
  /** The execution plan, one step per node, in order. */
  steps(): ScheduleStep[];
  /** Adds a tensor; returns its index. */
  addTensor(spec: ScheduleTensorSpec): number;
  /**
   * Adds a node of the schedule's own, served by `registration` with `userData` as its op data (no
   * init, prepare runs if the registration has one). It runs only where the plan or the run list puts it.
   */
  addNode(spec: ScheduleNodeSpec, registration: Registration, userData?: unknown): Node;
  /**
   * Adds a node doing the work of plan step `step` on other tensors (e.g. one tile of it). The step's
   * kernel serves it when its `supports()` accepts the new node, which then takes over the step's op
   * data (init does not run again; the step's node must leave the plan). Otherwise the resolver's next
   * provider for the op serves it, and its init runs now. Either way check reports give the step's node
   * the new node's outcome. Returns the node and its kernel, or the step kernel's reason for declining
   * when no provider takes it.
   */
  addNodeLike(step: number, spec: ScheduleNodeSpec): NodeAndRegistration | string;
  /** Records that `done` (a node leaving the plan) is done by `by` (check reports show `by`'s outcome). */
  doneBy(done: Node, by: Node): void;
  /** Sets the execution plan: node indices (the model's, delegate nodes, nodes added here). */
  setPlan(nodes: readonly number[]): void;
  /** A mark for `rollback`. */
  mark(): number;
  /** Undoes every addTensor / addNode / addNodeLike / doneBy since `mark` (freeing or returning op data). */
  rollback(mark: number): void;
  /** Lifetimes over the current plans on the model's timeline (graph/allocation-info.ts), entry subgraph. */
  lifetimes(): { firstCreated: Int32Array; lastUsed: Int32Array; stepStart: Int32Array } | null;
  /** After planning only: the run list runs `runner` in place of plan steps `from..to` (the plan is unchanged). */
  runInstead(from: number, to: number, runner: Node): void;
}

const NONE = new Int32Array(0);

/** An entry a schedule added: whose op data it took over, if any. */
interface Added {
  entry: PlanEntry;
  adoptedFrom: PlanEntry | null;
}

/** SchedulePlan over the entry subgraph of one allocation. */
export class EntryPlanEditor implements SchedulePlan {
  private readonly added: Added[] = [];
  private readonly done = new Map<PlanEntry, PlanEntry>();
  private readonly marks: { added: number; tensors: number; entries: number }[] = [];
  private planned = false;

  constructor(
    private readonly sg: Subgraph,
    private readonly graph: MicroInterpreterGraph,
    readonly context: TfLiteContext,
    private readonly resolver: OpResolver,
    private readonly timeline: () => ModelLifetimes,
  ) {}

  get tensors(): readonly Tensor[] {
    return this.sg.tensors;
  }
  get inputs(): Int32Array {
    return this.sg.inputs;
  }
  get outputs(): Int32Array {
    return this.sg.outputs;
  }

  steps(): ScheduleStep[] {
    return this.sg.plan.map((i) => {
      const e = this.sg.entries[i]!;
      return {
        node: e.node,
        op: e.op,
        version: e.version,
        registration: e.registration,
        delegated: !!e.delegate,
        invokesSubgraphs: e.invokes.length > 0,
      };
    });
  }

  addTensor(spec: ScheduleTensorSpec): number {
    const t = new Tensor(this.sg.tensors.length, spec.name, spec.type, spec.dims, spec.quantization, false);
    this.sg.tensors.push(t);
    return t.index;
  }

  addNode(spec: ScheduleNodeSpec, registration: Registration, userData?: unknown): Node {
    const e = this.newEntry(spec, 1);
    e.registration = registration;
    e.node.userData = userData;
    e.initialized = true;
    this.push(e, null);
    return e.node;
  }

  addNodeLike(step: number, spec: ScheduleNodeSpec): NodeAndRegistration | string {
    const orig = this.entryAt(step);
    const reg = orig.registration;
    if (!reg) throw new MicrortError(`addNodeLike: plan step ${step} (${orig.op}) has no kernel`);
    const e = this.newEntry(spec, orig.version);
    this.graph.current.entry = e;
    try {
      const answer = reg.supports ? reg.supports(this.context, e.node) : true;
      if (answer === true) {
        e.registration = reg;
        e.node.userData = orig.node.userData;
        orig.initialized = false;
        e.initialized = true;
        this.push(e, orig);
      } else {
        const res = this.resolver.resolve(reg.builtinCode, orig.version, reg.customName ?? null, this.context, e.node);
        if (!res?.registration) return typeof answer === 'string' && answer ? answer : 'declined';
        e.registration = res.registration;
        e.node.userData = res.registration.init ? res.registration.init(this.context, e.node.builtinData) : undefined;
        e.initialized = true;
        this.push(e, null);
      }
    } finally {
      this.graph.current.entry = null;
    }
    this.done.set(orig, e);
    return { node: e.node, registration: e.registration };
  }

  doneBy(done: Node, by: Node): void {
    this.done.set(this.entryOf(done), this.entryOf(by));
  }

  setPlan(nodes: readonly number[]): void {
    for (const i of nodes)
      if (!this.sg.entries[i]) throw new MicrortError(`setPlan: node ${i} does not exist (there are ${this.sg.entries.length})`);
    this.sg.plan = [...nodes];
  }

  mark(): number {
    this.marks.push({ added: this.added.length, tensors: this.sg.tensors.length, entries: this.sg.entries.length });
    return this.marks.length - 1;
  }

  rollback(mark: number): void {
    const m = this.marks[mark];
    if (!m) throw new MicrortError(`rollback(${mark}): no such mark`);
    for (let k = this.added.length - 1; k >= m.added; k--) {
      const { entry, adoptedFrom } = this.added[k]!;
      if (adoptedFrom) adoptedFrom.initialized = true;
      else if (entry.initialized) {
        try {
          entry.registration?.free?.(this.context, entry.node.userData);
        } catch {
          /* as freeSubgraphs: a failing free must not hide why the schedule rolled back */
        }
      }
      entry.initialized = false;
    }
    const removed = new Set(this.added.splice(m.added).map((a) => a.entry));
    for (const [k, v] of this.done) if (removed.has(v) || removed.has(k)) this.done.delete(k);
    this.sg.entries.length = m.entries;
    this.sg.tensors.length = m.tensors;
    this.marks.length = mark;
  }

  lifetimes(): { firstCreated: Int32Array; lastUsed: Int32Array; stepStart: Int32Array } | null {
    const life = this.timeline().subgraphs[this.sg.index];
    return life ? { firstCreated: life.firstCreated, lastUsed: life.lastUsed, stepStart: life.stepStart } : null;
  }

  runInstead(from: number, to: number, runner: Node): void {
    if (!this.planned) throw new MicrortError('runInstead is allowed only after planning (ScheduleRun.afterPlanning)');
    const list = this.sg.runList;
    if (!(from >= 0 && to >= from && to < list.length))
      throw new MicrortError(`runInstead(${from}, ${to}): the run list has ${list.length} steps`);
    this.sg.runList = [...list.slice(0, from), this.entryOf(runner), ...list.slice(to + 1)];
  }

  /** Called by the allocation once planning bound the tensors. */
  planningDone(): void {
    this.planned = true;
  }

  /** The entry doing the work of `entry` (for check reports), if a schedule took it out of the plan. */
  replacementOf(entry: PlanEntry): PlanEntry | undefined {
    return this.done.get(entry);
  }

  private push(entry: PlanEntry, adoptedFrom: PlanEntry | null): void {
    this.sg.entries.push(entry);
    this.added.push({ entry, adoptedFrom });
  }

  private newEntry(spec: ScheduleNodeSpec, version: number): PlanEntry {
    const node = new NodeImpl(
      this.sg.entries.length,
      Int32Array.from(spec.inputs),
      Int32Array.from(spec.outputs),
      spec.intermediates ?? NONE,
      spec.builtinData ?? null,
      spec.customInitialData ?? null,
    );
    return { node, registration: null, op: spec.op, version, declinedBy: [], initialized: false, invokes: NONE };
  }

  private entryAt(step: number): PlanEntry {
    const i = this.sg.plan[step];
    if (i === undefined) throw new MicrortError(`plan step ${step} does not exist (the plan has ${this.sg.plan.length} steps)`);
    return this.sg.entries[i]!;
  }

  private entryOf(node: Node): PlanEntry {
    const e = this.sg.entries[node.index];
    if (!e || e.node !== node) throw new MicrortError(`node ${node.index} is not a node of the entry subgraph`);
    return e;
  }
}
