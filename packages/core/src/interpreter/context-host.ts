/**
 * The callbacks kernels and delegates reach through the context (MicroContext) during one allocation,
 * bound to its allocator and graph layer: persistent buffers and scratch requests attributed to the node
 * being initialized or prepared, scratch regions, the execution plan for delegates, external contexts
 * and the error log. Plan rewriting by delegates goes to DelegateSubsets.
 */
import { MicrortError } from '../errors.js';
import type { MicroAllocator } from '../arena/micro-allocator.js';
import type { MicroInterpreterGraph, Subgraph } from '../graph/micro-graph.js';
import type { AbsorbedPad, Node, NodeAndRegistration, Registration } from '../kernel/api.js';
import type { PadAbsorber } from './pad-absorption.js';
import type { ArenaRegion } from '../kernel/arena-region.js';
import type { DelegateSubsets } from './delegate-subsets.js';
import type { ContextHost } from './micro-context.js';
import { TensorResizeError } from '../errors.js';
import { dimsText, resizeTensor, type ShapeRule } from './shapes.js';

/**
 * ContextHost of one allocation. Created before the graph layer (which needs the context, which needs
 * the host); `attach` completes it. Every callback names the node it serves in errors and in the
 * arena report (persistent bytes per node).
 */
export class AllocationContextHost implements ContextHost {
  /** Messages kernels reported with `context.reportError()`. */
  readonly errors: string[] = [];
  private graphLayer: MicroInterpreterGraph | null = null;
  private subsets: DelegateSubsets | null = null;
  /** PAD absorption of this allocation (set by the allocation; null: `absorbPad` always declines). */
  absorber: PadAbsorber | null = null;

  constructor(
    private readonly allocator: MicroAllocator,
    private readonly externalContexts: Record<string, unknown> | undefined,
    private readonly shapeRule: ShapeRule = 'computed',
  ) {}

  /** Binds the graph layer and the delegate partitioner (once, right after they are created). */
  attach(graph: MicroInterpreterGraph, subsets: DelegateSubsets): void {
    this.graphLayer = graph;
    this.subsets = subsets;
  }

  get graph(): MicroInterpreterGraph {
    if (!this.graphLayer) throw new MicrortError('the context host is used before its graph layer exists');
    return this.graphLayer;
  }

  private get entry(): Subgraph {
    return this.graph.subgraphs[this.graph.entry]!;
  }

  /** A persistent buffer, attributed to the node being initialized or prepared (if any). */
  allocatePersistentBuffer(bytes: number): ArenaRegion {
    const cur = this.graph.current;
    const e = cur.entry;
    if (!e) return this.allocator.allocatePersistentBuffer(bytes, 'persistent buffer');
    const where = cur.subgraph === 0 ? `node ${e.node.index}` : `node ${e.node.index} of subgraph ${cur.subgraph}`;
    return this.allocator.allocatePersistentBuffer(bytes, `persistent buffer for ${where} (${e.op})`, [cur.subgraph, e.node.index]);
  }

  /** A scratch request of the node being prepared, at its step of its subgraph's plan. */
  requestScratchBuffer(bytes: number): number {
    const cur = this.graph.current;
    if (cur.step < 0 || !cur.entry) throw new MicrortError("requestScratchBufferInArena called outside a node's prepare");
    return this.allocator.requestScratchBuffer(bytes, cur.step, cur.entry.node.index, cur.subgraph);
  }

  /** `resizeTensor` / `declareShapeBound` of the node being prepared (interpreter/shapes.ts). */
  resizeTensor(index: number, dims: ArrayLike<number>, bound: boolean): void {
    const cur = this.graph.current;
    resizeTensor(this.shapeRule, this.graph.subgraphs[cur.subgraph]!.tensors, cur.subgraph, cur.entry, index, dims, bound);
  }

  /** The error of a `setActualShape` the running node got wrong (never on the allocation-free path). */
  actualShapeError(index: number, dims: ArrayLike<number>, problem: string): Error {
    const cur = this.graph.current;
    const t = this.graph.subgraphs[cur.subgraph]!.tensors[index];
    const e = this.graph.running;
    const bound = t?.upperBound ? ` (bound ${dimsText(t.upperBound)})` : '';
    return new TensorResizeError(
      e?.op ?? 'kernel',
      e?.node.index ?? -1,
      index,
      t ? Array.from(t.dims) : [],
      Array.from(dims),
      `setActualShape(${index}, ${dimsText(dims)}): ${problem}${bound}`,
      cur.subgraph,
    );
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

  replaceNodeSubsets(registration: Registration, nodesToReplace: ArrayLike<number>, delegate: unknown): void {
    if (!this.subsets) throw new MicrortError('replaceNodeSubsetsWithDelegateKernels called before the graph layer exists');
    this.subsets.replace(registration, nodesToReplace, delegate);
  }

  absorbPad(node: Node, inputSlot: number, accept?: (pad: AbsorbedPad) => boolean): AbsorbedPad | null {
    return this.absorber ? this.absorber.absorb(node, inputSlot, accept) : null;
  }

  externalContext(key: string): unknown {
    return this.externalContexts?.[key];
  }

  recordError(message: string): void {
    this.errors.push(message);
  }
}
