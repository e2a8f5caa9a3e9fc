/**
 * "Everything a model needs", as one structured report: every node of every subgraph with its op,
 * version, tensor types and outcome — the provider that takes it, each registered provider's reason
 * for declining, or its prepare error. `checkModel()` returns it; `UnsupportedOpError` and
 * `KernelError` thrown by `allocateTensors()` carry the same report (`error.report`).
 */

import type { ShapeNote } from './shapes.js';

/** What happened to one node. */
export type NodeCheckStatus =
  /** A provider accepted it and its init and prepare succeeded. */
  | 'ok'
  /** No provider is registered for its op and version. */
  | 'no-provider'
  /** Providers are registered for the op, and every one declined the node (`supports()`). */
  | 'declined'
  /** A provider took it, and its init or prepare threw (or a provider's supports() threw). */
  | 'prepare-failed'
  /** Not prepared because preparation stopped early (an error that is not a node's, e.g. the arena limit). */
  | 'not-prepared';

/** A provider that was asked about a node and declined it. */
export interface DeclinedProvider {
  provider: string;
  /** Registration name (e.g. `CONV_2D/int8`). */
  kernel: string;
  /** Why it declined, when its `supports()` said (a string answer). */
  reason?: string;
}

/** One tensor of a node, for the report: index, element type and shape. */
export interface CheckTensor {
  index: number;
  /** Lower-case type name (`int8`, `float32`, …); `-` for an omitted optional input. */
  type: string;
  shape: number[];
}

/** The outcome of one node. */
export interface NodeCheck {
  subgraph: number;
  /** Operator index in its subgraph. */
  index: number;
  /** Display name: `CONV_2D`, `CUSTOM:<name>`. */
  op: string;
  version: number;
  inputs: CheckTensor[];
  outputs: CheckTensor[];
  status: NodeCheckStatus;
  /** The provider that took the node (statuses ok and prepare-failed). */
  provider?: string;
  kernel?: string;
  /** Providers asked before the one that took it (or all of them, status `declined`) that declined it. */
  declined?: DeclinedProvider[];
  /** The delegate that took the node over (it runs inside that delegate's node). */
  delegate?: string;
  /**
   * A PAD whose consumer absorbed it (`context.absorbPad`): that node's index. It prepared, but does not
   * run at invoke and its output is not planned; the consumer reads the PAD's input with the padding in
   * its window.
   */
  absorbedInto?: number;
  /** Status prepare-failed: the phase that threw and the error (a KernelError's detail, else its message). */
  error?: { phase: 'supports' | 'init' | 'prepare'; name: string; message: string };
}

/** Nodes of one op that share version, tensor types and outcome: one row of the grouped table. */
export interface CheckGroup {
  version: number;
  /** Input and output types, e.g. `['int8', 'int8', 'int32']`. */
  inputTypes: string[];
  outputTypes: string[];
  status: NodeCheckStatus;
  provider?: string;
  /**
   * The providers that declined the group's nodes; a reason that differs between nodes only in its
   * numbers is merged (`int8 tensor {97,1,…} (handles float32)`; each node's own reason is in `nodes`).
   */
  declined?: DeclinedProvider[];
  /** Distinct error messages of the group's nodes (status prepare-failed). */
  errors?: string[];
  /** The nodes, as `[subgraph, index]`. */
  nodes: [number, number][];
}

/** All nodes of one op. */
export interface CheckOp {
  op: string;
  /** Nodes of this op. */
  count: number;
  /** Nodes of this op that cannot run. */
  failing: number;
  groups: CheckGroup[];
}

/** The report of `checkModel()`. */
export interface CheckReport {
  /** True when every node of every subgraph resolved and prepared. */
  ok: boolean;
  subgraphs: number;
  nodeCount: number;
  /** Nodes that cannot run (status other than ok). */
  failingCount: number;
  /** Every node, subgraph by subgraph, in operator order. */
  nodes: NodeCheck[];
  /** Nodes grouped by op (ops sorted by name), failing groups first within an op. */
  ops: CheckOp[];
  /**
   * Tensors whose shape was not simply the file's: inferred by a kernel's prepare, bounded (data-dependent),
   * folded (computed during prepare) or resized (graph inputs); absent when there are none.
   */
  shapes?: ShapeNote[];
  /** A model-level problem that stopped the check (e.g. the arena limit), when there was one. */
  stopped?: { name: string; message: string };
  /** Arena figures, when the check also planned the model (every node ok and a planner was given). */
  arena?: { usedBytes: number; headBytes: number; tailBytes: number };
  /** The error planning raised (every node ok, but the model cannot be allocated), when it did. */
  allocationError?: { name: string; message: string };
}

/** Numbers in a reason (tensor indices, sizes, versions): what may differ between nodes of one group. */
const NUMBER = /\d+(?:\.\d+)?/g;

/** A reason with its numbers taken out: `int8 tensor 97 (handles float32)` → `int8 tensor # (handles float32)`. */
export function reasonShape(reason: string): string {
  return reason.replace(NUMBER, '#');
}

/**
 * Reasons of one shape (see {@link reasonShape}) as one line: the numbers they share as they are, the
 * ones that differ listed in braces, at most four — `int8 tensor {97,1,116,…} (handles float32)`.
 */
export function mergeReasons(reasons: readonly string[]): string {
  const distinct = [...new Set(reasons)];
  if (distinct.length <= 1) return distinct[0] ?? '';
  const texts = distinct[0]!.split(NUMBER);
  const slots = distinct.map((r) => r.match(NUMBER) ?? []);
  return texts
    .map((text, i) => {
      if (i === texts.length - 1) return text;
      const values = [...new Set(slots.map((s) => s[i] ?? '?'))];
      return text + (values.length === 1 ? values[0]! : `{${values.slice(0, 4).join(',')}${values.length > 4 ? ',…' : ''}}`);
    })
    .join('');
}

/**
 * Groups node outcomes by op, then by version, tensor types, outcome and the providers that declined
 * (with the shape of their reasons: reasons that differ only in numbers, such as tensor indices, share
 * a group, and the group's reason lists the numbers, see {@link mergeReasons}).
 */
export function groupByOp(nodes: readonly NodeCheck[]): CheckOp[] {
  const byOp = new Map<string, CheckOp>();
  const groupKey = new Map<CheckOp, Map<string, CheckGroup>>();
  const reasonsOf = new Map<DeclinedProvider, string[]>();
  for (const n of nodes) {
    let op = byOp.get(n.op);
    if (!op) {
      op = { op: n.op, count: 0, failing: 0, groups: [] };
      byOp.set(n.op, op);
      groupKey.set(op, new Map());
    }
    op.count++;
    if (n.status !== 'ok') op.failing++;
    const inputTypes = n.inputs.map((t) => t.type);
    const outputTypes = n.outputs.map((t) => t.type);
    const declined = n.declined ?? [];
    const declinedKey = declined.map((d) => [d.provider, d.kernel, d.reason === undefined ? null : reasonShape(d.reason)]);
    const key = JSON.stringify([n.version, inputTypes, outputTypes, n.status, n.provider ?? '', declinedKey]);
    const groups = groupKey.get(op)!;
    let g = groups.get(key);
    if (!g) {
      g = { version: n.version, inputTypes, outputTypes, status: n.status, nodes: [] };
      if (n.provider) g.provider = n.provider;
      if (declined.length) g.declined = declined.map((d) => ({ ...d }));
      for (const d of g.declined ?? []) reasonsOf.set(d, []);
      groups.set(key, g);
      op.groups.push(g);
    }
    g.declined?.forEach((d, i) => {
      const reason = declined[i]?.reason;
      if (reason !== undefined) reasonsOf.get(d)!.push(reason);
    });
    g.nodes.push([n.subgraph, n.index]);
    if (n.error) {
      g.errors ??= [];
      if (!g.errors.includes(n.error.message)) g.errors.push(n.error.message);
    }
  }
  for (const [d, reasons] of reasonsOf) if (reasons.length) d.reason = mergeReasons(reasons);
  const ops = [...byOp.values()].sort((a, b) => a.op.localeCompare(b.op));
  for (const op of ops) op.groups.sort((a, b) => Number(a.status === 'ok') - Number(b.status === 'ok') || a.version - b.version);
  return ops;
}

/** `node 3` for subgraph 0, `node 2 of subgraph 1` otherwise. */
export function nodeLabel(subgraph: number, index: number): string {
  return subgraph === 0 ? `node ${index}` : `node ${index} of subgraph ${subgraph}`;
}

/** Why one failing node cannot run, in a few words: the decline reasons, or the prepare error. */
export function failureReason(n: NodeCheck): string {
  switch (n.status) {
    case 'no-provider':
      return 'no provider registered';
    case 'declined': {
      const d = n.declined ?? [];
      const reasons = d.map((p) => `${p.provider} declined${p.reason ? `: ${p.reason}` : ''}`);
      return reasons.length ? reasons.join('; ') : 'every registered provider declined';
    }
    case 'prepare-failed':
      return `${n.provider ?? 'its provider'} failed in ${n.error?.phase ?? 'prepare'}: ${n.error?.message ?? 'unknown error'}`;
    case 'not-prepared':
      return 'not prepared (preparation stopped early)';
    default:
      return 'ok';
  }
}

/**
 * The one-line summary of the failing nodes of a report: counts per op, the first failure and its
 * reason, and where to find the full list. E.g. `2 nodes cannot run: CONV_2D ×1 (declined), FOO ×1 (no
 * provider); first: node 4 CONV_2D v1: … — run micrort check for the full list`.
 */
export function summarizeFailures(report: Pick<CheckReport, 'nodes'>): string {
  const failing = report.nodes.filter((n) => n.status !== 'ok' && n.status !== 'not-prepared');
  if (!failing.length) return 'every node resolved and prepared';
  const counts = new Map<string, { n: number; kinds: Set<string> }>();
  for (const f of failing) {
    const c = counts.get(f.op) ?? { n: 0, kinds: new Set<string>() };
    c.n++;
    c.kinds.add(f.status === 'no-provider' ? 'no provider' : f.status === 'declined' ? 'declined' : 'prepare failed');
    counts.set(f.op, c);
  }
  const perOp = [...counts].map(([op, c]) => `${op} ×${c.n} (${[...c.kinds].join(', ')})`);
  const shown = perOp.length > 4 ? [...perOp.slice(0, 4), `${perOp.length - 4} more ops`] : perOp;
  const first = failing[0]!;
  let reason = failureReason(first);
  if (reason.length > 160) reason = `${reason.slice(0, 157)}...`;
  const what = `${failing.length} node${failing.length === 1 ? '' : 's'} cannot run: ${shown.join(', ')}`;
  return (
    `${what}; first: ${nodeLabel(first.subgraph, first.index)} ${first.op} v${first.version}: ${reason}` +
    (failing.length > 1 ? ' — run micrort check for the full list' : '')
  );
}

/**
 * `(and 3 more nodes cannot run: ADD ×2, FOO ×1 — run micrort check for the full list)`: what a
 * KernelError about one node adds when others fail too.
 */
export function moreFailuresNote(report: Pick<CheckReport, 'nodes'>, subgraph: number, index: number): string {
  const others = report.nodes.filter(
    (n) => n.status !== 'ok' && n.status !== 'not-prepared' && !(n.subgraph === subgraph && n.index === index),
  );
  if (!others.length) return '';
  const counts = new Map<string, number>();
  for (const o of others) counts.set(o.op, (counts.get(o.op) ?? 0) + 1);
  const perOp = [...counts].map(([op, n]) => `${op} ×${n}`);
  const shown = perOp.length > 4 ? [...perOp.slice(0, 4), `${perOp.length - 4} more ops`] : perOp;
  return `(and ${others.length} more node${others.length === 1 ? '' : 's'} cannot run: ${shown.join(', ')} — run micrort check for the full list)`;
}
