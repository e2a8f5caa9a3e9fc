/**
 * The model of TFLM's arena: every allocation a plain `MicroInterpreter` makes in its arena, in order,
 * from the constructor to the first Invoke, as TFLM's code at tflite-micro commit
 * 90b983c2b3f1480642e040bbd2ddb37b998f3424 makes them. From that trace it computes
 *
 * - `usedBytes`: what `MicroInterpreter::arena_used_bytes()` reports after AllocateTensors (planned head +
 *   tail), and
 * - `minBytes`: the smallest arena (a multiple of 16) with which AllocateTensors and the first Invoke
 *   succeed: every allocation on the way has its own condition (prepare's temporary TfLiteTensors above
 *   the scratch-request block, the memory planner's working arrays, ...), and the largest wins.
 *
 * Sources followed (paths under tensorflow/lite/micro/):
 * - micro_interpreter.cc: the constructor (MicroAllocator::Create), AllocateTensors
 *   (StartModelAllocation → PrepareNodeAndRegistrationDataFromFlatbuffer → InitSubgraphs →
 *   PrepareSubgraphs → FinishModelAllocation → input/output TfLiteTensors), Invoke.
 * - micro_allocator.cc: Create (SingleArenaBufferAllocator, GreedyMemoryPlanner, MicroAllocator in the
 *   tail), StartModelAllocation (MicroBuiltinDataAllocator, the scratch-request block of
 *   kMaxScratchBuffersPerOp = 12 ScratchBufferRequests in the head, SubgraphAllocations, TfLiteEvalTensor
 *   and NodeAndRegistration arrays), FinishPrepareNodeAllocations (temp reset; the request block resized
 *   to count + 12), FinishModelAllocation (ScratchBufferHandle array), CommitStaticMemoryPlan
 *   (AllocationInfo array and subgraph offsets in temp, variable tensors in the tail, the planner's scratch
 *   = all remaining memory, 40 bytes per planned buffer), AllocatePersistentTfLiteTensor /
 *   AllocateTempTfLiteTensor (TfLiteTensor + TfLiteAffineQuantization + zero-point TfLiteIntArray).
 * - arena_allocator/single_arena_buffer_allocator.cc: tail allocations align the tail pointer down
 *   (`AlignPointerDown(tail_ - size, alignment)`, checked against head_ only), temp allocations align up
 *   from temp_, ResizeBuffer/ReserveNonPersistentOverlayMemory size the head from the buffer start,
 *   GetAvailableMemory(16) = AlignDown(tail_) - AlignUp(temp_).
 * - micro_allocation_info.cc: which tensors the planner gets (non-constant, non-variable, non-empty, plus
 *   offline-planned variables) and the AllocationInfo array size.
 * - micro_resource_variable.cc: MicroResourceVariables::Create (for models with VAR_HANDLE).
 * Per-operator allocations (builtin data, Init, Prepare, Eval) come from kernels.ts.
 *
 * The arena is assumed 16-byte aligned with a size that is a multiple of 16 (as the reference runner's),
 * so tail positions do not depend on the arena size and each condition is a lower bound on it.
 */
import { BuiltinOperator, type ModelDef } from '@micrort/core';
import { alignOf, alignTo, sizeOf, structLayout, type Abi, type StructDef } from '../abi.js';
import type { KernelArena, KernelModel, TensorField } from './kernel-model.js';
import { nodeView, tensorView, type NodeView, type TensorView } from './node-view.js';
import {
  AllocationInfo,
  GREEDY_PER_BUFFER_BYTES,
  GreedyMemoryPlanner,
  MicroAllocator,
  MicroBuiltinDataAllocator,
  MicroResourceVariable,
  MicroResourceVariables,
  NodeAndRegistration,
  ScratchBufferHandle,
  ScratchBufferRequest,
  SingleArenaBufferAllocator,
  SubgraphAllocations,
  TfLiteAffineQuantization,
  TfLiteEvalTensor,
  TfLiteQuantization,
  TfLiteTensor,
  intArrayBytes,
} from './structs.js';

/** micro_allocator.cc kMaxScratchBuffersPerOp. */
export const MAX_SCRATCH_BUFFERS_PER_OP = 12;
/** MicroArenaBufferAlignment(): alignment of AllocatePersistentBuffer, the planned head and variables. */
export const ARENA_BUFFER_ALIGNMENT = 16;

/** What the tail holds, by kind. */
export type TailKind =
  | 'allocator'
  | 'graph'
  | 'builtinData'
  | 'opData'
  | 'prepare'
  | 'variables'
  | 'scratchHandles'
  | 'ioTensors'
  | 'resourceVariables'
  | 'padding';

/** Human-readable names of the tail kinds. */
export const TAIL_KIND_LABELS: Record<TailKind, string> = {
  allocator: 'allocator objects (SingleArenaBufferAllocator, GreedyMemoryPlanner, MicroAllocator, builtin-data allocator)',
  graph: 'graph structs (SubgraphAllocations, TfLiteEvalTensor and NodeAndRegistration arrays)',
  builtinData: 'parsed builtin options (TfLite*Params)',
  opData: 'kernel op data (Init)',
  prepare: 'kernel buffers allocated in Prepare (per-channel arrays, tables, resource buffers)',
  variables: 'variable tensors',
  scratchHandles: 'scratch buffer handles',
  ioTensors: 'input/output TfLiteTensors (with quantization) and their pointer arrays',
  resourceVariables: 'resource-variable table (MicroResourceVariables)',
  padding: 'alignment padding',
};

/** Inputs of the arena model besides the model itself. */
export interface ArenaModelInputs {
  abi: Abi;
  /** The kernel model of an op (`CONV_2D`, `CUSTOM:SignalWindow`), or undefined when none exists. */
  kernel: (op: string) => KernelModel | undefined;
  /** Scratch buffers each node requests in Prepare: `[subgraph][node]` → request count. */
  scratchRequests: readonly (readonly number[])[];
  /** The planned head in bytes (GreedyMemoryPlanner::GetMaximumMemorySize of the plan). */
  headBytes: number;
  /**
   * Offline offsets of every tensor of every subgraph (OfflineMemoryAllocation), or null. Variable
   * tensors with an offset are planned in the head instead of the tail.
   */
  offlineOffsets: Int32Array | null;
  /** Slots of the MicroResourceVariables created before the interpreter (0: none). */
  resourceVariableSlots: number;
  /** When given, receives one line per allocation (for debugging and `--trace`). */
  log?: string[];
}

/** One condition on the arena size, and the step that imposes it. */
export interface ArenaCondition {
  /** The smallest arena (not yet rounded to 16) this step succeeds with. */
  bytes: number;
  /** The step, e.g. `prepare of node 3 (FULLY_CONNECTED)`. */
  step: string;
}

/** The model's prediction for one ABI. */
export interface ArenaPrediction {
  abi: string;
  headBytes: number;
  tailBytes: number;
  /** headBytes + tailBytes: MicroInterpreter::arena_used_bytes(). */
  usedBytes: number;
  /** The smallest kTensorArenaSize (multiple of 16) with which AllocateTensors and Invoke succeed. */
  minBytes: number;
  /** The step whose condition sets minBytes. */
  limitedBy: string;
  tailByKind: Record<TailKind, number>;
  /** Buffers the memory planner places (planned tensors and scratch buffers). */
  plannedBuffers: number;
  scratchBuffers: number;
  /** Ops with no kernel model: their allocations are missing, so the figures are lower bounds. */
  unmodelledOps: string[];
}

function emptyKinds(): Record<TailKind, number> {
  return {
    allocator: 0,
    graph: 0,
    builtinData: 0,
    opData: 0,
    prepare: 0,
    variables: 0,
    scratchHandles: 0,
    ioTensors: 0,
    resourceVariables: 0,
    padding: 0,
  };
}

/**
 * Arena sizes at which a step fails although every size check passes: a kernel's Prepare allocates a
 * persistent buffer after its temp TfLiteTensors and writes it, and TFLM's AllocatePersistentBuffer only
 * checks the tail against head_, not temp_, so the buffer may land on the temp structs. When it overwrites
 * the fields read later (DeallocateTempTfLiteTensor reads quantization.type/params and the zero_point
 * pointer; kernels read type/params/dims), the temp checksum or the kernel fails. Sizes N with
 * `lo < N < hi` fail.
 */
export interface ArenaGap {
  lo: number;
  hi: number;
  step: string;
}

/** The allocator state: tail bytes (from the arena end), head_ and temp_ (from the arena start). */
class ArenaState {
  tail = 0;
  head = 0;
  temp = 0;
  readonly kinds = emptyKinds();
  readonly conditions: ArenaCondition[] = [];
  readonly gaps: ArenaGap[] = [];
  /** Byte ranges [start, end) of the current node's temp allocations that are read again before the node ends. */
  critical: [number, number][] = [];
  step = 'MicroInterpreter constructor';
  /** Every allocation, when a log is asked for. */
  log: string[] | null = null;

  private need(bytes: number): void {
    const last = this.conditions[this.conditions.length - 1];
    if (last && last.step === this.step) last.bytes = Math.max(last.bytes, bytes);
    else this.conditions.push({ bytes, step: this.step });
  }

  /**
   * AllocatePersistentBuffer(size, alignment): tail_ = AlignPointerDown(tail_ - size), failing below
   * head_. `written` bytes from its start are written while this node's temp structs are still in use.
   */
  persistent(bytes: number, alignment: number, kind: TailKind, written: number | readonly [number, number] = 0): void {
    const before = this.tail;
    this.tail = alignTo(this.tail + bytes, alignment);
    this.kinds[kind] += bytes;
    this.kinds.padding += this.tail - before - bytes;
    this.log?.push(`${this.step}: tail +${bytes} (align ${alignment}) -> tail ${this.tail}, head ${this.head}, temp ${this.temp}`);
    this.need(this.tail + this.head);
    // The written part [N - tail + w0, N - tail + w1) must miss every critical temp range [a, b).
    const [w0, w1] = typeof written === 'number' ? [0, written] : written;
    if (w1 > w0) for (const [a, b] of this.critical) this.gaps.push({ lo: this.tail + a - w1, hi: this.tail + b - w0, step: this.step });
  }

  persistentStruct(s: StructDef, abi: Abi, kind: TailKind, count = 1): void {
    this.persistent(sizeOf(s, abi) * count, alignOf(s, abi), kind);
  }

  /**
   * AllocateTemp(size, alignment): from AlignPointerUp(temp_), fails when tail_ - that < size. `critical`
   * byte ranges (relative to the allocation) are read again before the node ends. Returns the start.
   */
  tempAlloc(bytes: number, alignment: number, critical: [number, number] | null = null): number {
    const start = alignTo(this.temp, alignment);
    this.temp = start + bytes;
    if (critical) this.critical.push([start + critical[0], start + critical[1]]);
    this.log?.push(`${this.step}: temp +${bytes} (align ${alignment}) -> temp ${this.temp}, tail ${this.tail}`);
    this.need(this.temp + this.tail);
    return start;
  }

  /** ResetTempAllocations. */
  resetTemp(): void {
    this.temp = this.head;
    this.critical = [];
  }

  /** ResizeBuffer / ReserveNonPersistentOverlayMemory at the buffer start (temp must be reset). */
  resizeHead(bytes: number): void {
    this.log?.push(`${this.step}: head = ${bytes}, tail ${this.tail}`);
    this.head = bytes;
    this.temp = bytes;
    this.need(bytes + this.tail);
  }

  /**
   * CommitStaticMemoryPlan's planner scratch: remaining = GetAvailableMemory(16), all of it taken as a
   * temp buffer; GreedyMemoryPlanner::Init can then plan remaining / per_buffer_size buffers.
   */
  plannerScratch(buffers: number): void {
    this.need(alignTo(this.tail, ARENA_BUFFER_ALIGNMENT) + alignTo(this.temp, ARENA_BUFFER_ALIGNMENT) + GREEDY_PER_BUFFER_BYTES * buffers);
  }
}

/** The smallest multiple of 16 that is at least `from` and in no gap. */
export function smallestArena(from: number, gaps: readonly ArenaGap[]): { bytes: number; gap: ArenaGap | null } {
  let n = alignTo(from, ARENA_BUFFER_ALIGNMENT);
  let blocking: ArenaGap | null = null;
  for (let moved = true; moved;) {
    moved = false;
    for (const g of gaps)
      if (n > g.lo && n < g.hi) {
        n = alignTo(g.hi, ARENA_BUFFER_ALIGNMENT);
        blocking = g;
        moved = true;
      }
  }
  return { bytes: n, gap: blocking };
}

/** TfLiteEvalTensorByteLength of a tensor (0 for types without a fixed size). */
function evalBytes(t: TensorView): number {
  return t.bytes;
}

/** Whether the model creates resource variables (VAR_HANDLE). */
export function usesResourceVariables(model: ModelDef): boolean {
  return model.operatorCodes.some((c) => c.builtinCode === BuiltinOperator.VAR_HANDLE);
}

/**
 * Buffers TFLM's planner places: every tensor of every subgraph with no constant data, not a variable
 * (unless it has an offline offset) and a non-zero size (micro_allocation_info.cc
 * InitializeAllocationInfo), plus every scratch buffer.
 */
export function plannedBufferCount(
  model: ModelDef,
  scratchBuffers: number,
  offline: Int32Array | null,
  kernel: (op: string) => KernelModel | undefined = () => undefined,
): number {
  let n = scratchBuffers;
  let flat = 0;
  model.subgraphs.forEach((sg, s) => {
    const unplanned = unplannedTensors(model, s, kernel);
    sg.tensors.forEach((_, i) => {
      const t = tensorView(model, s, i);
      const offset = offline ? (offline[flat] ?? -1) : -1;
      flat++;
      const bytes = evalBytes(t);
      if (t.isVariable) {
        if (offset !== -1) n++;
        return;
      }
      if (t.data === null && bytes !== 0 && !unplanned.has(i)) n++;
    });
  });
  return n;
}

/** Tensors of subgraph `s` that a kernel's Prepare gives data of their own (KernelModel.outputsNotPlanned). */
export function unplannedTensors(model: ModelDef, s: number, kernel: (op: string) => KernelModel | undefined): Set<number> {
  const out = new Set<number>();
  model.subgraphs[s]!.operators.forEach((_, i) => {
    const n = nodeView(model, s, i);
    if (kernel(n.op)?.outputsNotPlanned) for (const t of n.def.outputs) if (t >= 0) out.add(t);
  });
  return out;
}

/** Runs the model of TFLM's arena for one ABI. */
export function predictArena(model: ModelDef, inputs: ArenaModelInputs): ArenaPrediction {
  const { abi } = inputs;
  const a = new ArenaState();
  if (inputs.log) a.log = inputs.log;
  const unmodelled = new Set<string>();
  const nodes: NodeView[][] = model.subgraphs.map((sg, s) => sg.operators.map((_, i) => nodeView(model, s, i)));
  const kernelOf = (n: NodeView): KernelModel | undefined => {
    const k = inputs.kernel(n.op);
    if (!k) unmodelled.add(n.op);
    return k;
  };

  // MicroInterpreter(model, resolver, arena, size) → MicroAllocator::Create(arena, size, kGreedy).
  a.persistentStruct(SingleArenaBufferAllocator, abi, 'allocator');
  a.persistentStruct(GreedyMemoryPlanner, abi, 'allocator');
  a.persistentStruct(MicroAllocator, abi, 'allocator');
  if (inputs.resourceVariableSlots > 0) {
    // MicroResourceVariables::Create(allocator, slots): two MicroAllocator::AllocatePersistentBuffer calls.
    a.step = 'MicroResourceVariables::Create';
    a.persistent(sizeOf(MicroResourceVariables, abi), ARENA_BUFFER_ALIGNMENT, 'resourceVariables');
    a.persistent(sizeOf(MicroResourceVariable, abi) * inputs.resourceVariableSlots, ARENA_BUFFER_ALIGNMENT, 'resourceVariables');
  }

  // AllocateTensors → StartModelAllocation.
  a.step = 'StartModelAllocation';
  a.persistentStruct(MicroBuiltinDataAllocator, abi, 'allocator');
  const requestBytes = sizeOf(ScratchBufferRequest, abi);
  a.resizeHead(requestBytes * MAX_SCRATCH_BUFFERS_PER_OP);
  a.persistentStruct(SubgraphAllocations, abi, 'graph', model.subgraphs.length);
  for (const sg of model.subgraphs) a.persistentStruct(TfLiteEvalTensor, abi, 'graph', sg.tensors.length);
  for (const sg of model.subgraphs) a.persistentStruct(NodeAndRegistration, abi, 'graph', sg.operators.length);

  // PrepareNodeAndRegistrationDataFromFlatbuffer: each builtin op's parser allocates its params.
  a.step = 'parsing builtin options';
  for (const list of nodes)
    for (const n of list) {
      if (n.builtinCode === BuiltinOperator.CUSTOM) continue;
      const k = kernelOf(n);
      if (k?.params) a.persistentStruct(k.params, abi, 'builtinData');
    }

  // InitSubgraphs.
  for (const list of nodes)
    for (const n of list) {
      a.step = `init of ${where(n)}`;
      const k = kernelOf(n);
      for (const bytes of k?.init?.(n, abi) ?? []) a.persistent(bytes, ARENA_BUFFER_ALIGNMENT, 'opData');
    }

  // PrepareSubgraphs: each node's Prepare, then FinishPrepareNodeAllocations.
  let requests = 0;
  const tensorLayout = structLayout(TfLiteTensor, abi);
  const fieldRange = (f: TensorField): [number, number] => {
    const i = TfLiteTensor.fields.findIndex(([name]) => name === f);
    const start = tensorLayout.offsets[i]!;
    return [start, start + sizeOf(TfLiteTensor.fields[i]![1], abi)];
  };
  const tempTensor = (t: TensorView | null, reads: readonly TensorField[] = []): TensorView | null => {
    if (!t) return null;
    // DeallocateTempTfLiteTensor reads the TfLiteTensor's quantization {type, params} and the
    // TfLiteAffineQuantization's zero_point pointer; overwriting them breaks the temp checksum. The
    // kernel may read more fields (`reads`).
    const start = a.tempAlloc(sizeOf(TfLiteTensor, abi), alignOf(TfLiteTensor, abi), [0, sizeOf(TfLiteQuantization, abi)]);
    for (const f of reads) {
      const [b, e] = fieldRange(f);
      a.critical.push([start + b, start + e]);
    }
    if (t.quantized) {
      a.tempAlloc(sizeOf(TfLiteAffineQuantization, abi), alignOf(TfLiteAffineQuantization, abi), [abi.pointerBytes, 2 * abi.pointerBytes]);
      a.tempAlloc(intArrayBytes(t.channels), 4);
    }
    return t;
  };
  const kernelArena = (n: NodeView): KernelArena => ({
    abi,
    tempInput: (i, reads) => tempTensor(n.inputs[i] ?? null, reads),
    tempOutput: (i, reads) => tempTensor(n.outputs[i] ?? null, reads),
    tempIntermediate: (i, reads) => tempTensor(n.intermediates[i] ?? null, reads),
    tempTensor: (t) => tempTensor(t),
    persistent: (bytes, _what, written = bytes) => a.persistent(bytes, ARENA_BUFFER_ALIGNMENT, 'prepare', written),
    tempBuffer: (bytes, alignment) => {
      a.tempAlloc(bytes, alignment, [0, bytes]);
    },
  });
  nodes.forEach((list, s) =>
    list.forEach((n, i) => {
      a.step = `prepare of ${where(n)}`;
      kernelOf(n)?.prepare?.(n, kernelArena(n));
      a.resetTemp();
      requests += inputs.scratchRequests[s]?.[i] ?? 0;
      a.resizeHead(requestBytes * (requests + MAX_SCRATCH_BUFFERS_PER_OP));
    }),
  );

  // FinishModelAllocation.
  a.step = 'memory planning (CommitStaticMemoryPlan)';
  if (requests > 0) a.persistentStruct(ScratchBufferHandle, abi, 'scratchHandles', requests);
  const totalTensors = model.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  a.tempAlloc(abi.pointerBytes * model.subgraphs.length, abi.pointerBytes); // subgraph_offsets (size_t each)
  a.tempAlloc(sizeOf(AllocationInfo, abi) * (totalTensors + requests), alignOf(AllocationInfo, abi));
  let flat = 0;
  model.subgraphs.forEach((sg, s) =>
    sg.tensors.forEach((_, i) => {
      const t = tensorView(model, s, i);
      const offset = inputs.offlineOffsets ? (inputs.offlineOffsets[flat] ?? -1) : -1;
      flat++;
      if (t.isVariable && offset === -1) a.persistent(evalBytes(t), ARENA_BUFFER_ALIGNMENT, 'variables');
    }),
  );
  const planned = plannedBufferCount(model, requests, inputs.offlineOffsets, inputs.kernel);
  a.plannerScratch(planned);
  a.resetTemp();
  a.resizeHead(0); // DeallocateResizableBuffer(scratch_buffer_head_)
  a.step = 'committing the planned head';
  a.resizeHead(inputs.headBytes); // ReserveNonPersistentOverlayMemory(max_head_buffer_usage_, 16)

  // Input and output TfLiteTensors (persistent), each list behind a pointer array.
  a.step = 'input/output tensors';
  const sg0 = model.subgraphs[0];
  for (const list of [sg0?.inputs ?? new Int32Array(0), sg0?.outputs ?? new Int32Array(0)]) {
    a.persistent(abi.pointerBytes * list.length, ARENA_BUFFER_ALIGNMENT, 'ioTensors');
    for (const idx of list) {
      const t = tensorView(model, 0, idx);
      a.persistentStruct(TfLiteTensor, abi, 'ioTensors');
      if (t.quantized) {
        a.persistentStruct(TfLiteAffineQuantization, abi, 'ioTensors');
        a.persistent(intArrayBytes(t.channels), 4, 'ioTensors');
      }
    }
  }
  const tailBytes = a.tail;
  const usedBytes = inputs.headBytes + tailBytes;

  // Invoke: temp allocations a kernel's Eval makes sit above the head.
  for (const list of nodes)
    for (const n of list) {
      const k = kernelOf(n);
      if (!k?.eval) continue;
      a.step = `invoke of ${where(n)}`;
      k.eval(n, kernelArena(n));
      a.resetTemp();
    }

  let limit: ArenaCondition = { bytes: usedBytes, step: 'the final layout (head + tail)' };
  for (const c of a.conditions) if (c.bytes > limit.bytes) limit = c;
  const smallest = smallestArena(limit.bytes, a.gaps);
  return {
    abi: abi.name,
    headBytes: inputs.headBytes,
    tailBytes,
    usedBytes,
    minBytes: smallest.bytes,
    limitedBy: smallest.gap ? `${smallest.gap.step}: a persistent buffer would overwrite its temp tensors` : limit.step,
    tailByKind: a.kinds,
    plannedBuffers: planned,
    scratchBuffers: requests,
    unmodelledOps: [...unmodelled].sort(),
  };
}

function where(n: NodeView): string {
  return `${n.subgraph > 0 ? `subgraph ${n.subgraph} ` : ''}node ${n.index} (${n.op})`;
}
