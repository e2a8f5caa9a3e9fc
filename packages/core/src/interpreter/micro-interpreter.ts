import { ArenaLimitError, ArenaTooSmallError, InputError, InterpreterStateError, MicrortError } from '../errors.js';
import {
  AUTO_ARENA_RESERVATION_BYTES,
  DEFAULT_MAX_ARENA_BYTES,
  SingleArenaBufferAllocator,
  type ArenaBacking,
} from '../arena/single-arena-buffer-allocator.js';
import type { Tensor } from '../kernel/tensor.js';
import type { ModelDef } from '../model/model-def.js';
import type { MemoryPlanner } from '../planner/memory-planner.js';
import type { OpResolver } from '../resolver/op-resolver.js';
import { TensorType, alignUp, tensorTypeName, type TensorData } from '../types.js';
import { decodeStrings, encodeStrings, validateStringBuffer } from '../kernel/strings.js';
import type { Delegate, DelegateOptions } from '../delegate/delegate.js';
import type { ArenaUsage } from './arena-usage.js';
import type { MicroContext } from './micro-context.js';
import { Phase } from '../kernel/api.js';
import { Allocation } from './allocation.js';
import type { CheckReport, DeclinedProvider } from './check-report.js';
import type { PartitionInfo, SkippedDelegate, TensorOwner } from './delegate-subsets.js';
import { allocationError } from './node-outcomes.js';
import type { Profiler } from './profiler.js';
import type { Schedule, ScheduleRun } from './schedule-hook.js';
import { badDims, dimsText, type ShapeRule } from './shapes.js';

/** Options of a MicroInterpreter. */
export interface InterpreterOptions {
  /**
   * The arena: a size in bytes, an ArrayBuffer to use, or `'auto'` (default): `maxArenaBytes` of address
   * space, filled from both ends as TFLM fills an arena bigger than the model needs (head from the
   * start, tail from the end), so every kernel prepares once; `arenaUsage().arenaBytes` is the size a
   * fixed arena needs (head + temp peak + tail). Only the bytes used are ever written.
   */
  arena?: number | ArrayBuffer | 'auto';
  /**
   * Where the arena's memory comes from when `arena` is a size or `'auto'` (default: an ArrayBuffer of
   * the size; for `'auto'` a SharedArrayBuffer reservation where the platform has one, see
   * SingleArenaBufferAllocator.reserve). A kernel package that works on the arena in memory it owns supplies one (ops-wasm:
   * `wasm.arenaBacking`, a WebAssembly.Memory per interpreter). It is asked once: for the size, or for
   * the reservation of `'auto'`; planning, the arena report and ArenaTooSmallError are unchanged. Not
   * allowed with an ArrayBuffer `arena`. See ArenaBacking for the contract.
   */
  arenaBacking?: ArenaBacking;
  /**
   * Largest arena the model may require, in bytes (default DEFAULT_MAX_ARENA_BYTES: 2^31 − 16, the
   * most an arena's int32 offsets address — no smaller ceiling stops a model TFLite runs). A model
   * needing more fails with ArenaLimitError before the memory is allocated; set it to bound what a
   * model you do not trust may take. `arena: 'auto'` first reserves min(maxArenaBytes, 256 MiB) of
   * address space (pages are committed only where written); a model that needs more is measured in one
   * more prepare pass and gets a reservation of exactly its size (see allocateTensors).
   */
  maxArenaBytes?: number;
  /**
   * How tensor shapes are decided (default `'computed'`): every kernel's prepare computes its outputs'
   * shapes from its inputs' (TFLite's ResizeTensor) and they win over the file's, which is a hint — an
   * empty shape, placeholder 1s under a `shape_signature` -1, shapes made stale by `resizeInputTensor`;
   * shape subgraphs with constant inputs are evaluated during prepare; data-dependent outputs are planned
   * at their upper bound. `'file'`: TFLM's rule — the file's shapes are final (a kernel computing
   * another fails with TensorResizeError), nothing is folded or bounded; `@micrort/deploy` plans this
   * way to predict TFLM's arena. See interpreter/shapes.ts and docs/architecture.md.
   */
  shapes?: ShapeRule;
  /** The memory planner placing the head (e.g. GreedyMemoryPlanner from @micrort/planners). */
  planner: MemoryPlanner;
  /**
   * The subgraph the interpreter runs (default 0, as TFLM). Every subgraph is resolved, initialized and
   * prepared; the ones its IF / WHILE / CALL_ONCE nodes invoke are planned in the same arena.
   */
  subgraph?: number;
  /** Delegates applied in order during allocateTensors. */
  delegates?: readonly Delegate[];
  /** Partitioning options applied to every delegate. */
  delegateOptions?: DelegateOptions;
  /** Values kernels can read with `context.getExternalContext(key)`. */
  externalContexts?: Record<string, unknown>;
  /**
   * Offline offsets, one per tensor of the subgraph (-1: plan online), handed to the planner with the
   * buffer requirements. Default (undefined): read from the model's `OfflineMemoryAllocation` metadata
   * when present, as TFLM does; null: ignore the metadata.
   */
  offlineOffsets?: Int32Array | null;
  /**
   * Opt-in in-place planning (default false): a node's output 0 may share the memory of an input that
   * dies at that node when its kernel declares it safe (`Registration.inPlace`); see arena/in-place.ts.
   * The planner must honour `BufferRequirement.inPlaceOf` for this to save memory.
   */
  inPlace?: boolean;
  /**
   * The execution schedule (default: none, TFLM's): a plugin that changes which buffers are live when,
   * never the bytes of any output — e.g. `createSchedule('patch+inplace')` from `@micrort/schedules`
   * (kernels' in-place variants, the first stage of spatial operators run tile by tile). See
   * interpreter/schedule-hook.ts for the hook.
   */
  schedule?: Schedule;
  /**
   * Slots of the model's resource variables (TFLM's MicroResourceVariables; VAR_HANDLE, ASSIGN_VARIABLE,
   * READ_VARIABLE). Default: 64 (what TFLM's runner uses) when the model has a VAR_HANDLE, else none.
   * The slot table takes 16 + 40 × slots bytes of the arena tail, as in TFLM.
   */
  resourceVariables?: number;
  /**
   * Bytes of strings each STRING graph input can take (its header — count and offsets — comes on
   * top); default 4096. String inputs are planned at this size, since nothing is allocated in invoke:
   * `setInputStrings` refuses more with an InputError.
   */
  stringInputBytes?: number;
  /**
   * Called around every node's invoke (every subgraph), e.g. a `MicroProfiler` for a per-op latency
   * profile. Absent (default): the invoke loop does no timing at all.
   */
  profiler?: Profiler;
}

/** One node of the execution plan as shown by inspection. */
export interface NodeInfo {
  /** Node index (original operator index, or a new index for delegate nodes). */
  index: number;
  /** The node's subgraph (nodes of other subgraphs follow the entry subgraph's plan). */
  subgraph: number;
  op: string;
  version: number;
  provider: string;
  kernel: string;
  inputs: number[];
  outputs: number[];
  /** For a delegate node: the delegate name and the original nodes it replaced. */
  delegate?: { name: string; nodes: number[] };
  /** Providers asked before this one that declined the node. */
  declinedBy?: string[];
  /** Evaluated during prepare (shape arithmetic on constants): it does not run at invoke. */
  folded?: true;
  /**
   * A PAD absorbed by the kernel of node `absorbedInto` (`context.absorbPad`): that node reads the PAD's
   * input with the padding in its window; this one does not run at invoke and its output is not planned.
   */
  absorbedInto?: number;
  /** The same, with each kernel and its reason: `{ provider: '@micrort/ops-wasm', kernel: 'CONV_2D/wasm-qs8', reason: 'uint8 input …' }`. */
  declined?: DeclinedProvider[];
}

export type { PartitionInfo, SkippedDelegate, TensorOwner };

type State = 'created' | 'allocated' | 'resized' | 'failed' | 'disposed';

/** Options of `resizeInputTensor`. */
export interface ResizeInputOptions {
  /**
   * TFLite's ResizeInputTensorStrict: only the dimensions the file's `shape_signature` marks -1 may
   * change, and the rank stays (default false: any shape, as ResizeInputTensor).
   */
  strict?: boolean;
}

/**
 * The interpreter (TFLM's MicroInterpreter). Construct it with a model, a resolver and options, call
 * `allocateTensors()` once, fill `input(i).data`, call `invoke()`, read `output(j).data`.
 *
 * allocateTensors(): StartModelAllocation (tensors of every subgraph) → resolve a provider per node of
 * every subgraph → every node's init → delegates' prepare (partitioning the entry subgraph) → every
 * node's prepare → FinishModelAllocation (every subgraph the entry subgraph's control flow reaches is
 * planned in the one head) → variable tensors reset. Resolution and prepare go through every node
 * before failing, so the error carries every node that cannot run (`error.report`, as `checkModel`).
 * invoke() runs the entry subgraph through the graph layer (graph/micro-graph.ts); it allocates nothing.
 */
export class MicroInterpreter {
  private state: State = 'created';
  private alloc: Allocation | null = null;
  private arenaAllocator: SingleArenaBufferAllocator | null = null;
  private failure: Error | null = null;
  /** Graph-input dims set by resizeInputTensor, by tensor index (absent: the file's). */
  private readonly inputDims = new Map<number, Int32Array>();

  constructor(
    readonly model: ModelDef,
    readonly resolver: OpResolver,
    readonly options: InterpreterOptions,
  ) {
    if (!options || !options.planner)
      throw new MicrortError('MicroInterpreter: options.planner is required (e.g. new GreedyMemoryPlanner() from @micrort/planners)');
    const sg = options.subgraph ?? 0;
    if (!model.subgraphs[sg])
      throw new MicrortError(`MicroInterpreter: subgraph ${sg} does not exist (model has ${model.subgraphs.length})`);
    const schedule = options.schedule as unknown;
    if (schedule !== undefined && (typeof schedule !== 'object' || schedule === null || typeof (schedule as Schedule).begin !== 'function'))
      throw new MicrortError(
        `MicroInterpreter: options.schedule must be a schedule object (e.g. createSchedule(${JSON.stringify(schedule)}) from @micrort/schedules), got ${typeof schedule}`,
      );
  }

  /**
   * Lifecycle state: created, allocated, resized (an input's shape changed: allocateTensors() again),
   * failed (allocateTensors threw) or disposed.
   */
  get status(): State {
    return this.state;
  }

  /**
   * Allocates and prepares everything. Calling it again after success does nothing; after
   * `resizeInputTensor` it plans the model again for the new shapes (every kernel's init and prepare run
   * again, in a new arena; the previous allocation's kernels are freed, and its tensor objects and views
   * are no longer the interpreter's — fetch `input(i)` / `output(j)` again and set the inputs again).
   * After a failure (arena too small, unsupported op) the interpreter stays in state `failed` until an
   * input is resized; otherwise create a new one.
   *
   * With `arena: 'auto'`, a model whose arena exceeds the first reservation (min(maxArenaBytes, 256 MiB))
   * is prepared once more in an arena that only measures, then allocated in a reservation of exactly
   * what it needs (its kernels prepare three times; every other model's once).
   */
  allocateTensors(): this {
    if (this.state === 'disposed') throw new InterpreterStateError('allocateTensors() after dispose()');
    if (this.state === 'allocated') return this;
    if (this.state === 'failed')
      throw new InterpreterStateError(`allocateTensors() failed earlier (${this.failure?.message}); create a new interpreter`);
    if (this.state === 'resized') this.release();
    const spec = this.options.arena ?? 'auto';
    const limit = this.options.maxArenaBytes ?? DEFAULT_MAX_ARENA_BYTES;
    const backing = this.options.arenaBacking;
    try {
      if (spec === 'auto') {
        const first = Math.min(limit, AUTO_ARENA_RESERVATION_BYTES);
        try {
          this.allocate(SingleArenaBufferAllocator.reserve(first, backing));
        } catch (e) {
          if (!(e instanceof ArenaLimitError) || first >= limit) throw e;
          // Over the first reservation: measure the model's arena, then reserve exactly that (in 64 KiB pages).
          const needed = Math.min(limit, alignUp(this.measure(limit), 65536));
          this.allocate(SingleArenaBufferAllocator.reserve(needed, backing));
        }
      } else {
        this.allocate(new SingleArenaBufferAllocator(spec, limit, backing));
      }
      this.state = 'allocated';
    } catch (e) {
      this.state = 'failed';
      this.failure = e as Error;
      throw e;
    }
    return this;
  }

  /** One pass: every kernel's init and prepare run once, then planning (see Allocation). */
  private allocate(arena: SingleArenaBufferAllocator): void {
    const a = new Allocation(this.model, this.options, arena, this.inputDims);
    const schedule = this.options.schedule ?? null;
    const inPlace: (number[] | null)[] | null = this.options.inPlace || schedule?.inPlace ? [] : null;
    try {
      const outcome = a.prepareAll(this.resolver, { inPlace, schedule });
      if (!outcome.report.ok) throw allocationError(outcome);
      a.planAll(inPlace);
    } catch (e) {
      a.freeAll();
      throw e;
    }
    this.alloc = a;
    this.arenaAllocator = arena;
    a.graph.resetVariableTensors();
  }

  /** The arena size the model needs (a prepare pass and planning in an arena that only measures). */
  private measure(limit: number): number {
    try {
      this.allocate(new SingleArenaBufferAllocator(0, limit));
    } catch (e) {
      if (e instanceof ArenaTooSmallError && e.requiredArenaBytes !== undefined) return e.requiredArenaBytes;
      throw e;
    }
    const used = this.arenaAllocator!.requiredBytes; // a model that needs no arena at all
    this.release();
    return used;
  }

  /**
   * Changes the shape of graph input `i` (its position among the inputs, as TFLite's C API
   * `TfLiteInterpreterResizeInputTensor`; TFLite's C++ `ResizeInputTensor` takes the tensor index).
   * Any shape of non-negative dims, or with `{ strict: true }` (ResizeInputTensorStrict) only the
   * dimensions the file's `shape_signature` marks -1 (`input(i).shapeSignature`). Takes effect at the
   * next `allocateTensors()`, which plans the model again for it — every kernel's prepare computes its
   * outputs' shapes from the new ones, shape subgraphs are evaluated again — so invoke stays
   * allocation-free; until then `invoke()` and the tensor accessors throw InterpreterStateError. The
   * file's shape again, or the current shape, is allowed (the latter changes nothing, as in TFLite).
   */
  resizeInputTensor(i: number, dims: ArrayLike<number>, options: ResizeInputOptions = {}): void {
    if (this.state === 'disposed') throw new InterpreterStateError('resizeInputTensor() after dispose()');
    const sg = this.model.subgraphs[this.options.subgraph ?? 0]!;
    if (!Number.isInteger(i) || i < 0 || i >= sg.inputs.length)
      throw new InputError(`input index ${i} out of range (model has ${sg.inputs.length} inputs)`);
    const index = sg.inputs[i]!;
    const def = sg.tensors[index]!;
    const what = `input ${i} (tensor ${index}, ${def.name || 'unnamed'})`;
    const t = { type: def.type } as Tensor;
    const bad = badDims(dims, t);
    if (bad) throw new InputError(`resizeInputTensor: ${what} cannot have shape ${dimsText(dims)}: ${bad}`);
    if (def.isVariable || (this.model.buffers[def.buffer]?.data.byteLength ?? 0) > 0)
      throw new InputError(`resizeInputTensor: ${what} is a ${def.isVariable ? 'variable' : 'constant'}; its shape is fixed`);
    if (options.strict) {
      const signature = def.shapeSignature ?? def.shape;
      if (dims.length !== signature.length)
        throw new InputError(
          `resizeInputTensor (strict): ${what} has rank ${signature.length} (shape_signature ${dimsText(signature)}), got ${dimsText(dims)}`,
        );
      for (let d = 0; d < dims.length; d++)
        if (signature[d] !== -1 && dims[d] !== def.shape[d])
          throw new InputError(
            `resizeInputTensor (strict): dimension ${d} of ${what} is fixed at ${def.shape[d]} (shape_signature ${dimsText(signature)}), got ${dims[d]}`,
          );
    }
    const current = this.inputDims.get(index) ?? def.shape;
    if (sameDims(current, dims)) return;
    if (sameDims(def.shape, dims)) this.inputDims.delete(index);
    else this.inputDims.set(index, Int32Array.from(dims));
    if (this.state === 'allocated' || this.state === 'failed') this.state = 'resized';
  }

  /**
   * Resolves and prepares every node of every subgraph without failing on the first problem, and
   * returns every node's outcome (see `checkModel`). Uses an arena that only measures; the interpreter
   * itself is left untouched.
   */
  check(): CheckReport {
    const limit = this.options.maxArenaBytes ?? DEFAULT_MAX_ARENA_BYTES;
    const a = new Allocation(this.model, this.options, new SingleArenaBufferAllocator(0, limit), this.inputDims);
    try {
      return a.prepareAll(this.resolver, { inPlace: null }).report;
    } finally {
      a.freeAll();
    }
  }

  private get ready(): Allocation {
    if (this.state === 'disposed') throw new InterpreterStateError('the interpreter was disposed');
    if (this.state === 'resized')
      throw new InterpreterStateError('an input was resized (resizeInputTensor): call allocateTensors() to plan the new shapes first');
    if (this.state !== 'allocated' || !this.alloc) {
      if (this.state === 'failed')
        throw new InterpreterStateError(`allocateTensors() failed (${this.failure?.message}); create a new interpreter`);
      this.allocateTensors();
    }
    return this.alloc!;
  }

  /**
   * Runs the entry subgraph once (and, through IF / WHILE / CALL_ONCE, the subgraphs they invoke).
   * Allocates tensors first if needed (as TFLM does). Allocates nothing. A kernel error leaves the
   * interpreter usable for the next invoke.
   *
   * As in TFLM, the input tensors' memory is planned like any other activation: once the last node
   * that reads an input has run, later tensors may be placed over its bytes. After `invoke()` the input
   * tensors may hold other values, so set every input again before the next `invoke()` (a second
   * `invoke()` without `setInput` can give different outputs). `@micrort/lite` keeps its own copy of
   * the inputs and writes them before each invoke.
   */
  invoke(): void {
    const a = this.ready;
    const ctx = a.context;
    ctx.phase = Phase.Invoke;
    try {
      a.graph.invokeEntry();
    } finally {
      ctx.phase = Phase.Idle;
    }
  }

  /** Number of subgraph inputs / outputs. */
  get inputsSize(): number {
    return this.model.subgraphs[this.options.subgraph ?? 0]!.inputs.length;
  }
  get outputsSize(): number {
    return this.model.subgraphs[this.options.subgraph ?? 0]!.outputs.length;
  }

  /** Input tensor `i` (write into `.data` before each `invoke()`: invoke may overwrite it, see {@link invoke}). */
  input(i: number): Tensor {
    return this.ioTensor('input', i);
  }

  /** Output tensor `i` (read `.data` after invoke). */
  output(i: number): Tensor {
    return this.ioTensor('output', i);
  }

  /** Any tensor by index (after allocation): of the entry subgraph, or of subgraph `subgraph`. */
  tensor(index: number, subgraph?: number): Tensor {
    const a = this.ready;
    const s = subgraph ?? a.graph.entry;
    const sg = a.graph.subgraphs[s];
    if (!sg) throw new InputError(`subgraph ${s} out of range (model has ${a.graph.subgraphs.length} subgraphs)`);
    const t = sg.tensors[index];
    if (!t)
      throw new InputError(
        `tensor index ${index} out of range (${subgraph === undefined ? 'subgraph' : `subgraph ${s}`} has ${sg.tensors.length} tensors)`,
      );
    return t;
  }

  /**
   * Copies `values` into input `i`, checking the element type and byte length. Accepts a typed array of
   * the input's type, raw bytes (Uint8Array / ArrayBuffer of the exact byte length) or a number array.
   */
  setInput(i: number, values: TensorData | ArrayBuffer | ArrayLike<number>): void {
    const t = this.input(i);
    if (t.type === TensorType.STRING) {
      if (!(values instanceof Uint8Array || values instanceof ArrayBuffer))
        throw new InputError(`input ${i} (${t.name}) is a string tensor: give its strings to setInputStrings(), or serialized bytes`);
      this.writeStringInput(i, t, values instanceof ArrayBuffer ? new Uint8Array(values) : values);
      return;
    }
    const expectedBytes = t.byteLength;
    if (values instanceof ArrayBuffer || (values instanceof Uint8Array && t.type !== TensorType.UINT8 && t.type !== TensorType.BOOL)) {
      const bytes = values instanceof ArrayBuffer ? new Uint8Array(values) : values;
      if (bytes.byteLength !== expectedBytes)
        throw new InputError(
          `input ${i} (${t.name}) needs ${expectedBytes} bytes (${tensorTypeName(t.type)}[${Array.from(t.dims).join(',')}]), got ${bytes.byteLength}`,
        );
      t.bytes.set(bytes);
      return;
    }
    if (ArrayBuffer.isView(values)) {
      const expectedCtor = t.data.constructor;
      if (values.constructor !== expectedCtor)
        throw new InputError(
          `input ${i} (${t.name}) is ${tensorTypeName(t.type)} (${expectedCtor.name}), got a ${values.constructor.name}`,
        );
    }
    const n = (values as ArrayLike<number>).length;
    if (n !== t.elementCount)
      throw new InputError(
        `input ${i} (${t.name}) has ${t.elementCount} elements (${tensorTypeName(t.type)}[${Array.from(t.dims).join(',')}]), got ${n}`,
      );
    (t.data as unknown as { set(v: ArrayLike<number>): void }).set(values as ArrayLike<number>);
  }

  /**
   * Writes `strings` (UTF-8 text or raw bytes) into STRING input `i` in TFLite's serialized format.
   * There must be one string per element of the input's shape, and they must fit the bytes planned for
   * the input (the interpreter option `stringInputBytes`): else an InputError with the sizes.
   */
  setInputStrings(i: number, strings: readonly (string | Uint8Array)[]): void {
    const t = this.input(i);
    if (t.type !== TensorType.STRING) throw new InputError(`input ${i} (${t.name}) is ${tensorTypeName(t.type)}, not a string tensor`);
    this.writeStringInput(i, t, encodeStrings(strings));
  }

  /** The strings of STRING output `j` (decoded as UTF-8; `raw`: as byte arrays). */
  outputStrings(j: number): string[];
  outputStrings(j: number, raw: true): Uint8Array[];
  outputStrings(j: number, raw = false): string[] | Uint8Array[] {
    const t = this.output(j);
    if (t.type !== TensorType.STRING) throw new InputError(`output ${j} (${t.name}) is ${tensorTypeName(t.type)}, not a string tensor`);
    return raw ? decodeStrings(t.bytes, true) : decodeStrings(t.bytes);
  }

  private writeStringInput(i: number, t: Tensor, bytes: Uint8Array): void {
    const problem = validateStringBuffer(bytes, t.elementCount);
    if (problem) throw new InputError(`input ${i} (${t.name}): ${problem}`);
    if (bytes.byteLength > t.byteLength)
      throw new InputError(
        `input ${i} (${t.name}): the strings take ${bytes.byteLength} bytes, ${t.byteLength} are planned (raise the interpreter option stringInputBytes)`,
      );
    t.bytes.set(bytes);
  }

  /**
   * Resets variable tensors of every subgraph to their initial value (zero point for int8, else 0) and
   * the resource variables to their default value, as TFLM's ResetVariableTensors.
   */
  resetVariableTensors(): void {
    this.ready.graph.resetVariableTensors();
  }

  /**
   * TFLM Reset(): every kernel's reset, then variable tensors and resource variables. As in TFLM, a
   * CALL_ONCE that already ran does not run again (its kernel has no reset).
   */
  reset(): void {
    const a = this.ready;
    a.graph.resetSubgraphs();
    a.graph.resetVariableTensors();
  }

  /** Frees every kernel's op data. The interpreter cannot be used afterwards. */
  dispose(): void {
    if (this.state === 'disposed') return;
    this.release();
    this.state = 'disposed';
  }

  /** Frees the current allocation's kernels and delegate buffer handles. */
  private release(): void {
    const a = this.alloc;
    if (a) {
      a.freeAll();
      // Delegates release their buffer handles: every non-constant input and output of their nodes, once.
      const released = new Set<string>();
      for (const e of a.entry.entries) {
        const sync = e.sync;
        if (!sync?.delegate.freeBufferHandle) continue;
        for (const t of [...sync.toHandles, ...sync.fromHandles]) {
          const key = `${e.delegate!.name}/${t}`;
          if (released.has(key)) continue;
          released.add(key);
          sync.delegate.freeBufferHandle(a.context, t);
        }
      }
    }
    this.alloc = null;
    this.arenaAllocator = null;
  }

  /** Messages kernels reported with context.reportError(). */
  get errorLog(): readonly string[] {
    return this.alloc?.host.errors ?? [];
  }

  /** The context (for tests and tools). */
  get context(): MicroContext {
    return this.ready.context;
  }

  /** Number of subgraphs of the model. */
  get subgraphsSize(): number {
    return this.model.subgraphs.length;
  }

  /**
   * The execution plan as node infos (after allocation): the entry subgraph's plan, then the nodes of
   * every other subgraph in operator order (`subgraph` tells them apart).
   */
  nodes(): NodeInfo[] {
    const a = this.ready;
    const entry = a.graph.entry;
    const out: NodeInfo[] = [];
    const order = [entry, ...a.graph.subgraphs.map((s) => s.index).filter((s) => s !== entry)];
    for (const s of order) {
      const sg = a.graph.subgraphs[s]!;
      for (const i of sg.plan) {
        const e = sg.entries[i]!;
        out.push({
          index: e.node.index,
          subgraph: s,
          op: e.op,
          version: e.version,
          provider: e.registration?.provider ?? 'unknown',
          kernel: e.registration?.name ?? e.op,
          inputs: Array.from(e.node.inputs),
          outputs: Array.from(e.node.outputs),
          ...(e.delegate ? { delegate: e.delegate } : {}),
          ...(e.declinedBy.length ? { declinedBy: e.declinedBy } : {}),
          ...(e.declined?.length ? { declined: e.declined } : {}),
          ...(e.folded ? { folded: true as const } : {}),
          ...(e.absorbedInto !== undefined ? { absorbedInto: e.absorbedInto } : {}),
        });
      }
    }
    return out;
  }

  /** Delegated partitions (after allocation). */
  partitions(): PartitionInfo[] {
    return this.ready.delegates.partitions.slice();
  }

  /**
   * The delegates the allocation did not apply, and why (after allocation): a delegate without
   * `flags.allowDynamicTensors` is not applied after `resizeInputTensor` changed an input's shape (it would
   * partition by the file's shapes); its nodes run on the kernels.
   */
  skippedDelegates(): SkippedDelegate[] {
    return this.ready.skippedDelegates.map((d) => ({ ...d }));
  }

  /** The delegate node that owns tensor `index` (an output of a delegated subset), or null. */
  tensorOwner(index: number): TensorOwner | null {
    return this.ready.delegates.tensorOwners.get(index) ?? null;
  }

  /**
   * The schedule's run of this interpreter's allocation (after allocation), or null without a schedule.
   * The schedule's package reads its report from it (`scheduleReport(interpreter)` of @micrort/schedules).
   */
  scheduleRun(): ScheduleRun | null {
    return this.ready.schedule;
  }

  /** The buffers the planner placed and their offsets (after allocation). */
  memoryPlan() {
    return this.ready.allocator.committed!;
  }

  /** Arena figures (after allocation). */
  arenaUsage(): ArenaUsage {
    const a = this.ready;
    const arena = this.arenaAllocator!;
    const committed = a.allocator.committed!;
    const scratchByNode = new Map<string, number>();
    for (const s of a.allocator.scratch) {
      const key = `${s.subgraph}:${s.nodeIndex}`;
      scratchByNode.set(key, (scratchByNode.get(key) ?? 0) + s.bytes);
    }
    const rv = a.graph.resourceVariables as { bufferBytes?: number } | null;
    const entry = a.graph.entry;
    const perNode: ArenaUsage['perNode'] = [];
    const order = [entry, ...a.graph.subgraphs.map((s) => s.index).filter((s) => s !== entry)];
    for (const s of order) {
      const sg = a.graph.subgraphs[s]!;
      for (const i of sg.plan) {
        const row: ArenaUsage['perNode'][number] = {
          index: i,
          op: sg.entries[i]!.op,
          persistentBytes: a.allocator.persistentBytesOf(s, i),
          scratchBytes: scratchByNode.get(`${s}:${i}`) ?? 0,
        };
        if (s !== entry) row.subgraph = s;
        perNode.push(row);
      }
    }
    return {
      arenaBytes: arena.size,
      usedBytes: arena.usedBytes,
      headBytes: arena.headBytes,
      tailBytes: arena.tailBytes,
      tempHighWaterBytes: arena.tempHighWaterBytes,
      persistentBufferBytes: a.allocator.persistentBufferBytes,
      variableBufferBytes: a.allocator.variableBufferBytes,
      resourceVariableBytes: a.resourceVariableTableBytes + (rv?.bufferBytes ?? 0),
      foldedBytes: a.folder.arenaBytes,
      plannedTensorBytes: committed.requirements.filter((r) => r.kind === 'tensor').reduce((s, r) => s + r.size, 0),
      scratchBufferBytes: committed.requirements.filter((r) => r.kind === 'scratch').reduce((s, r) => s + r.size, 0),
      plannedBuffers: committed.requirements.length,
      planner: committed.plannerName,
      planMs: committed.planMs,
      perNode,
    };
  }

  private ioTensor(kind: 'input' | 'output', i: number): Tensor {
    const a = this.ready;
    const sg = a.entry;
    const list = kind === 'input' ? sg.inputs : sg.outputs;
    if (!Number.isInteger(i) || i < 0 || i >= list.length)
      throw new InputError(`${kind} index ${i} out of range (model has ${list.length} ${kind}s)`);
    return sg.tensors[list[i]!]!;
  }
}

function sameDims(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
