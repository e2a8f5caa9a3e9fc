/**
 * Every node's outcome of one preparation pass: the check report (plain data, see check-report.ts)
 * next to the errors behind it, and the error `allocateTensors()` throws for an outcome that is not ok.
 */
import { KernelError, MicrortError, UnsupportedOpError } from '../errors.js';
import type { PlanEntry } from '../graph/graph-node.js';
import type { NodeFailure, NodeResolution } from '../graph/micro-graph.js';
import type { Tensor } from '../kernel/tensor.js';
import { tensorTypeName } from '../types.js';
import { groupByOp, moreFailuresNote, type CheckReport, type CheckTensor, type NodeCheck } from './check-report.js';

/** The outcome of a preparation pass: what every node did, and the errors themselves. */
export interface PrepareOutcome {
  /** Every node's outcome (serializable: errors appear as name and message). */
  report: CheckReport;
  /** The failing nodes with their errors, in the order they failed (init, supports and prepare). */
  failures: NodeFailure[];
  /** The model-level error that stopped preparation early (the arena limit), or null. */
  stopped: Error | null;
}

/** What the report builder reads of the pass. */
export interface OutcomeSources {
  /** Subgraphs' tensors, by subgraph index. */
  tensors: readonly (readonly Tensor[])[];
  /** The entry subgraph (delegates apply to it). */
  entry: number;
  resolutions: readonly NodeResolution[];
  failures: NodeFailure[];
  /** Entries whose prepare ran and succeeded. */
  prepared: ReadonlySet<PlanEntry>;
  stopped: Error | null;
  /** Original node index → the delegate that took it (entry subgraph). */
  delegatedTo: ReadonlyMap<number, string>;
  /** The entry doing the work of an entry a schedule took out of the plan (e.g. its tile node). */
  replacementOf(entry: PlanEntry): PlanEntry | undefined;
}

/** Builds the outcome of a pass: each node's status, then the nodes grouped by op (see CheckReport). */
export function buildOutcome(src: OutcomeSources): PrepareOutcome {
  const failed = new Map<PlanEntry, NodeFailure>();
  for (const f of src.failures) if (!failed.has(f.entry)) failed.set(f.entry, f);
  // A delegate node's failure is the failure of each node it replaced (the report lists the model's nodes).
  const delegateFailed = new Map<number, NodeFailure>();
  for (const f of src.failures)
    if (f.subgraph === src.entry && f.entry.delegate)
      for (const n of f.entry.delegate.nodes) if (!delegateFailed.has(n)) delegateFailed.set(n, f);
  const attributed = new Set<NodeFailure>();
  const nodes: NodeCheck[] = src.resolutions.map(({ subgraph, entry, resolution }) => {
    const tensors = src.tensors[subgraph]!;
    const n: NodeCheck = {
      subgraph,
      index: entry.node.index,
      op: entry.op,
      version: entry.version,
      inputs: describeTensors(tensors, entry.node.inputs),
      outputs: describeTensors(tensors, entry.node.outputs),
      status: 'ok',
    };
    // A sibling kernel of the provider that serves the node (ops-wasm's float CONV_2D before its uint8
    // one) did not decline the node on that provider's behalf: only other providers' reasons are kept.
    const served = resolution?.registration?.provider;
    const declined = (resolution?.tried ?? [])
      .filter((t) => !t.accepted && (served === undefined || t.provider !== served))
      .map((t) => (t.reason ? { provider: t.provider, kernel: t.name, reason: t.reason } : { provider: t.provider, kernel: t.name }));
    if (declined.length) n.declined = declined;
    // A node a schedule replaced (by a tile node): that node's outcome is this node's.
    const stand = src.replacementOf(entry);
    const f =
      failed.get(entry) ??
      (stand ? failed.get(stand) : undefined) ??
      (subgraph === src.entry ? delegateFailed.get(entry.node.index) : undefined);
    if (f) attributed.add(f);
    if (f && f.phase === 'supports') {
      n.status = 'prepare-failed';
      n.error = { phase: 'supports', name: f.error.name, message: errorDetail(f.error) };
    } else if (!resolution) {
      n.status = 'no-provider';
    } else if (!resolution.registration) {
      n.status = 'declined';
    } else {
      n.provider = resolution.registration.provider ?? 'unknown';
      n.kernel = resolution.registration.name ?? entry.op;
      if (f) {
        n.status = 'prepare-failed';
        n.error = { phase: f.phase, name: f.error.name, message: errorDetail(f.error) };
      } else if (subgraph === src.entry && src.delegatedTo.has(entry.node.index)) {
        n.delegate = src.delegatedTo.get(entry.node.index)!;
      } else if (!src.prepared.has(entry) && !(stand && src.prepared.has(stand))) {
        // Not prepared: the pass stopped early, or a node of the same subgraph ran into the arena limit.
        n.status = 'not-prepared';
      } else if (entry.absorbedInto !== undefined) {
        n.absorbedInto = entry.absorbedInto;
      }
    }
    return n;
  });
  const failingCount = nodes.filter((n) => n.status !== 'ok').length;
  // A failure no node of the report carries (a node a schedule or delegate added) still fails the allocation.
  const unattributed = src.failures.some((f) => !attributed.has(f));
  const report: CheckReport = {
    ok: failingCount === 0 && !src.stopped && !unattributed,
    subgraphs: src.tensors.length,
    nodeCount: nodes.length,
    failingCount,
    nodes,
    ops: groupByOp(nodes),
  };
  if (src.stopped) report.stopped = { name: src.stopped.name, message: src.stopped.message };
  return { report, failures: src.failures, stopped: src.stopped };
}

/**
 * The error allocateTensors() throws for an outcome that is not ok: UnsupportedOpError when some node
 * has no provider that takes it; else the prepare failure itself when there is one (with the report
 * attached), or a KernelError naming the first and counting the others; else the error that stopped
 * preparation (e.g. ArenaLimitError), itself: its type and numbers are what the caller needs.
 */
export function allocationError({ report, failures, stopped }: PrepareOutcome): Error {
  const unresolved = report.nodes.find((n) => n.status === 'no-provider' || n.status === 'declined');
  if (unresolved) return new UnsupportedOpError(unresolved.op, unresolved.version, unresolved.index, '', report, unresolved.subgraph);
  if (failures.length === 1) {
    const err = failures[0]!.error;
    if (err instanceof KernelError) err.report = report;
    return err;
  }
  if (failures.length > 1) {
    const f = failures[0]!;
    const op = f.error instanceof KernelError ? f.error.op : f.entry.op;
    const err = new KernelError(
      op,
      f.entry.node.index,
      `${errorDetail(f.error)} ${moreFailuresNote(report, f.subgraph, f.entry.node.index)}`,
      f.subgraph,
    );
    err.report = report;
    (err as { cause?: unknown }).cause = f.error;
    return err;
  }
  return stopped ?? new MicrortError('allocation failed');
}

/** A KernelError's detail (its op and node are in the report already), else the message. */
function errorDetail(e: Error): string {
  return e instanceof KernelError ? e.detail : e.message;
}

function describeTensors(tensors: readonly Tensor[], indices: Int32Array): CheckTensor[] {
  return Array.from(indices, (i) => {
    const t = i >= 0 ? tensors[i] : undefined;
    return t ? { index: i, type: tensorTypeName(t.type), shape: Array.from(t.dims) } : { index: i, type: '-', shape: [] };
  });
}
