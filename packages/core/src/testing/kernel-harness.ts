import { ActivationFunctionType } from '../options.js';
import type { BuiltinOptions } from '../options.js';
import { KernelError, PhaseError } from '../errors.js';
import { ArenaRegion } from '../kernel/arena-region.js';
import { Phase, type Node, type NodeAndRegistration, type Registration, type TfLiteContext } from '../kernel/api.js';
import { AllocationType, Tensor, type EvalTensor } from '../kernel/tensor.js';
import { TensorType, alignUp, elementSize, numElements } from '../types.js';
import { MicroResourceVariables } from '../graph/resource-variables.js';
import type { SparsityDef } from '../model/model-def.js';
import { actualShapeProblem, resizeTensor, type ShapeRule } from '../interpreter/shapes.js';

/** One tensor of a kernel test. */
export interface HarnessTensorSpec {
  type: TensorType;
  shape: number[];
  /** Initial values (inputs and constants). Omit for outputs. */
  data?: ArrayLike<number> | ArrayLike<bigint>;
  /** Constant (model data) rather than a runtime input. Default: false. */
  constant?: boolean;
  /** Per-tensor scale or per-channel scales. */
  scale?: number | number[];
  zeroPoint?: number | number[];
  quantizedDimension?: number;
  variable?: boolean;
  name?: string;
  /** Sparse constant: `data` holds the stored values only (see Tensor.sparsity). */
  sparsity?: SparsityDef;
}

export interface HarnessOptions {
  registration: Registration;
  /** Tensors by index; `inputs`/`outputs` refer to these indices. */
  tensors: HarnessTensorSpec[];
  inputs: number[];
  outputs: number[];
  intermediates?: number[];
  builtinData?: BuiltinOptions | null;
  customInitialData?: Uint8Array | null;
  /**
   * Give the context resource variables with this many slots (for VAR_HANDLE / ASSIGN_VARIABLE /
   * READ_VARIABLE kernels); default none (`getResourceVariables()` returns null).
   */
  resourceVariables?: number;
  /**
   * How the context treats `resizeTensor` (as the interpreter option `shapes`): `'computed'` (default)
   * gives the output the computed shape — after prepare, every resized output gets a fresh buffer of
   * its new size —, `'file'` keeps the spec's shape and throws TensorResizeError on a different one.
   */
  shapes?: ShapeRule;
}

/**
 * Runs one kernel through init → prepare → invoke with a fake context (no interpreter, no planner).
 * Each tensor gets its own aligned buffer, so aliasing bugs between tensors cannot hide. Enforces the
 * same phase rules as the real context and records persistent/scratch bytes the kernel asked for.
 *
 * ```ts
 * const h = new KernelHarness({ registration: ADD, tensors: [...], inputs: [0, 1], outputs: [2], builtinData: {...} });
 * h.prepare();
 * h.invoke();
 * h.output(0) // typed array
 * ```
 */
export class KernelHarness {
  readonly context: TfLiteContext;
  readonly node: Node;
  readonly tensors: Tensor[];
  /** Bytes requested via allocatePersistentBuffer. */
  persistentBytes = 0;
  /** Sizes of scratch buffers requested in prepare. */
  readonly scratchSizes: number[] = [];
  readonly errors: string[] = [];
  private phase: Phase = Phase.Idle;
  private scratch: ArenaRegion[] = [];
  private prepared = false;
  private opData: unknown;
  /** Outputs whose shape the kernel set in prepare (rebound to their new size after prepare). */
  private readonly resized = new Set<Tensor>();
  /** The context's resource variables (option `resourceVariables`), or null. */
  readonly resourceVariables: MicroResourceVariables | null;

  constructor(private readonly opts: HarnessOptions) {
    this.tensors = opts.tensors.map((spec, i) => makeTensor(i, spec));
    const node: Node = {
      index: 0,
      inputs: Int32Array.from(opts.inputs),
      outputs: Int32Array.from(opts.outputs),
      intermediates: Int32Array.from(opts.intermediates ?? []),
      temporaries: new Int32Array(0),
      builtinData: opts.builtinData ?? null,
      customInitialData: opts.customInitialData ?? null,
      userData: undefined,
    };
    this.node = node;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const h = this;
    const guard = (name: string, allowed: Phase[]) => {
      if (!allowed.includes(h.phase)) throw new PhaseError(name, h.phase, allowed);
    };
    const noSubgraphs = (name: string): never => {
      throw new KernelError(
        'harness',
        0,
        `${name}: the kernel harness runs one node, it has no subgraphs (test control flow through a MicroInterpreter)`,
      );
    };
    this.resourceVariables =
      opts.resourceVariables !== undefined
        ? new MicroResourceVariables(
            opts.resourceVariables,
            (bytes) => new ArenaRegion(new ArrayBuffer(alignUp(Math.max(bytes, 16))), 0, bytes),
          )
        : null;
    this.context = {
      get phase() {
        return h.phase;
      },
      shapeRule: opts.shapes ?? 'computed',
      get tensorsSize() {
        return h.tensors.length;
      },
      allocatePersistentBuffer(bytes: number) {
        guard('allocatePersistentBuffer', [Phase.Init, Phase.Prepare]);
        const size = alignUp(bytes);
        h.persistentBytes += size;
        return new ArenaRegion(new ArrayBuffer(Math.max(size, 16)), 0, bytes);
      },
      requestScratchBufferInArena(bytes: number) {
        guard('requestScratchBufferInArena', [Phase.Prepare]);
        h.scratchSizes.push(bytes);
        return h.scratchSizes.length - 1;
      },
      getScratchBuffer(index: number) {
        guard('getScratchBuffer', [Phase.Invoke]);
        const r = h.scratch[index];
        if (!r) throw new KernelError('harness', 0, `scratch buffer ${index} was not requested`);
        return r;
      },
      getTensor(index: number) {
        guard('getTensor', [Phase.Init, Phase.Prepare]);
        const t = h.tensors[index];
        if (!t) throw new KernelError('harness', 0, `tensor ${index} out of range`);
        return t;
      },
      getEvalTensor(index: number): EvalTensor {
        guard('getEvalTensor', [Phase.Prepare, Phase.Invoke]);
        const t = h.tensors[index];
        if (!t) throw new KernelError('harness', 0, `tensor ${index} out of range`);
        return t;
      },
      resizeTensor(index: number, dims: ArrayLike<number>) {
        guard('resizeTensor', [Phase.Prepare]);
        h.resize(index, dims, false);
      },
      declareShapeBound(index: number, maxDims: ArrayLike<number>) {
        guard('declareShapeBound', [Phase.Prepare]);
        h.resize(index, maxDims, true);
      },
      setActualShape(index: number, dims: ArrayLike<number>) {
        guard('setActualShape', [Phase.Invoke]);
        const t = h.tensors[index];
        if (!t) throw new KernelError('harness', 0, `tensor ${index} out of range`);
        const problem = actualShapeProblem(t, dims);
        if (problem !== null) throw new KernelError(h.kernelName, 0, `setActualShape(${index}): ${problem}`);
        for (let i = 0; i < t.dims.length; i++) t.dims[i] = dims[i]!;
      },
      reportError(message: string) {
        h.errors.push(message);
      },
      getExternalContext() {
        return undefined;
      },
      getExecutionPlan() {
        throw new PhaseError('getExecutionPlan', h.phase, ['delegate prepare']);
      },
      getNodeAndRegistration(): NodeAndRegistration {
        throw new PhaseError('getNodeAndRegistration', h.phase, ['delegate prepare']);
      },
      replaceNodeSubsetsWithDelegateKernels() {
        throw new PhaseError('replaceNodeSubsetsWithDelegateKernels', h.phase, ['delegate prepare']);
      },
      currentSubgraph: 0,
      numSubgraphs: () => 1,
      numSubgraphInputs: () => noSubgraphs('numSubgraphInputs'),
      numSubgraphOutputs: () => noSubgraphs('numSubgraphOutputs'),
      subgraphBuiltinCodes: () => noSubgraphs('subgraphBuiltinCodes'),
      getSubgraphInput: () => noSubgraphs('getSubgraphInput'),
      getSubgraphOutput: () => noSubgraphs('getSubgraphOutput'),
      invokeSubgraph: () => noSubgraphs('invokeSubgraph'),
      resizeSubgraphInput: () => noSubgraphs('resizeSubgraphInput'),
      prepareSubgraph: () => noSubgraphs('prepareSubgraph'),
      getResourceVariables() {
        guard('getResourceVariables', [Phase.Prepare, Phase.Invoke]);
        return h.resourceVariables;
      },
      absorbPad() {
        guard('absorbPad', [Phase.Prepare]);
        return null; // one node, no PAD before it
      },
    };
  }

  private get kernelName(): string {
    return this.opts.registration.name ?? this.opts.registration.customName ?? 'kernel';
  }

  /** The context's `resizeTensor` / `declareShapeBound` (the interpreter's checks, interpreter/shapes.ts). */
  private resize(index: number, dims: ArrayLike<number>, bound: boolean): void {
    const t = this.tensors[index];
    // The harness binds outputs before prepare: checked as unbound outputs, as the interpreter sees them.
    const type = t?.allocationType;
    if (t && type === AllocationType.ArenaRw) t.allocationType = AllocationType.None;
    try {
      resizeTensor(this.opts.shapes ?? 'computed', this.tensors, 0, { op: this.kernelName, node: this.node }, index, dims, bound);
    } finally {
      if (t && type !== undefined) t.allocationType = type;
    }
    this.resized.add(t!);
  }

  /** Whether the registration's `supports` accepts this node (true when it has none). */
  supports(): boolean {
    return this.supportsAnswer() === true;
  }

  /** What the registration's `supports` answers: `true`, `false` or the reason it declines. */
  supportsAnswer(): boolean | string {
    const reg = this.opts.registration;
    if (!reg.supports) return true;
    this.phase = Phase.Init;
    try {
      return reg.supports(this.context, this.node);
    } finally {
      this.phase = Phase.Idle;
    }
  }

  /** init + prepare, then binds scratch buffers. */
  prepare(): this {
    const reg = this.opts.registration;
    this.phase = Phase.Init;
    const initData = this.opts.customInitialData ?? this.opts.builtinData ?? null;
    this.opData = reg.init ? reg.init(this.context, initData) : undefined;
    this.node.userData = this.opData;
    this.phase = Phase.Prepare;
    try {
      reg.prepare?.(this.context, this.node);
    } finally {
      this.phase = Phase.Idle;
    }
    // Outputs the kernel resized get a buffer of their new size (the interpreter plans them after prepare).
    for (const t of this.resized) {
      if (t.isConstant || t.isVariable) continue;
      const bytes = alignUp(Math.max(t.byteLength, 16));
      if (t.bytes.byteLength !== t.byteLength) t.bind(new ArrayBuffer(bytes), 0, AllocationType.ArenaRw);
    }
    this.scratch = this.scratchSizes.map((s) => new ArenaRegion(new ArrayBuffer(alignUp(Math.max(s, 16))), 0, s));
    this.prepared = true;
    return this;
  }

  /** invoke (prepares first if needed). */
  invoke(): this {
    if (!this.prepared) this.prepare();
    this.phase = Phase.Invoke;
    try {
      this.opts.registration.invoke(this.context, this.node);
    } finally {
      this.phase = Phase.Idle;
    }
    return this;
  }

  /** reset (stateful kernels), as the interpreter's reset does: variable tensors back to 0 (int8: the zero point). */
  reset(): this {
    for (const t of this.tensors) if (t.isVariable) t.bytes.fill(t.type === TensorType.INT8 ? t.params.zeroPoint & 0xff : 0);
    this.resourceVariables?.resetAll();
    this.opts.registration.reset?.(this.context, this.opData);
    return this;
  }

  /** Sets an input's values. */
  setInput(i: number, values: ArrayLike<number>): this {
    const t = this.tensors[this.opts.inputs[i]!]!;
    (t.data as unknown as { set(v: ArrayLike<number>): void }).set(values);
    return this;
  }

  /** The typed data of output `i`. */
  output<T = ArrayLike<number>>(i = 0): T {
    return this.tensors[this.opts.outputs[i]!]!.data as unknown as T;
  }

  /** Output `i` as a plain number array. */
  outputArray(i = 0): number[] {
    return Array.from(this.tensors[this.opts.outputs[i]!]!.data as ArrayLike<number>);
  }
}

function makeTensor(index: number, spec: HarnessTensorSpec): Tensor {
  const scales = spec.scale === undefined ? [] : Array.isArray(spec.scale) ? spec.scale : [spec.scale];
  const zps = spec.zeroPoint === undefined ? scales.map(() => 0) : Array.isArray(spec.zeroPoint) ? spec.zeroPoint : [spec.zeroPoint];
  const quant =
    scales.length > 0
      ? { scale: Float32Array.from(scales), zeroPoint: Int32Array.from(zps), quantizedDimension: spec.quantizedDimension ?? 0 }
      : null;
  const t = new Tensor(
    index,
    spec.name ?? `t${index}`,
    spec.type,
    Int32Array.from(spec.shape),
    quant,
    spec.variable ?? false,
    spec.sparsity ?? null,
  );
  const es = elementSize(spec.type);
  if (es === undefined) throw new RangeError(`harness: tensor ${index} has unsupported type ${TensorType[spec.type]}`);
  const elements = spec.sparsity ? (spec.data?.length ?? 0) : numElements(spec.shape);
  const buf = new ArrayBuffer(alignUp(Math.max(elements * es, 16)));
  t.bind(
    buf,
    0,
    spec.constant ? AllocationType.MmapRo : spec.variable ? AllocationType.ArenaRwPersistent : AllocationType.ArenaRw,
    elements,
  );
  if (spec.data) (t.data as unknown as { set(v: ArrayLike<number> | ArrayLike<bigint>): void }).set(spec.data);
  return t;
}

export { ActivationFunctionType };
