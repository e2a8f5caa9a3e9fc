/**
 * The `check` report of the page: every node's provider, or why each registered provider declined it,
 * or its init/prepare error — grouped as core's `checkModel()` groups them (op, version, tensor types,
 * outcome, and the shape of the decline reasons: reasons that differ only in tensor numbers share a
 * row). This module adds what the page shows beside it: each kernel package's share of the nodes and
 * MACs (app-kit's `packageShares`), the typed error `allocateTensors()` throws for the same model and
 * kernels, and why the GPU delegate left a node alone.
 */
import {
  KernelError,
  MicroInterpreter,
  OpResolver,
  checkModel,
  mergeReasons,
  opDisplayName,
  reasonShape,
  type CheckOp,
  type InterpreterOptions,
  type ModelDef,
  type Node,
  type Registration,
  type Resolution,
  type TfLiteContext,
} from '@micrort/core';
import { packageShares, servedNodesOfCheck, type DelegatingPackage, type PackageShare, type ServingPackage } from '@micrort/app-kit';
import { createPlanner } from '@micrort/planners';

/** What happened to one node (core's NodeCheckStatus). */
export type NodeCheckStatus = 'ok' | 'no-provider' | 'declined' | 'prepare-failed' | 'not-prepared';

/** A provider that was asked about a node and declined it. */
export interface DeclinedProvider {
  provider: string;
  /** Registration name (e.g. `CONV_2D/int8`). */
  kernel: string;
  /** Why it declined, when its `supports()` said. */
  reason?: string;
}

/** The outcome of one node. */
export interface NodeCheck {
  subgraph: number;
  /** Operator index in its subgraph. */
  index: number;
  op: string;
  version: number;
  inputTypes: string[];
  outputTypes: string[];
  status: NodeCheckStatus;
  /** The provider that took the node (statuses ok and prepare-failed). */
  provider?: string;
  kernel?: string;
  /** Providers asked before the one that took it (or all of them, status declined) that declined it. */
  declined?: DeclinedProvider[];
  /** The delegate that took the node over, and why it left the node alone when it did not. */
  delegate?: string;
  delegateDeclined?: string;
  /** prepare-failed: the phase and the error (`KernelError: …`). */
  error?: string;
}

/** Nodes of one op sharing version, tensor types, outcome and the shape of the reasons: one row of the grouped table. */
export interface CheckGroup {
  op: string;
  version: number;
  inputTypes: string[];
  outputTypes: string[];
  status: NodeCheckStatus;
  provider?: string;
  delegate?: string;
  declined?: DeclinedProvider[];
  delegateDeclined?: string;
  errors?: string[];
  /** Node labels: `3`, or `2 (subgraph 1)`. */
  nodes: string[];
}

/** The report. */
export interface CheckReport {
  ok: boolean;
  nodeCount: number;
  failingCount: number;
  nodes: NodeCheck[];
  /** Subgraphs of the model (every one is checked; the graph draws subgraph 0). */
  subgraphs: number;
  /** Groups, failing ones first, then by op name. */
  groups: CheckGroup[];
  /** Each composed package's share of the nodes and MACs; for a package in front, what fell back and why. */
  served: PackageShare[];
  /** The typed error `allocateTensors()` throws for this model and kernels (`UnsupportedOpError: …`), with advice for the page. */
  error?: PageError;
  /** Arena figures of the allocation (every node ok): head + tail, as `arena: 'auto'` sizes it. */
  arena?: { usedBytes: number; headBytes: number; tailBytes: number };
}

/**
 * An OpResolver that answers as `inner`, and with a planning stand-in (no kernel; throws if invoked)
 * for every node nobody serves, recording which nodes got one.
 */
class StandInResolver extends OpResolver {
  readonly standIns = new Set<string>();
  constructor(private readonly inner: OpResolver) {
    super();
  }
  override has(builtinCode: number, version: number, customName?: string | null): boolean {
    return this.inner.has(builtinCode, version, customName);
  }
  override candidates(builtinCode: number, version: number, customName?: string | null) {
    return this.inner.candidates(builtinCode, version, customName);
  }
  override listRegistrations() {
    return this.inner.listRegistrations();
  }
  override resolve(
    builtinCode: number,
    version: number,
    customName: string | null | undefined,
    context: TfLiteContext,
    node: Node,
  ): Resolution | null {
    const r = this.inner.resolve(builtinCode, version, customName, context, node);
    if (r?.registration) return r;
    this.standIns.add(String(node.index));
    const op = opDisplayName(builtinCode, customName);
    const standIn: Registration = {
      builtinCode,
      ...(customName ? { customName } : {}),
      version,
      provider: STAND_IN,
      name: `${op} (stand-in)`,
      invoke(_context, n) {
        throw new KernelError(op, n.index, 'planning stand-in: no kernel serves this node');
      },
    };
    return { registration: standIn, tried: r?.tried ?? [] };
  }
}

const STAND_IN = 'playground (planning stand-in)';

/**
 * `resolver` with a planning stand-in (no kernel; throws if invoked) for every node no provider serves,
 * so the model can be allocated and its memory planned before kernels exist for everything. The
 * returned function lists the nodes that got a stand-in.
 */
export function withStandIns(resolver: OpResolver): { resolver: OpResolver; standIns: () => number[] } {
  const r = new StandInResolver(resolver);
  return { resolver: r, standIns: () => [...r.standIns].map(Number).sort((a, b) => a - b) };
}

/** An error as the page shows it: the typed error's name and message, and what to do about it in the page. */
export interface PageError {
  name: string;
  message: string;
  /** What a person can do in the page (pick another model, another kernel package, …), when the page knows. */
  advice?: string;
}

/** Where the page lists every node that cannot run (core's messages name the CLI's `micrort check`). */
const FULL_LIST = "the Model tab's check table lists them all";

/** What to do in the page, by error name. */
const ADVICE: Record<string, string> = {
  ModelError:
    'This file is not a .tflite model micrort can read. Open another file (the button above, or drop one on the page), or pick a built-in or sample model.',
  UnsupportedOpError:
    "The Model tab's check table shows every node that cannot run and why. Pick another kernel package in the header: ops-reference serves every TFLM builtin.",
  KernelError:
    "The Model tab's check table shows every node that cannot run and why. Pick another kernel package in the header: ops-reference serves every TFLM builtin.",
  KernelUnavailableError: 'This kernel package cannot run in this browser: pick another in the header.',
  ArenaLimitError: 'The model needs a larger arena than the page allows; the Memory tab shows where the memory goes.',
  ArenaTooSmallError: 'The Memory tab shows what the arena holds and how large it must be.',
  InputError: 'Check the Run tab: the inputs must match the model (image size and type, or seeded random inputs).',
};

/** `Name: message` of a thrown value, with the CLI's pointers replaced by the page's, and advice for the page. */
export function errorOf(e: unknown): PageError {
  const name = e instanceof Error ? (e.name === 'Error' ? e.constructor.name || 'Error' : e.name) : 'Error';
  const message = (e instanceof Error ? e.message : String(e)).replace(/run micrort check for the full list/g, FULL_LIST);
  const custom = name === 'UnsupportedOpError' && /CUSTOM:\S+ ×\d+ \(no provider\)/.test(message);
  const advice = custom
    ? "Custom ops no package in this page provides: a kernel package that registers them is needed (see docs/writing-a-kernel-package.md); the Model tab's check table lists every node that cannot run."
    : ADVICE[name];
  return { name, message, ...(advice ? { advice } : {}) };
}

/**
 * Checks every node of every subgraph of `model` with the resolver and interpreter options of a
 * runtime (core's `checkModel`, greedy planner for the arena figures). When a node cannot run, the
 * model is also allocated once, for the typed error a program would get.
 */
export function checkModelNodes(
  model: ModelDef,
  resolver: OpResolver,
  options: Partial<InterpreterOptions> & Record<string, unknown> = {},
  delegateDecisions?: () => { node: number; claimed: boolean; reason?: string }[],
  packages: readonly (ServingPackage & DelegatingPackage)[] = [],
): CheckReport {
  const { planner: _p, arena: _a, ...rest } = options;
  const report = checkModel(model, resolver, { ...rest, planner: createPlanner('greedy') });
  let error: PageError | undefined;
  if (!report.ok) {
    const interp = new MicroInterpreter(model, resolver, {
      ...rest,
      planner: createPlanner('greedy'),
      arena: 'auto',
    } as InterpreterOptions);
    try {
      interp.allocateTensors();
    } catch (e) {
      error = errorOf(e);
    } finally {
      interp.dispose();
    }
    error ??= report.allocationError ?? report.stopped;
  }
  const decisions = new Map((delegateDecisions?.() ?? []).map((d) => [d.node, d]));
  const nodes: NodeCheck[] = report.nodes.map((c) => {
    const n: NodeCheck = {
      subgraph: c.subgraph,
      index: c.index,
      op: c.op,
      version: c.version,
      inputTypes: c.inputs.map((t) => t.type),
      outputTypes: c.outputs.map((t) => t.type),
      status: c.status,
    };
    if (c.provider) n.provider = c.provider;
    if (c.kernel) n.kernel = c.kernel;
    if (c.declined?.length)
      n.declined = c.declined.map((d) => ({ provider: d.provider, kernel: d.kernel, ...(d.reason ? { reason: d.reason } : {}) }));
    if (c.delegate) n.delegate = c.delegate;
    if (c.error) n.error = `${c.error.name}: ${c.error.message}${c.error.phase !== 'prepare' ? ` (in ${c.error.phase})` : ''}`;
    const decision = c.subgraph === 0 ? decisions.get(c.index) : undefined;
    if (decision && !decision.claimed && decision.reason) n.delegateDeclined = decision.reason;
    return n;
  });
  const failing = nodes.filter((n) => n.status !== 'ok');
  return {
    ok: report.ok,
    nodeCount: nodes.length,
    failingCount: failing.length,
    subgraphs: report.subgraphs,
    nodes,
    groups: groupNodes(nodes, report.ops),
    served: packageShares(packages, servedNodesOfCheck(report, model, packages)),
    ...(error ? { error } : {}),
    ...(report.ok && report.arena ? { arena: report.arena } : {}),
  };
}

/**
 * The rows of the check table: core's groups (`checkModel()`'s `ops`: op, version, tensor types, outcome,
 * provider and the decline reasons' shape, their numbers merged), each split further by the delegate
 * that took its nodes and the shape of the reason it left the others; failing rows first, then by op.
 */
export function groupNodes(nodes: readonly NodeCheck[], ops: readonly CheckOp[]): CheckGroup[] {
  const byKey = new Map(nodes.map((n) => [`${n.subgraph}:${n.index}`, n]));
  const rows: CheckGroup[] = [];
  for (const op of ops)
    for (const g of op.groups) {
      const parts = new Map<string, { row: CheckGroup; reasons: string[] }>();
      for (const [sg, index] of g.nodes) {
        const n = byKey.get(`${sg}:${index}`);
        if (!n) continue;
        const key = JSON.stringify([n.delegate ?? '', n.delegateDeclined === undefined ? null : reasonShape(n.delegateDeclined)]);
        let part = parts.get(key);
        if (!part) {
          const row: CheckGroup = {
            op: op.op,
            version: g.version,
            inputTypes: g.inputTypes,
            outputTypes: g.outputTypes,
            status: g.status,
            nodes: [],
          };
          if (g.provider) row.provider = g.provider;
          if (n.delegate) row.delegate = n.delegate;
          if (g.declined)
            row.declined = g.declined.map((d) => ({ provider: d.provider, kernel: d.kernel, ...(d.reason ? { reason: d.reason } : {}) }));
          part = { row, reasons: [] };
          parts.set(key, part);
        }
        part.row.nodes.push(sg === 0 ? String(index) : `${index} (subgraph ${sg})`);
        if (n.delegateDeclined !== undefined) part.reasons.push(n.delegateDeclined);
        if (n.error) {
          part.row.errors ??= [];
          if (!part.row.errors.includes(n.error)) part.row.errors.push(n.error);
        }
      }
      for (const { row, reasons } of parts.values()) {
        if (reasons.length) row.delegateDeclined = mergeReasons(reasons);
        rows.push(row);
      }
    }
  const rank = (s: NodeCheckStatus) => (s === 'ok' ? 2 : s === 'not-prepared' ? 1 : 0);
  return rows.sort((a, b) => rank(a.status) - rank(b.status) || a.op.localeCompare(b.op) || a.version - b.version);
}
