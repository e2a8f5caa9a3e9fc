/**
 * Delegates on the entry subgraph (TFLite's ReplaceNodeSubsetsWithDelegateKernels): runs each
 * delegate's prepare, partitions the plan into independent subsets (delegate/partition.ts), replaces
 * each claimed subset with one delegate node whose `init` runs at once, and tells planning which
 * tensors live inside a subset.
 */
import { DelegateError } from '../errors.js';
import type { PlanStep } from '../arena/lifetimes.js';
import type { Delegate, DelegateOptions } from '../delegate/delegate.js';
import { partitionGraphIntoIndependentNodeSubsets, type NodeSubset } from '../delegate/partition.js';
import { NodeImpl, type PlanEntry } from '../graph/graph-node.js';
import type { MicroInterpreterGraph, Subgraph } from '../graph/micro-graph.js';
import type { DelegateParams, Registration } from '../kernel/api.js';
import { AllocationType } from '../kernel/tensor.js';
import type { MicroContext } from './micro-context.js';

const NONE = new Int32Array(0);

/** A delegated partition, for inspection. */
/** A delegate an allocation did not apply (MicroInterpreter.skippedDelegates). */
export interface SkippedDelegate {
  delegate: string;
  /** Why, and that its nodes run on the kernels. */
  reason: string;
}

export interface PartitionInfo {
  delegate: string;
  nodeIndex: number;
  nodes: number[];
  inputTensors: number[];
  outputTensors: number[];
  /**
   * Tensors produced and consumed inside the subset. They get no arena space (allocation type
   * `delegate`) unless the delegate sets `flags.keepInternalTensorsInArena`.
   */
  internalTensors: number[];
}

/** The delegate node owning a tensor (one its subset produces for the rest of the graph). */
export interface TensorOwner {
  delegate: string;
  nodeIndex: number;
}

/** The delegate partitions of one allocation. */
export class DelegateSubsets {
  readonly partitions: PartitionInfo[] = [];
  /** Tensor index → owning delegate node, for delegate-node outputs (entry subgraph). */
  readonly tensorOwners = new Map<number, TensorOwner>();
  /** The delegate whose prepare runs (the default for `replace`'s `delegate` argument). */
  private current: Delegate | null = null;

  constructor(
    private readonly graph: MicroInterpreterGraph,
    private readonly context: MicroContext,
    private readonly options: DelegateOptions = {},
  ) {}

  private get sg(): Subgraph {
    return this.graph.subgraphs[this.graph.entry]!;
  }

  /** Runs `delegate.prepare` with the context open to plan inspection and rewriting. */
  prepare(delegate: Delegate): void {
    this.current = delegate;
    this.context.delegatePreparing = true;
    try {
      delegate.prepare(this.context, delegate);
    } finally {
      this.context.delegatePreparing = false;
      this.current = null;
    }
  }

  /**
   * Partitions the entry subgraph and replaces the subsets made of `nodesToReplace` (after the
   * interpreter's `delegateOptions`: excluded nodes, minimum partition size, most partitions) with
   * delegate nodes served by `registration`. DelegateError for a node that is not in the plan, is
   * already a delegate node or invokes subgraphs.
   */
  replace(registration: Registration, nodesToReplace: ArrayLike<number>, delegate: unknown): void {
    const sg = this.sg;
    const d = (delegate ?? this.current) as Delegate | null;
    const name = d?.name ?? 'delegate';
    const inPlan = new Set(sg.plan);
    const opts = this.options;
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
    const getNode = (i: number) => sg.entries[i]!.node;
    let subsets: NodeSubset[] = [];
    // Apply minPartitionSize / maxPartitions, re-partitioning until the claimed set is stable.
    for (let iter = 0; iter < 16; iter++) {
      subsets = partitionGraphIntoIndependentNodeSubsets(sg.plan, getNode, claimed, sg.tensors.length, sg.outputs);
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
      if (s.delegated) newPlan.push(this.addDelegateNode(registration, d, name, s));
      else newPlan.push(...s.nodes);
    }
    sg.plan = newPlan;
  }

  /** One delegate node for subset `s` (its init runs now, as TFLite's AddNodeWithParameters); returns its index. */
  private addDelegateNode(registration: Registration, d: Delegate | null, name: string, s: NodeSubset): number {
    const sg = this.sg;
    const index = sg.entries.length;
    const node = new NodeImpl(index, Int32Array.from(s.inputTensors), Int32Array.from(s.outputTensors), NONE, null, null);
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
    // The context stays in the delegate phase. The entry joins the node list only once init succeeded,
    // so a failed allocation frees only what was initialized.
    this.graph.current.entry = entry;
    node.userData = registration.init ? registration.init(this.context, params) : undefined;
    this.graph.current.entry = null;
    entry.initialized = true;
    sg.entries.push(entry);
    this.partitions.push({
      delegate: name,
      nodeIndex: index,
      nodes: s.nodes,
      inputTensors: s.inputTensors,
      outputTensors: s.outputTensors,
      internalTensors,
    });
    for (const t of s.outputTensors) this.tensorOwners.set(t, { delegate: name, nodeIndex: index });
    return index;
  }

  /** The delegate each original node was handed to (entry subgraph), for check reports. */
  delegatedNodes(): Map<number, string> {
    const to = new Map<number, string>();
    for (const p of this.partitions) for (const n of p.nodes) to.set(n, p.delegate);
    return to;
  }

  /**
   * The step the planner sees for entry `e`: the node itself, or for a delegate node that keeps its
   * subset's internal tensors in the arena, the node with those tensors as extra outputs (live during
   * its step only).
   */
  planStep(e: PlanEntry): PlanStep {
    if (!e.keepInternal || !e.internalTensors?.length) return e.node;
    return { inputs: e.node.inputs, outputs: [...Array.from(e.node.outputs), ...e.internalTensors] };
  }

  /** After planning: internal tensors of delegated subsets that got no arena space are delegate-owned. */
  markDelegateTensors(): void {
    const sg = this.sg;
    for (const i of sg.plan) {
      const e = sg.entries[i]!;
      if (!e.internalTensors || e.keepInternal) continue;
      for (const t of e.internalTensors) {
        const tensor = sg.tensors[t]!;
        if (tensor.allocationType === AllocationType.None) tensor.allocationType = AllocationType.Delegate;
      }
    }
  }
}
