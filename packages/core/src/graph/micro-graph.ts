/**
 * The subgraph layer (TFLM's MicroInterpreterGraph): per subgraph its tensors, nodes and execution
 * plan, and "run these nodes" — init, prepare, invoke, reset and free of every node of every subgraph,
 * and `invokeSubgraph` for control-flow kernels. The interpreter keeps the lifecycle (allocateTensors,
 * the arena, planning, delegates on the entry subgraph); this layer only walks nodes.
 */
import { ArenaLimitError, KernelError, MicrortError, SubgraphShapeError, TensorResizeError } from '../errors.js';
import { Phase, type Node, type Registration, type ResourceVariables } from '../kernel/api.js';
import type { Tensor } from '../kernel/tensor.js';
import { sameShape } from '../kernel/kernel-util.js';
import { TensorType } from '../types.js';
import type { ModelDef, SubgraphDef } from '../model/model-def.js';
import { opDisplayName, type OpResolver, type Resolution } from '../resolver/op-resolver.js';
import type { ContextGraph, MicroContext } from '../interpreter/micro-context.js';
import { invokedSubgraphs, regionSubgraphs } from './control-flow.js';
import { builtinOptions2TypeForOp } from '../model/options-map.js';
import { NodeImpl, runsAtInvoke, type PlanEntry } from './graph-node.js';
import type { LifetimeStep, LifetimeSubgraph } from './allocation-info.js';
import type { Profiler } from '../interpreter/profiler.js';
import { badDims, dataDependentInput, dataDependentInputText, dimsText, type ShapeRule } from '../interpreter/shapes.js';

/** One subgraph: its tensors, its nodes (the model's operators, then delegate nodes) and its plan. */
export class Subgraph {
  readonly entries: PlanEntry[] = [];
  /** Execution plan: indices into `entries`. */
  plan: number[] = [];
  /** Plan entries in execution order (bound once the plan is final, for the invoke loop). */
  runList: PlanEntry[] = [];
  /** Whether the model's timeline reaches this subgraph (its tensors are planned). */
  planned = false;
  /** Only read as a region (control-flow.ts regionSubgraphs): its nodes are neither resolved, initialized nor prepared. */
  regionOnly = false;

  constructor(
    readonly index: number,
    readonly def: SubgraphDef,
    readonly tensors: Tensor[],
  ) {}

  get inputs(): Int32Array {
    return this.def.inputs;
  }
  get outputs(): Int32Array {
    return this.def.outputs;
  }
}

/** A node that failed in init or prepare (collected, so every node's outcome is known). */
export interface NodeFailure {
  subgraph: number;
  entry: PlanEntry;
  phase: 'supports' | 'init' | 'prepare';
  error: Error;
}

/** Resolution outcome of one node (null: no provider registered for its op and version). */
export interface NodeResolution {
  subgraph: number;
  entry: PlanEntry;
  resolution: Resolution | null;
}

export class MicroInterpreterGraph implements ContextGraph {
  readonly subgraphs: Subgraph[];
  /** The node being initialized, prepared or invoked (for attributing allocations and errors). */
  current: { subgraph: number; entry: PlanEntry | null; step: number } = { subgraph: 0, entry: null, step: -1 };
  resourceVariables: ResourceVariables | null = null;
  /** Brackets every node's invoke when set (InterpreterOptions.profiler). */
  profiler: Profiler | null = null;
  /** The node whose kernel runs (during invoke), for checking which subgraphs it may invoke. */
  running: PlanEntry | null = null;

  constructor(
    readonly model: ModelDef,
    readonly context: MicroContext,
    tensors: readonly Tensor[][],
    /** The subgraph the interpreter runs. */
    readonly entry: number,
  ) {
    this.subgraphs = model.subgraphs.map((def, s) => new Subgraph(s, def, tensors[s]!));
    model.subgraphs.forEach((def, s) => {
      const sg = this.subgraphs[s]!;
      def.operators.forEach((op, i) => {
        const code = model.operatorCodes[op.opcodeIndex]!;
        const options = nodeOptions(code.builtinCode, op);
        sg.entries.push({
          // inputs copied: a kernel absorbing a PAD (context.absorbPad) rewires its node, never the model
          node: new NodeImpl(i, Int32Array.from(op.inputs), op.outputs, op.intermediates, options, op.customOptions),
          registration: null,
          op: opDisplayName(code.builtinCode, code.customCode),
          version: code.version,
          declinedBy: [],
          initialized: false,
          invokes: invokedSubgraphs(code.builtinCode, options),
        });
        sg.plan.push(i);
      });
    });
    this.markRegions();
    this.enter(entry);
  }

  /** Marks the subgraphs that operators only read as regions and nothing invokes (nor is the entry). */
  private markRegions(): void {
    const invoked = new Set<number>([this.entry]);
    const regions = new Set<number>();
    this.model.subgraphs.forEach((def, s) =>
      def.operators.forEach((op, i) => {
        for (const x of this.subgraphs[s]!.entries[i]!.invokes) invoked.add(x);
        const code = this.model.operatorCodes[op.opcodeIndex]!.builtinCode;
        for (const x of regionSubgraphs(code, nodeOptions(code, op))) regions.add(x);
      }),
    );
    for (const s of regions) if (!invoked.has(s) && this.subgraphs[s]) this.subgraphs[s]!.regionOnly = true;
  }

  get subgraphCount(): number {
    return this.subgraphs.length;
  }

  subgraphIo(subgraph: number, kind: 'input' | 'output'): Int32Array {
    const sg = this.subgraphs[subgraph]!;
    return kind === 'input' ? sg.inputs : sg.outputs;
  }

  subgraphBuiltinCodes(subgraph: number): readonly number[] {
    return this.model.subgraphs[subgraph]!.operators.map((op) => this.model.operatorCodes[op.opcodeIndex]!.builtinCode);
  }

  subgraphTensor(subgraph: number, tensorIndex: number): Tensor {
    const t = this.subgraphs[subgraph]?.tensors[tensorIndex];
    if (!t) throw new MicrortError(`subgraph ${subgraph} has no tensor ${tensorIndex}`);
    return t;
  }

  /** Makes `subgraph` the context's current subgraph. */
  enter(subgraph: number): void {
    this.context.tensors = this.subgraphs[subgraph]!.tensors;
    this.context.currentSubgraph = subgraph;
    this.current.subgraph = subgraph;
  }

  /**
   * Resolves a provider for every node of every subgraph (phase init, so `supports()` can read
   * tensors), without stopping at the first node nobody takes. A provider's `supports()` that throws
   * is a KernelError naming the node.
   */
  resolveAll(resolver: OpResolver, onSupportsError?: (f: NodeFailure) => void): NodeResolution[] {
    const out: NodeResolution[] = [];
    const ctx = this.context;
    ctx.phase = Phase.Init;
    for (const sg of this.subgraphs) {
      if (sg.regionOnly) continue;
      this.enter(sg.index);
      for (const entry of sg.entries) {
        const opDef = sg.def.operators[entry.node.index]!;
        const code = this.model.operatorCodes[opDef.opcodeIndex]!;
        this.current.entry = entry;
        let res: Resolution | null;
        try {
          res = resolver.resolve(code.builtinCode, code.version, code.customCode, ctx, entry.node);
        } catch (e) {
          const err = wrapNodeError(e, entry, 'supports()', sg.index);
          if (!onSupportsError) throw err;
          onSupportsError({ subgraph: sg.index, entry, phase: 'supports', error: err });
          res = null;
        }
        if (res?.registration) {
          entry.registration = res.registration;
          const declined = res.tried.filter((t) => !t.accepted);
          entry.declinedBy = declined.map((t) => t.provider);
          entry.declined = declined.map((t) => ({ provider: t.provider, kernel: t.name, ...(t.reason ? { reason: t.reason } : {}) }));
        }
        out.push({ subgraph: sg.index, entry, resolution: res });
      }
    }
    this.current.entry = null;
    this.enter(this.entry);
    return out;
  }

  /**
   * Before `entry` prepares (phase prepare, current subgraph `sg`): when its kernel sizes its work in
   * prepare (no `Registration.dynamicInputShapes`) and one of its inputs has a shape that depends on
   * data — bounded by its producer's prepare, so unknown when `resolveAll` chose — the providers
   * registered after that kernel for the node's op are asked in order (phase init, as `supports()` and
   * `init` expect): the first that reads input shapes at invoke and whose `supports()` accepts the node
   * serves it. The chosen kernel is freed, the new one initialized, and the one left behind is recorded
   * as declining with the reason (so `check()` shows who serves the node and why). Returns the new
   * resolution (what `resolveAll` would have returned had it known), or null when the entry keeps its
   * kernel: no such input, or no later provider takes the node (then `checkDataDependentInputs`
   * refuses it, naming the tensor). An `init` that throws is thrown (the node fails its prepare).
   */
  reresolveForDataDependentInputs(resolver: OpResolver, sg: Subgraph, entry: PlanEntry, previous: Resolution | null): Resolution | null {
    const current = entry.registration;
    if (!current || current.dynamicInputShapes || !entry.initialized) return null;
    const found = dataDependentInput(sg, entry);
    if (!found) return null;
    const reason = `${dataDependentInputText(found.position, found.tensor)}; this kernel sizes its work in prepare`;
    return this.switchToLaterProvider(resolver, sg, entry, previous, reason, (reg) => reg.dynamicInputShapes === true);
  }

  /**
   * Before `entry` prepares (phase prepare), when core will evaluate it during prepare (`foldable`: its op
   * folds and its inputs are constants) and its kernel is `Registration.arenaResident` — it cannot address
   * the buffers outside the arena that folding binds —: the first provider registered after that kernel
   * for the node's op that is not arena-resident and whose `supports()` accepts the node serves it, as in
   * `reresolveForDataDependentInputs`. Returns the new resolution, or null when the entry keeps its kernel
   * (then the folder leaves the node to run at invoke).
   */
  reresolveForFolding(
    resolver: OpResolver,
    sg: Subgraph,
    entry: PlanEntry,
    previous: Resolution | null,
    foldable: boolean,
  ): Resolution | null {
    const current = entry.registration;
    if (!foldable || !current?.arenaResident || !entry.initialized) return null;
    const reason =
      'inputs are constants: core evaluates the node during prepare on buffers outside the arena, which this kernel cannot address';
    return this.switchToLaterProvider(resolver, sg, entry, previous, reason, (reg) => !reg.arenaResident);
  }

  /**
   * Moves `entry` from its kernel to the first provider registered after it for the node's op that is
   * `eligible` and whose `supports()` accepts the node (asked in phase init, as `supports()` and `init`
   * expect). The kernel left behind is freed and recorded as declining with `reason`, as is every later
   * provider that is not eligible. Returns the new resolution, or null when none takes the node (or the
   * node is not the model's). An `init` that throws is thrown (the node fails its prepare).
   */
  private switchToLaterProvider(
    resolver: OpResolver,
    sg: Subgraph,
    entry: PlanEntry,
    previous: Resolution | null,
    reason: string,
    eligible: (reg: Registration) => boolean,
  ): Resolution | null {
    const current = entry.registration!;
    const opDef = sg.def.operators[entry.node.index];
    if (!opDef) return null; // a node a schedule or delegate added: not the model's
    const code = this.model.operatorCodes[opDef.opcodeIndex]!;
    const candidates = resolver.candidates(code.builtinCode, code.version, code.customCode);
    const at = candidates.indexOf(current);
    if (at < 0) return null;
    const name = (r: Registration) => r.name ?? entry.op;
    const tried: Resolution['tried'] = (previous?.tried ?? []).filter((t) => !t.accepted);
    tried.push({ provider: current.provider ?? 'unknown', name: name(current), accepted: false, reason });
    const ctx = this.context;
    const phase = ctx.phase;
    ctx.phase = Phase.Init;
    try {
      for (let i = at + 1; i < candidates.length; i++) {
        const reg = candidates[i]!;
        const provider = reg.provider ?? 'unknown';
        if (!eligible(reg)) {
          tried.push({ provider, name: name(reg), accepted: false, reason });
          continue;
        }
        const answer = reg.supports ? reg.supports(ctx, entry.node) : true;
        if (answer !== true) {
          tried.push({ provider, name: name(reg), accepted: false, ...(typeof answer === 'string' && answer ? { reason: answer } : {}) });
          continue;
        }
        current.free?.(ctx, entry.node.userData);
        entry.initialized = false;
        entry.registration = null;
        const initData = entry.node.customInitialData ?? entry.node.builtinData;
        entry.node.userData = reg.init ? reg.init(ctx, initData) : undefined;
        entry.registration = reg;
        entry.initialized = true;
        tried.push({ provider, name: name(reg), accepted: true });
        const declined = tried.filter((t) => !t.accepted);
        entry.declinedBy = declined.map((t) => t.provider);
        entry.declined = declined.map((t) => ({ provider: t.provider, kernel: t.name, ...(t.reason ? { reason: t.reason } : {}) }));
        return { registration: reg, tried };
      }
      return null;
    } finally {
      ctx.phase = phase;
    }
  }

  /**
   * init of every resolved node, subgraph by subgraph (TFLM InitSubgraphs). A node whose init throws
   * is reported to `onFailure` and stays uninitialized (it is not prepared, and not freed).
   */
  initSubgraphs(onFailure: (f: NodeFailure) => void): void {
    const ctx = this.context;
    ctx.phase = Phase.Init;
    for (const sg of this.subgraphs) {
      this.enter(sg.index);
      for (const entry of sg.entries) {
        const reg = entry.registration;
        if (!reg) continue;
        this.current.entry = entry;
        const initData = entry.node.customInitialData ?? entry.node.builtinData;
        try {
          entry.node.userData = reg.init ? reg.init(ctx, initData) : undefined;
          entry.initialized = true;
        } catch (e) {
          if (e instanceof ArenaLimitError) throw e;
          onFailure({ subgraph: sg.index, entry, phase: 'init', error: wrapNodeError(e, entry, 'init', sg.index) });
        }
      }
    }
    this.current.entry = null;
    this.enter(this.entry);
  }

  /**
   * prepare of every initialized node, subgraph by subgraph, each in execution order (TFLM
   * PrepareSubgraphs). `beforeEach` may refuse a node before its prepare (a data-dependent input),
   * `afterEach` runs after each successful prepare (folding, in-place declarations, temp reset). A failing node is reported to `onFailure` and the others are still prepared, so one pass
   * finds every node that cannot run; only the arena limit stops it.
   */
  prepareSubgraphs(
    onFailure: (f: NodeFailure) => void,
    afterEach: (sg: Subgraph, entry: PlanEntry, step: number) => void,
    beforeEach?: (sg: Subgraph, entry: PlanEntry) => void,
  ): void {
    this.context.phase = Phase.Prepare;
    this.prepared.clear();
    this.inputClaims.clear();
    this.prepareHooks = { onFailure, afterEach, beforeEach };
    try {
      for (const sg of this.subgraphs) if (!sg.regionOnly && !this.prepared.has(sg.index)) this.prepareOne(sg);
    } finally {
      this.prepareHooks = null;
      this.current.entry = null;
      this.current.step = -1;
      this.enter(this.entry);
    }
  }

  /** Subgraphs whose prepare began in this allocation (model order or a kernel's `prepareSubgraph`). */
  private readonly prepared = new Set<number>();
  /** `resizeSubgraphInput` claims: "subgraph:input" → the dims and who asked. */
  private readonly inputClaims = new Map<string, { dims: number[]; by: string }>();
  private prepareHooks: {
    onFailure: (f: NodeFailure) => void;
    afterEach: (sg: Subgraph, entry: PlanEntry, step: number) => void;
    beforeEach?: (sg: Subgraph, entry: PlanEntry) => void;
  } | null = null;

  private prepareOne(sg: Subgraph): void {
    const { onFailure, afterEach, beforeEach } = this.prepareHooks!;
    const ctx = this.context;
    this.prepared.add(sg.index);
    this.enter(sg.index);
    sg.plan.forEach((nodeIndex, step) => {
      const entry = sg.entries[nodeIndex]!;
      if (!entry.registration || !entry.initialized) return;
      this.current.entry = entry;
      this.current.step = step;
      try {
        beforeEach?.(sg, entry);
        entry.registration.prepare?.(ctx, entry.node);
        afterEach(sg, entry, step);
      } catch (e) {
        if (e instanceof ArenaLimitError) throw e;
        onFailure({ subgraph: sg.index, entry, phase: 'prepare', error: wrapNodeError(e, entry, 'prepare', sg.index) });
      }
    });
  }

  /** The node being prepared, which must invoke `subgraph` (for the context's subgraph callbacks). */
  private callerOf(subgraph: number, callback: string): PlanEntry {
    const caller = this.current.entry;
    if (!caller || !this.prepareHooks) throw new MicrortError(`${callback}(${subgraph}) called outside a node's prepare`);
    if (!includes(caller.invokes, subgraph))
      throw new MicrortError(
        `${callback}(${subgraph}): ${caller.op} (node ${caller.node.index} of subgraph ${this.current.subgraph}) does not invoke subgraph ${subgraph}` +
          (caller.invokes.length ? ` (it invokes ${Array.from(caller.invokes).join(', ')})` : ''),
      );
    return caller;
  }

  /** A kernel's `context.resizeSubgraphInput` (contract in kernel/api.ts). */
  resizeSubgraphInput(subgraph: number, i: number, dims: ArrayLike<number>, rule: ShapeRule): void {
    const caller = this.callerOf(subgraph, 'resizeSubgraphInput');
    const sg = this.subgraphs[subgraph]!;
    const index = sg.inputs[i];
    if (index === undefined || !Number.isInteger(i) || i < 0)
      throw new MicrortError(`resizeSubgraphInput(${subgraph}, ${i}): subgraph ${subgraph} has ${sg.inputs.length} inputs`);
    const t = sg.tensors[index]!;
    const here = this.current.subgraph;
    const want = Array.from(dims);
    const what = `input ${i} of subgraph ${subgraph} (tensor ${index}, ${t.name || 'unnamed'})`;
    const who = `${caller.op} (node ${caller.node.index} of subgraph ${here})`;
    const fail = (have: ArrayLike<number>, detail: string): never => {
      throw new SubgraphShapeError(caller.op, caller.node.index, subgraph, i, index, Array.from(have), want, detail, here);
    };
    const resizeFail = (detail: string): never => {
      throw new TensorResizeError(caller.op, caller.node.index, index, Array.from(t.dims), want, detail, here);
    };
    const bad = badDims(want, t);
    if (bad) return resizeFail(`resizeSubgraphInput: ${what} cannot have shape ${dimsText(want)}: ${bad}`);
    const key = `${subgraph}:${i}`;
    const claim = this.inputClaims.get(key);
    if (claim && !sameShape(claim.dims, want))
      return fail(
        claim.dims,
        `${what} is planned once per allocation: ${claim.by} needs ${dimsText(claim.dims)}, this node ${dimsText(want)} (micrort does not plan a called subgraph per caller)`,
      );
    const same = sameShape(t.dims, want);
    if (!same && this.prepared.has(subgraph))
      return fail(
        t.dims,
        `${what} already prepared at ${dimsText(t.dims)}, before this node asked for ${dimsText(want)} (a subgraph prepares once per allocation)`,
      );
    if (!same && (t.isConstant || t.isVariable))
      return resizeFail(
        `resizeSubgraphInput: ${what} is a ${t.isVariable ? 'variable' : 'constant'}; its shape ${dimsText(t.dims)} cannot change`,
      );
    if (!same && rule === 'file')
      return resizeFail(
        `${what} has shape ${dimsText(t.dims)} in the file; this node passes ${dimsText(want)} (interpreter option shapes: 'file' keeps the file's shapes)`,
      );
    if (!claim) this.inputClaims.set(key, { dims: want, by: who });
    if (!same) t.setDims(want);
  }

  /** A kernel's `context.prepareSubgraph` (contract in kernel/api.ts): prepares it now, nested. */
  prepareSubgraph(subgraph: number): void {
    this.callerOf(subgraph, 'prepareSubgraph');
    const sg = this.subgraphs[subgraph]!;
    if (this.prepared.has(subgraph) || sg.regionOnly) return;
    const saved = { subgraph: this.current.subgraph, entry: this.current.entry, step: this.current.step };
    try {
      this.prepareOne(sg);
    } finally {
      this.current.entry = saved.entry;
      this.current.step = saved.step;
      this.enter(saved.subgraph);
    }
  }

  /** The timeline input of every subgraph (graph/allocation-info.ts); `stepOf` maps a plan entry to its step. */
  lifetimeSubgraphs(stepOf: (sg: Subgraph, planIndex: number) => LifetimeStep): LifetimeSubgraph[] {
    return this.subgraphs.map((sg) => ({
      tensorCount: sg.tensors.length,
      inputs: sg.inputs,
      outputs: sg.outputs,
      steps: sg.plan.map((_, k) => stepOf(sg, k)),
    }));
  }

  /** Binds every subgraph's run list (after planning): the plan without the nodes folded or absorbed during prepare. */
  finalizePlans(): void {
    for (const sg of this.subgraphs) sg.runList = sg.plan.map((i) => sg.entries[i]!).filter(runsAtInvoke);
  }

  /** Runs the entry subgraph: the interpreter's invoke (phase invoke is set by the caller). */
  invokeEntry(): void {
    this.running = null;
    this.run(this.entry);
  }

  /** A kernel's `context.invokeSubgraph`: only a subgraph the running node plans for. */
  invokeSubgraph(subgraph: number): void {
    const caller = this.running;
    const sg = this.subgraphs[subgraph];
    if (!caller || !sg || !sg.planned || !includes(caller.invokes, subgraph)) {
      const who = caller ? `${caller.op} (node ${caller.node.index} of subgraph ${this.current.subgraph})` : 'the interpreter';
      const allowed = caller && caller.invokes.length ? `it may invoke ${Array.from(caller.invokes).join(', ')}` : 'it invokes no subgraph';
      throw new MicrortError(
        !sg
          ? `invokeSubgraph(${subgraph}): no such subgraph (the model has ${this.subgraphs.length})`
          : `invokeSubgraph(${subgraph}) from ${who}: ${allowed} (subgraphs are planned for the IF, WHILE, CALL_ONCE, STABLEHLO_COMPOSITE and STABLEHLO_CASE nodes that invoke them)`,
      );
    }
    this.run(subgraph);
  }

  /** Runs every node of `subgraph` in plan order; restores the caller's subgraph afterwards. Allocates nothing. */
  private run(subgraph: number): void {
    const sg = this.subgraphs[subgraph]!;
    const ctx = this.context;
    const cur = this.current;
    const prevSubgraph = cur.subgraph;
    const prevRunning = this.running;
    ctx.tensors = sg.tensors;
    ctx.currentSubgraph = subgraph;
    cur.subgraph = subgraph;
    const list = sg.runList;
    const profiler = this.profiler;
    let i = 0;
    try {
      for (; i < list.length; i++) {
        const e = list[i]!;
        this.running = e;
        const sync = e.sync;
        if (sync) for (let k = 0; k < sync.toHandles.length; k++) sync.delegate.copyToBufferHandle?.(ctx, sync.toHandles[k]!);
        if (profiler === null) {
          e.registration!.invoke(ctx, e.node);
        } else {
          const handle = profiler.beginEvent(e.op, e.node.index, subgraph);
          try {
            e.registration!.invoke(ctx, e.node);
          } finally {
            profiler.endEvent(handle);
          }
        }
        if (sync) for (let k = 0; k < sync.fromHandles.length; k++) sync.delegate.copyFromBufferHandle?.(ctx, sync.fromHandles[k]!);
      }
    } catch (err) {
      throw wrapNodeError(err, list[i]!, 'invoke', subgraph);
    } finally {
      this.running = prevRunning;
      const prev = this.subgraphs[prevSubgraph]!;
      ctx.tensors = prev.tensors;
      ctx.currentSubgraph = prevSubgraph;
      cur.subgraph = prevSubgraph;
    }
  }

  /** Every initialized node's `reset` (TFLM ResetSubgraphs). */
  resetSubgraphs(): void {
    this.forEachInitialized((sg, e, reg) => {
      this.enter(sg.index);
      reg.reset?.(this.context, e.node.userData);
    });
    this.enter(this.entry);
  }

  /** Every initialized node's `free` (TFLM FreeSubgraphs); a failing free does not stop the others. */
  freeSubgraphs(): void {
    this.forEachInitialized((sg, e, reg) => {
      this.enter(sg.index);
      try {
        reg.free?.(this.context, e.node.userData);
      } catch {
        /* a failing free must not hide the original error, nor keep other nodes from freeing */
      }
      e.initialized = false;
    });
    this.enter(this.entry);
  }

  /** Resets every variable tensor of every subgraph (int8: zero point, else 0) and the resource variables. */
  resetVariableTensors(): void {
    for (const sg of this.subgraphs) {
      for (const t of sg.tensors) {
        if (!t.isVariable) continue;
        t.bytes.fill(t.type === TensorType.INT8 ? t.params.zeroPoint & 0xff : 0);
      }
    }
    this.resourceVariables?.resetAll();
  }

  private forEachInitialized(fn: (sg: Subgraph, e: PlanEntry, reg: Registration) => void): void {
    for (const sg of this.subgraphs) for (const e of sg.entries) if (e.registration && e.initialized) fn(sg, e, e.registration);
  }
}

function includes(list: Int32Array, v: number): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}

/**
 * The error of a failing node, attributed: typed errors pass through (a KernelError of a node in a
 * subgraph other than 0 gets its subgraph), except a bare MicrortError (e.g. a context callback
 * refusing a tensor index), which says nothing of the node: it is wrapped like a native error, keeping
 * it as the cause.
 */
export function wrapNodeError(e: unknown, entry: PlanEntry, phase: string, subgraph: number): Error {
  if (e instanceof KernelError) {
    if (subgraph === 0 || e.subgraph !== 0 || e.nodeIndex !== entry.node.index) return e;
    const err = new KernelError(e.op, e.nodeIndex, e.detail, subgraph);
    (err as { cause?: unknown }).cause = e;
    return err;
  }
  if (e instanceof MicrortError && e.constructor !== MicrortError) return e;
  const msg = e instanceof MicrortError ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  const err = new KernelError(entry.op, entry.node.index, `${phase} failed: ${msg}`, subgraph);
  (err as { cause?: unknown }).cause = e;
  return err;
}

/**
 * The options a node's kernel sees as `builtinData`, as TFLite's ParseOpData picks them by op: the
 * `builtin_options_2` table for the StableHLO ops that have one, else `builtin_options` — never the other
 * union (a FULLY_CONNECTED carrying only a StableHLO table gets null, so its kernel applies TFLite's
 * defaults instead of reading foreign fields as undefined).
 */
function nodeOptions(builtinCode: number, op: ModelDef['subgraphs'][number]['operators'][number]): Node['builtinData'] {
  return (builtinOptions2TypeForOp(builtinCode) !== 0 ? op.builtinOptions2 : op.builtinOptions) ?? null;
}
