import { PhaseError, MicrortError } from '../errors.js';
import type { ArenaRegion } from '../kernel/arena-region.js';
import {
  Phase,
  type AbsorbedPad,
  type Node,
  type NodeAndRegistration,
  type Registration,
  type ResourceVariables,
  type ShapeRule,
  type TfLiteContext,
} from '../kernel/api.js';
import type { EvalTensor, Tensor } from '../kernel/tensor.js';
import { actualShapeProblem } from './shapes.js';

/** What the context needs from the interpreter's current allocation. */
export interface ContextHost {
  allocatePersistentBuffer(bytes: number): ArenaRegion;
  requestScratchBuffer(bytes: number): number;
  scratchRegion(index: number): ArenaRegion | undefined;
  executionPlan(): Int32Array;
  nodeAndRegistration(nodeIndex: number): NodeAndRegistration;
  replaceNodeSubsets(registration: Registration, nodes: ArrayLike<number>, delegate: unknown): void;
  externalContext(key: string): unknown;
  recordError(message: string): void;
  /** `resizeTensor` (bound false) or `declareShapeBound` (bound true) of the node being prepared. */
  resizeTensor(index: number, dims: ArrayLike<number>, bound: boolean): void;
  /** The error a wrong `setActualShape` throws. */
  actualShapeError(index: number, dims: ArrayLike<number>, problem: string): Error;
  /** The subgraph layer (TFLM's MicroGraph). */
  readonly graph: ContextGraph;
  /** `absorbPad` of the node being prepared (interpreter/pad-absorption.ts). */
  absorbPad(node: Node, inputSlot: number, accept?: (pad: AbsorbedPad) => boolean): AbsorbedPad | null;
}

/** What the context needs from the graph layer (graph/micro-graph.ts). */
export interface ContextGraph {
  readonly subgraphCount: number;
  subgraphIo(subgraph: number, kind: 'input' | 'output'): Int32Array;
  subgraphBuiltinCodes(subgraph: number): readonly number[];
  subgraphTensor(subgraph: number, tensorIndex: number): Tensor;
  invokeSubgraph(subgraph: number): void;
  resizeSubgraphInput(subgraph: number, i: number, dims: ArrayLike<number>, rule: ShapeRule): void;
  prepareSubgraph(subgraph: number): void;
  readonly resourceVariables: ResourceVariables | null;
}

const INIT_PREPARE = [Phase.Init, Phase.Prepare] as const;
const PREPARE = [Phase.Prepare] as const;
const INVOKE = [Phase.Invoke] as const;
const PREPARE_INVOKE = [Phase.Prepare, Phase.Invoke] as const;
const EMPTY: readonly Tensor[] = [];

/**
 * The TfLiteContext given to kernels and delegates. Every callback checks the phase (see the table on
 * `Phase`) and throws PhaseError naming the callback, the current phase and the allowed ones.
 *
 * `tensors` and `currentSubgraph` are the subgraph whose node runs; the graph layer switches them when
 * it enters another subgraph (init/prepare of its nodes, invokeSubgraph).
 */
export class MicroContext implements TfLiteContext {
  phase: Phase = Phase.Idle;
  /** The allocation's shape rule (interpreter option `shapes`). */
  shapeRule: ShapeRule = 'computed';
  /** True only while a delegate's prepare runs. */
  delegatePreparing = false;
  /** Tensors of the current subgraph. */
  tensors: readonly Tensor[] = EMPTY;
  currentSubgraph = 0;

  constructor(private readonly host: ContextHost) {}

  get tensorsSize(): number {
    return this.tensors.length;
  }

  allocatePersistentBuffer(bytes: number): ArenaRegion {
    this.guard('allocatePersistentBuffer', INIT_PREPARE, 'persistent memory must be allocated in init or prepare, never during invoke');
    return this.host.allocatePersistentBuffer(bytes);
  }

  requestScratchBufferInArena(bytes: number): number {
    this.guard('requestScratchBufferInArena', PREPARE, 'scratch buffers are requested in prepare, before memory planning');
    return this.host.requestScratchBuffer(bytes);
  }

  getScratchBuffer(index: number): ArenaRegion {
    this.guard(
      'getScratchBuffer',
      INVOKE,
      'scratch buffers get memory only after planning; keep the index from prepare and fetch the buffer in invoke',
    );
    const r = this.host.scratchRegion(index);
    if (!r) throw new MicrortError(`getScratchBuffer(${index}): no scratch buffer with that index was requested`);
    return r;
  }

  getTensor(index: number): Tensor {
    this.guard('getTensor', INIT_PREPARE, 'use getEvalTensor() in invoke');
    return this.tensorAt(index, 'getTensor');
  }

  /** Called several times per node per invoke: the phase test is inlined rather than an `includes` scan. */
  getEvalTensor(index: number): EvalTensor {
    const phase = this.phase;
    if (phase !== Phase.Invoke && phase !== Phase.Prepare) this.guard('getEvalTensor', PREPARE_INVOKE);
    return this.tensorAt(index, 'getEvalTensor');
  }

  resizeTensor(index: number, dims: ArrayLike<number>): void {
    this.guard('resizeTensor', PREPARE, 'output shapes are set while the node prepares, before memory planning');
    this.host.resizeTensor(index, dims, false);
  }

  declareShapeBound(index: number, maxDims: ArrayLike<number>): void {
    this.guard('declareShapeBound', PREPARE, 'the bound is declared while the node prepares; setActualShape() sets the dims at invoke');
    this.host.resizeTensor(index, maxDims, true);
  }

  /** Allocation-free: writes `dims` into the tensor's dims after checking them against its bound. */
  setActualShape(index: number, dims: ArrayLike<number>): void {
    if (this.phase !== Phase.Invoke) this.guard('setActualShape', INVOKE, 'in prepare, declare the bound with declareShapeBound()');
    const t = this.tensorAt(index, 'setActualShape');
    const problem = actualShapeProblem(t, dims);
    if (problem !== null) throw this.host.actualShapeError(index, dims, problem);
    const out = t.dims;
    for (let i = 0; i < out.length; i++) out[i] = dims[i]!;
  }

  reportError(message: string): void {
    this.host.recordError(message);
  }

  getExternalContext(key: string): unknown {
    return this.host.externalContext(key);
  }

  getExecutionPlan(): Int32Array {
    this.guardDelegate('getExecutionPlan');
    return this.host.executionPlan();
  }

  getNodeAndRegistration(nodeIndex: number): NodeAndRegistration {
    this.guardDelegate('getNodeAndRegistration');
    return this.host.nodeAndRegistration(nodeIndex);
  }

  replaceNodeSubsetsWithDelegateKernels(registration: Registration, nodesToReplace: ArrayLike<number>, delegate: unknown): void {
    this.guardDelegate('replaceNodeSubsetsWithDelegateKernels');
    this.host.replaceNodeSubsets(registration, nodesToReplace, delegate);
  }

  numSubgraphs(): number {
    return this.host.graph.subgraphCount;
  }

  numSubgraphInputs(subgraph: number): number {
    return this.io(subgraph, 'input', 'numSubgraphInputs').length;
  }

  numSubgraphOutputs(subgraph: number): number {
    return this.io(subgraph, 'output', 'numSubgraphOutputs').length;
  }

  subgraphBuiltinCodes(subgraph: number): readonly number[] {
    this.io(subgraph, 'input', 'subgraphBuiltinCodes');
    return this.host.graph.subgraphBuiltinCodes(subgraph);
  }

  getSubgraphInput(subgraph: number, i: number): EvalTensor {
    const phase = this.phase;
    if (phase !== Phase.Invoke && phase !== Phase.Prepare) this.guard('getSubgraphInput', PREPARE_INVOKE);
    return this.ioTensor(subgraph, i, 'input', 'getSubgraphInput');
  }

  getSubgraphOutput(subgraph: number, i: number): EvalTensor {
    const phase = this.phase;
    if (phase !== Phase.Invoke && phase !== Phase.Prepare) this.guard('getSubgraphOutput', PREPARE_INVOKE);
    return this.ioTensor(subgraph, i, 'output', 'getSubgraphOutput');
  }

  invokeSubgraph(subgraph: number): void {
    if (this.phase !== Phase.Invoke) this.guard('invokeSubgraph', INVOKE, 'subgraphs run only while the interpreter invokes');
    this.host.graph.invokeSubgraph(subgraph);
  }

  resizeSubgraphInput(subgraph: number, i: number, dims: ArrayLike<number>): void {
    this.guard('resizeSubgraphInput', PREPARE, "a called subgraph's input shapes are set while its caller prepares");
    this.io(subgraph, 'input', 'resizeSubgraphInput');
    this.host.graph.resizeSubgraphInput(subgraph, i, dims, this.shapeRule);
  }

  prepareSubgraph(subgraph: number): void {
    this.guard('prepareSubgraph', PREPARE, 'a called subgraph prepares while its caller prepares');
    this.io(subgraph, 'input', 'prepareSubgraph');
    this.host.graph.prepareSubgraph(subgraph);
  }

  getResourceVariables(): ResourceVariables | null {
    const phase = this.phase;
    if (phase !== Phase.Invoke && phase !== Phase.Prepare) this.guard('getResourceVariables', PREPARE_INVOKE);
    return this.host.graph.resourceVariables;
  }

  absorbPad(node: Node, inputSlot: number, accept?: (pad: AbsorbedPad) => boolean): AbsorbedPad | null {
    this.guard('absorbPad', PREPARE, 'a PAD is absorbed while its consumer prepares, before memory planning');
    return this.host.absorbPad(node, inputSlot, accept);
  }

  private io(subgraph: number, kind: 'input' | 'output', callback: string): Int32Array {
    if (!Number.isInteger(subgraph) || subgraph < 0 || subgraph >= this.host.graph.subgraphCount)
      throw new MicrortError(`${callback}(${subgraph}): no such subgraph (the model has ${this.host.graph.subgraphCount})`);
    return this.host.graph.subgraphIo(subgraph, kind);
  }

  private ioTensor(subgraph: number, i: number, kind: 'input' | 'output', callback: string): Tensor {
    const list = this.io(subgraph, kind, callback);
    const t = list[i];
    if (t === undefined || !Number.isInteger(i) || i < 0)
      throw new MicrortError(`${callback}(${subgraph}, ${i}): subgraph ${subgraph} has ${list.length} ${kind}s`);
    return this.host.graph.subgraphTensor(subgraph, t);
  }

  private tensorAt(index: number, callback: string): Tensor {
    const t = this.tensors[index];
    if (t === undefined)
      throw new MicrortError(
        `${callback}(${index}): tensor index out of range (${this.currentSubgraph === 0 ? 'subgraph' : `subgraph ${this.currentSubgraph}`} has ${this.tensors.length} tensors)`,
      );
    return t;
  }

  private guard(callback: string, allowed: readonly Phase[], hint?: string): void {
    if (!allowed.includes(this.phase)) throw new PhaseError(callback, this.phase, allowed, hint);
  }

  private guardDelegate(callback: string): void {
    if (!this.delegatePreparing)
      throw new PhaseError(
        callback,
        this.phase === Phase.Prepare ? 'prepare (kernel)' : this.phase,
        ['delegate prepare'],
        "only a delegate's prepare() may inspect or rewrite the execution plan",
      );
  }
}

export type { Node };
