/**
 * The `check` report of the page: every node's provider, or why each registered provider declined it,
 * or its init/prepare error — grouped by op, version, tensor types and outcome. Built on core's
 * `checkModel()`; this module adds what the page shows beside it: the typed error `allocateTensors()`
 * throws for the same model and kernels, and why the GPU delegate left a node alone.
 */
import {
  KernelError,
  MicroInterpreter,
  OpResolver,
  checkModel,
  opDisplayName,
  type InterpreterOptions,
  type ModelDef,
  type Node,
  type Registration,
  type Resolution,
  type TfLiteContext,
} from '@micrort/core';
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

/** Nodes of one op sharing version, tensor types and outcome: one row of the grouped table. */
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
  /** The typed error `allocateTensors()` throws for this model and kernels (`UnsupportedOpError: …`). */
  error?: { name: string; message: string };
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

/** `Name: message` of a thrown value. */
export function errorOf(e: unknown): { name: string; message: string } {
  if (e instanceof Error) return { name: e.name === 'Error' ? e.constructor.name || 'Error' : e.name, message: e.message };
  return { name: 'Error', message: String(e) };
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
): CheckReport {
  const { planner: _p, arena: _a, ...rest } = options;
  const report = checkModel(model, resolver, { ...rest, planner: createPlanner('greedy') });
  let error: { name: string; message: string } | undefined;
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
    groups: groupNodes(nodes),
    ...(error ? { error } : {}),
    ...(report.ok && report.arena ? { arena: report.arena } : {}),
  };
}

/** Groups node outcomes by op, version, tensor types, outcome and provider; failing groups first. */
export function groupNodes(nodes: readonly NodeCheck[]): CheckGroup[] {
  const groups = new Map<string, CheckGroup>();
  for (const n of nodes) {
    const key = JSON.stringify([
      n.op,
      n.version,
      n.inputTypes,
      n.outputTypes,
      n.status,
      n.provider ?? '',
      n.delegate ?? '',
      n.declined ?? [],
      n.delegateDeclined ?? '',
    ]);
    let g = groups.get(key);
    if (!g) {
      g = { op: n.op, version: n.version, inputTypes: n.inputTypes, outputTypes: n.outputTypes, status: n.status, nodes: [] };
      if (n.provider) g.provider = n.provider;
      if (n.delegate) g.delegate = n.delegate;
      if (n.declined) g.declined = n.declined;
      if (n.delegateDeclined) g.delegateDeclined = n.delegateDeclined;
      groups.set(key, g);
    }
    g.nodes.push(n.subgraph === 0 ? String(n.index) : `${n.index} (subgraph ${n.subgraph})`);
    if (n.error) {
      g.errors ??= [];
      if (!g.errors.includes(n.error)) g.errors.push(n.error);
    }
  }
  const rank = (s: NodeCheckStatus) => (s === 'ok' ? 2 : s === 'not-prepared' ? 1 : 0);
  return [...groups.values()].sort((a, b) => rank(a.status) - rank(b.status) || a.op.localeCompare(b.op) || a.version - b.version);
}
