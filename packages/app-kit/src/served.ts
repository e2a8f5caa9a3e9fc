/**
 * Which kernel package served each node, and why the packages in front declined the rest: what `run`,
 * `bench`, `check` and `inspect` print as `served: ops-wasm 0 of 66 nodes …`, so a package that falls
 * back on every node (ops-wasm on a uint8 model) never passes silently for the one that ran.
 */
import {
  mergeReasons,
  opDisplayName,
  reasonShape,
  type CheckReport,
  type KernelJoin,
  type MicroInterpreter,
  type ModelDef,
} from '@micrort/core';
import { nodeMacs } from './macs.js';

/** One node of the model and who served it. */
export interface ServedNode {
  subgraph: number;
  index: number;
  op: string;
  /** The provider that runs it (for a delegated node, the delegate's); null when none can. */
  provider: string | null;
  /** Providers asked before it that declined the node, with their kernels and reasons. */
  declined: readonly { provider: string; kernel?: string; reason?: string }[];
  /** Its multiply-accumulates (0 for ops without weights or unknown shapes). */
  macs: number;
}

/** A composed package as the summary needs it (a `ComposedPackage` is one). */
export interface ServingPackage {
  readonly name: string;
  readonly provider: string;
  readonly join: KernelJoin;
  readonly provides: readonly string[];
}

/** Nodes a package in front declined, grouped by op, the provider that took them and the reason's shape. */
export interface FellBack {
  op: string;
  count: number;
  /** The provider that ran them; null when none could. */
  to: string | null;
  /** The package's reason (its kernels' reasons joined; numbers that differ between the nodes merged). */
  reason: string;
}

/** What one package served. */
export interface PackageShare {
  package: string;
  provider: string;
  /** In front of the others (`fallback`, `override`) or a delegate: the ones whose share is the question. */
  front: boolean;
  nodes: number;
  totalNodes: number;
  macs: number;
  totalMacs: number;
  /** For a package in front: the nodes it did not serve, and why (largest groups first). */
  fellBack: FellBack[];
}

/** The nodes of an allocated interpreter (a delegate node counts as the nodes it replaced). */
export function servedNodesOfInterpreter(interp: MicroInterpreter, model: ModelDef): ServedNode[] {
  const out: ServedNode[] = [];
  for (const n of interp.nodes()) {
    const sg = model.subgraphs[n.subgraph];
    for (const index of n.delegate ? n.delegate.nodes : [n.index]) {
      const op = sg?.operators[index];
      if (!op) continue; // a node the runtime made (a schedule's), not one of the model's
      out.push({
        subgraph: n.subgraph,
        index,
        op: n.delegate ? opName(model, n.subgraph, index) : n.op,
        provider: n.provider,
        declined: n.declined ?? [],
        macs: nodeMacs(model, n.subgraph, index),
      });
    }
  }
  return out;
}

/** A composed package as far as its delegates go (a `ComposedPackage` is one). */
export interface DelegatingPackage {
  readonly provider: string;
  readonly contribution?: { readonly delegates?: readonly { readonly name: string }[] };
}

/**
 * The nodes of a `checkModel()` report: a node that cannot run has no provider; a node a delegate took
 * over is served by the package whose delegate it is (found by the delegate's name among `packages`'
 * delegates), not by the kernel that would have run it.
 */
export function servedNodesOfCheck(report: CheckReport, model: ModelDef, packages: readonly DelegatingPackage[] = []): ServedNode[] {
  const byDelegate = new Map<string, string>();
  for (const p of packages) for (const d of p.contribution?.delegates ?? []) byDelegate.set(d.name, p.provider);
  return report.nodes.map((n) => ({
    subgraph: n.subgraph,
    index: n.index,
    op: n.op,
    provider: n.status !== 'ok' ? null : n.delegate !== undefined ? (byDelegate.get(n.delegate) ?? n.delegate) : (n.provider ?? null),
    declined: n.declined ?? [],
    macs: nodeMacs(model, n.subgraph, n.index),
  }));
}

function opName(model: ModelDef, subgraph: number, index: number): string {
  const op = model.subgraphs[subgraph]!.operators[index]!;
  const code = model.operatorCodes[op.opcodeIndex];
  return code ? opDisplayName(code.builtinCode, code.customCode) : '?';
}

/** Each package's share of the nodes and MACs, and for a package in front, why it declined the rest. */
export function packageShares(packages: readonly ServingPackage[], nodes: readonly ServedNode[]): PackageShare[] {
  const totalMacs = nodes.reduce((s, n) => s + n.macs, 0);
  return packages.map((p) => {
    const mine = nodes.filter((n) => n.provider === p.provider);
    const front = p.join !== 'register' || p.provides.includes('delegate');
    const groups = new Map<string, { fb: FellBack; reasons: string[] }>();
    if (front && !p.provides.includes('delegate'))
      for (const n of nodes) {
        if (n.provider === p.provider) continue;
        const own = n.declined.filter((d) => d.provider === p.provider);
        const reason = own.length
          ? [...new Set(own.map((d) => d.reason ?? `${d.kernel ?? p.name} declined`))].join(' / ')
          : `no ${p.name} kernel for ${n.op}`;
        const key = JSON.stringify([n.op, n.provider, reasonShape(reason)]);
        const g = groups.get(key) ?? { fb: { op: n.op, count: 0, to: n.provider, reason }, reasons: [] };
        g.fb.count++;
        g.reasons.push(reason);
        groups.set(key, g);
      }
    const fellBack = [...groups.values()]
      .map(({ fb, reasons }) => ({ ...fb, reason: mergeReasons(reasons) }))
      .sort((a, b) => b.count - a.count);
    return {
      package: p.name,
      provider: p.provider,
      front,
      nodes: mine.length,
      totalNodes: nodes.length,
      macs: mine.reduce((s, n) => s + n.macs, 0),
      totalMacs,
      fellBack,
    };
  });
}

function share(s: PackageShare, first: boolean): string {
  const macs = s.totalMacs > 0 ? ` (${((100 * s.macs) / s.totalMacs).toFixed(1)}% of MACs)` : '';
  return `${s.package} ${s.nodes} of ${s.totalNodes}${first ? ' nodes' : ''}${macs}`;
}

/** The provider name a line shows: the package's name where one of `shares` has that provider. */
function shown(provider: string | null, shares: readonly PackageShare[]): string {
  return shares.find((s) => s.provider === provider)?.package ?? provider ?? '?';
}

/**
 * The summary lines: `served: ops-wasm 52 of 66 nodes (97.9% of MACs), ops-reference 14 of 66 (2.1% of
 * MACs)` (packages in front first and always, the others where they served a node), then for each package in
 * front that did not serve every node, what fell back where and why, at most `maxGroups` groups:
 * `ops-wasm: every node fell back to ops-reference — CONV_2D ×36 (uint8 input (handles int8)); …`.
 */
export function servedLines(shares: readonly PackageShare[], maxGroups = 4): string[] {
  // the packages in front first (the front-most, composed last, leading), then the ones that served a node
  const listed = [...shares.filter((s) => s.front).reverse(), ...shares.filter((s) => !s.front && s.nodes > 0)];
  if (!listed.length) return [];
  const lines = [`served: ${listed.map((s, i) => share(s, i === 0)).join(', ')}`];
  for (const s of shares) {
    if (!s.fellBack.length) continue;
    const count = (fb: readonly FellBack[]) => fb.reduce((n, f) => n + f.count, 0);
    const nodes = (n: number) => (n === s.totalNodes ? 'every node' : `${n} node${n === 1 ? '' : 's'}`);
    const taken = s.fellBack.filter((f) => f.to !== null);
    const targets = [...new Set(taken.map((f) => shown(f.to, shares)))];
    const parts = [
      ...(taken.length ? [`${nodes(count(taken))} fell back to ${targets.join(', ')}`] : []),
      ...(taken.length < s.fellBack.length ? [`${nodes(count(s.fellBack) - count(taken))} cannot run`] : []),
    ];
    const groups = s.fellBack.slice(0, maxGroups).map((f) => `${f.op} ×${f.count} (${f.reason})`);
    const more = s.fellBack.length > maxGroups ? `; ${s.fellBack.length - maxGroups} more` : '';
    lines.push(`${s.package}: ${parts.join(', ')} — ${groups.join('; ')}${more}`);
  }
  return lines;
}
