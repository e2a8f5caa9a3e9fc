import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  checkModel,
  failureReason,
  nodeLabel,
  type CheckGroup,
  type CheckReport,
  type ComposedRuntime,
  type DeclinedProvider,
  type MemoryPlanner,
  type OpResolver,
} from '@micrort/core';
import { Progress, type PackageShare } from '@micrort/app-kit';
import { UsageError, type ParsedArgs } from '../args.js';
import { defineCommand } from '../command.js';
import { BUILT_IN_MODELS, loadModelArg } from '../model-arg.js';
import { JSON_OPTION, flag } from '../options.js';
import { OPS_OPTION, PLANNER_OPTION, composeOps, runtimeChoice } from '../runtime.js';
import { printServed, servedCheckReport } from '../served.js';
import { formatBytes, printTable, type Out } from '../print.js';

/**
 * `micrort check [model.tflite|DIR] [--ops NAME] [--json]`: everything a model needs, in one report —
 * every node of every subgraph resolved and prepared without stopping at the first failure, grouped by
 * op (version, tensor types, the provider that takes it, or each provider's reason for declining / the
 * prepare error). A folder gives one line per model (with a progress display on a terminal).
 * `--list-ops` lists the registered builtin and custom ops instead. Exit 1 when anything is missing.
 */
export const checkCommand = defineCommand({
  name: 'check',
  summary: "report what a model needs: each node's provider, why providers decline, prepare errors",
  description:
    'Resolves and prepares every node of every subgraph without stopping at the first failure and prints,\n' +
    'grouped by op: version, tensor types, the provider that takes it, or why each registered provider\n' +
    'declined it ("no provider registered" when none is), and prepare errors. Exit code 1 when anything\n' +
    'is missing. A folder gives one line per .tflite file under it (runs, or what is missing), with a\n' +
    'progress display on a terminal.',
  arguments: [
    {
      name: 'model',
      description: `a .tflite file, a folder of them, or a built-in model (${Object.keys(BUILT_IN_MODELS).join(', ')}; default: demo)`,
    },
  ],
  options: [
    OPS_OPTION,
    PLANNER_OPTION,
    JSON_OPTION,
    flag('list-ops', 'list the registered builtin and custom ops with their count instead (the README quotes it)'),
  ],
  run: checkAction,
});

function checkAction(args: ParsedArgs, out: Out): number {
  const choice = runtimeChoice(args);
  const json = args.flags.has('json');
  const runtime = composeOps(choice.ops);
  if (args.flags.has('list-ops')) {
    if (args.positional.length) throw new UsageError('--list-ops takes no model');
    return listOps(runtime.resolver, choice.ops, json, out);
  }
  if (args.positional.length > 1) throw new UsageError(`check takes one model or folder, got ${args.positional.length}`);
  const target = args.positional[0];
  if (target !== undefined && isDirectory(target)) return checkFolder(target, runtime, choice.planner, json, out);
  const { model, label } = loadModelArg(target);
  const report = checkModel(model, runtime.resolver, { ...runtime.interpreterOptions, planner: choice.planner });
  const served = servedCheckReport(runtime, report, model);
  if (json) out.log(JSON.stringify({ model: label, kernels: choice.ops, ...report, served }, null, 2));
  else printReport(label, report, served, out);
  return report.ok ? 0 : 1;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Every .tflite file under `dir`, sorted. */
function tfliteFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (isDirectory(p)) walk(p);
      else if (name.endsWith('.tflite')) found.push(p);
    }
  };
  walk(dir);
  return found;
}

/** One line per model: runs, or what is missing (`--json`: each result also carries that line as `summary`). */
function checkFolder(dir: string, runtime: ComposedRuntime, planner: MemoryPlanner, json: boolean, out: Out): number {
  const files = tfliteFiles(dir);
  if (!files.length) throw new UsageError(`no .tflite file under ${dir}`);
  const rows: { model: string; ok: boolean; summary: string; report?: CheckReport; error?: string }[] = [];
  const progress = new Progress(out, { enabled: !json });
  files.forEach((file, i) => {
    const name = relative(dir, file);
    progress.update('check', i, files.length, name);
    try {
      const { model } = loadModelArg(file);
      const report = checkModel(model, runtime.resolver, { ...runtime.interpreterOptions, planner });
      rows.push({ model: name, ok: report.ok, summary: oneLine(report, servedCheckReport(runtime, report, model)), report });
    } catch (e) {
      const err = e as Error;
      rows.push({ model: name, ok: false, summary: `${err.name}: ${err.message}`, error: `${err.name}: ${err.message}` });
    }
  });
  progress.done();
  const failing = rows.filter((r) => !r.ok).length;
  if (json) {
    out.log(
      JSON.stringify(
        {
          folder: dir,
          models: rows.length,
          failing,
          results: rows.map(({ model, ok, summary, report, error }) => ({
            model,
            ok,
            summary,
            ...(report ? { report } : {}),
            ...(error ? { error } : {}),
          })),
        },
        null,
        2,
      ),
    );
  } else {
    printTable(
      out,
      ['model', 'result'],
      rows.map((r) => [r.model, r.summary]),
    );
    out.log('');
    out.log(`${rows.length - failing} of ${rows.length} models run; ${failing} need something missing`);
  }
  return failing ? 1 : 0;
}

/**
 * `runs (57 nodes, arena 12,345 B)` or `missing: CONV_2D ×3 (declined), FOO ×1 (no provider)`; with a
 * package in front that did not serve every node, what it served: `runs (66 nodes, …; ops-wasm served 0)`.
 */
function oneLine(r: CheckReport, served: readonly PackageShare[]): string {
  const partial = served
    .filter((s) => s.front && s.nodes < s.totalNodes)
    .map((s) => `; ${s.package} served ${s.nodes}`)
    .join('');
  if (r.ok)
    return `runs (${r.nodeCount} node${r.nodeCount === 1 ? '' : 's'}${r.subgraphs > 1 ? `, ${r.subgraphs} subgraphs` : ''}${r.arena ? `, arena ${formatBytes(r.arena.usedBytes)}` : ''}${partial})`;
  if (r.allocationError) return `cannot allocate: ${r.allocationError.name}: ${r.allocationError.message}`;
  const parts = r.ops
    .filter((o) => o.failing)
    .map((o) => {
      const kinds = new Set(o.groups.filter((g) => g.status !== 'ok').map((g) => statusWord(g)));
      return `${o.op} ×${o.failing} (${[...kinds].join(', ')})`;
    });
  return `missing: ${parts.join(', ')}${r.stopped ? `; stopped: ${r.stopped.name}` : ''}`;
}

function statusWord(g: CheckGroup): string {
  switch (g.status) {
    case 'no-provider':
      return 'no provider';
    case 'declined':
      return 'declined';
    case 'prepare-failed':
      return 'prepare failed';
    case 'not-prepared':
      return 'not prepared';
    default:
      return 'ok';
  }
}

function types(g: CheckGroup): string {
  return `${g.inputTypes.join(',') || '-'} → ${g.outputTypes.join(',') || '-'}`;
}

function nodeList(g: CheckGroup): string {
  const shown = g.nodes.slice(0, 8).map(([s, i]) => (s === 0 ? String(i) : `${s}:${i}`));
  return shown.join(',') + (g.nodes.length > 8 ? `,… (${g.nodes.length})` : '');
}

/** `CONV_2D v3 (int8,int8,int32 → int8), 2 nodes (node 4, node 9)`. */
function groupTitle(op: string, g: CheckGroup): string {
  const shown = g.nodes
    .slice(0, 4)
    .map(([s, i]) => nodeLabel(s, i))
    .join(', ');
  return `${op} v${g.version} (${types(g)}), ${g.nodes.length} node${g.nodes.length === 1 ? '' : 's'} (${shown}${g.nodes.length > 4 ? ', …' : ''})`;
}

/** `@micrort/ops-simd (CONV_2D/int8) declined: int32 input (handles int8)`. */
function declinedLine(d: DeclinedProvider): string {
  return `${d.provider} (${d.kernel}) declined${d.reason ? `: ${d.reason}` : ' (no reason given)'}`;
}

/** The grouped table, then why each failing group cannot run and which nodes fell back to a later provider. */
function printReport(label: string, r: CheckReport, served: readonly PackageShare[], out: Out): void {
  out.log(`model: ${label} — ${r.subgraphs} subgraph${r.subgraphs === 1 ? '' : 's'}, ${r.nodeCount} nodes, ${r.ops.length} ops`);
  out.log('');
  const rows: string[][] = [];
  for (const op of r.ops) {
    for (const g of op.groups) {
      rows.push([op.op, String(g.version), types(g), nodeList(g), g.status === 'ok' ? (g.provider ?? '?') : `MISSING (${statusWord(g)})`]);
    }
  }
  printTable(out, ['op', 'v', 'types (in → out)', 'nodes', 'provider'], rows);
  const failing = r.ops.flatMap((op) => op.groups.filter((g) => g.status !== 'ok').map((g) => ({ op: op.op, g })));
  if (failing.length) {
    out.log('');
    out.log('why not:');
    for (const { op, g } of failing) {
      out.log(`  ${groupTitle(op, g)}:`);
      if (g.status === 'no-provider') out.log('    no provider registered for this op and version');
      for (const d of g.declined ?? []) out.log(`    ${declinedLine(d)}`);
      if (g.status === 'declined' && !(g.declined ?? []).length) out.log('    every registered provider declined');
      for (const e of g.errors ?? []) out.log(`    ${g.provider ?? '?'} failed: ${e}`);
    }
  }
  // Nodes a provider in front declined and the next one took (ops-wasm declining a uint8 CONV_2D, which
  // ops-reference runs). Declines by another kernel of the provider that took the node are left out.
  const fellBack = r.ops.flatMap((op) =>
    op.groups
      .filter((g) => g.status === 'ok')
      .map((g) => ({ op: op.op, g, declined: (g.declined ?? []).filter((d) => d.provider !== g.provider) }))
      .filter((x) => x.declined.length),
  );
  if (fellBack.length) {
    out.log('');
    out.log('fell back (a provider in front declined, the next one took the nodes):');
    for (const { op, g, declined } of fellBack) {
      out.log(`  ${groupTitle(op, g)} → ${g.provider ?? '?'}:`);
      for (const d of declined) out.log(`    ${declinedLine(d)}`);
    }
  }
  const absorbed = r.nodes.filter((n) => n.absorbedInto !== undefined);
  if (absorbed.length) {
    out.log('');
    out.log(
      `absorbed (prepared, not run, output not planned; the next node reads its input with the padding in its window): ${absorbed
        .map((n) => `${n.subgraph ? `${n.subgraph}:` : ''}${n.index} ${n.op} → ${n.absorbedInto}`)
        .join(', ')}`,
    );
  }
  printShapes(r, out);
  out.log('');
  printServed(out, served);
  if (r.stopped) out.log(`stopped early: ${r.stopped.name}: ${r.stopped.message}`);
  if (r.allocationError) out.log(`every node prepares, but allocation failed: ${r.allocationError.name}: ${r.allocationError.message}`);
  if (r.ok)
    out.log(
      `ok: every node resolves and prepares${r.arena ? `; arena ${formatBytes(r.arena.usedBytes)} (head ${formatBytes(r.arena.headBytes)}, tail ${formatBytes(r.arena.tailBytes)})` : ''}`,
    );
  else if (r.failingCount) {
    const first = r.nodes.find((n) => n.status !== 'ok')!;
    out.log(
      `${r.failingCount} of ${r.nodeCount} nodes cannot run (first: ${nodeLabel(first.subgraph, first.index)} ${first.op}: ${failureReason(first)})`,
    );
  }
}

/** `[1, 2, 3]`. */
function dimsText(dims: readonly number[]): string {
  return `[${dims.join(', ')}]`;
}

/**
 * The tensors whose shape was not simply the file's (core's ShapeNote): inferred by a kernel's prepare,
 * folded (computed during prepare), bounded (data-dependent, planned at the bound), resized inputs.
 */
function printShapes(r: CheckReport, out: Out): void {
  const notes = r.shapes ?? [];
  if (!notes.length) return;
  const count = (kind: string): number => notes.filter((n) => n.kind === kind).length;
  out.log('');
  out.log(
    `shapes: ${count('inferred')} inferred in prepare, ${count('folded')} folded (computed in prepare), ${count('bounded')} bounded (data-dependent), ${count('resized')} resized inputs`,
  );
  const rows = notes.map((n) => [
    n.kind,
    `${n.subgraph ? `${n.subgraph}:` : ''}${n.tensor}`,
    n.name,
    n.kind === 'folded' && sameList(n.fileShape, n.shape) ? dimsText(n.shape) : `${dimsText(n.fileShape)} → ${dimsText(n.shape)}`,
    n.op !== undefined ? `${n.op} #${n.node}` : 'input',
    n.kind === 'folded' ? (n.inArena ? 'constant in arena tail' : 'constant, no arena') : n.kind === 'bounded' ? 'planned at bound' : '',
  ]);
  printTable(out, ['shape', 'tensor', 'name', 'file → planned', 'producer', ''], rows);
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The registered ops of an --ops choice, with a count (the README quotes it). */
function listOps(resolver: OpResolver, ops: string, json: boolean, out: Out): number {
  const byOp = new Map<string, { versions: [number, number][]; providers: Set<string> }>();
  for (const r of resolver.listRegistrations()) {
    const e = byOp.get(r.op) ?? { versions: [], providers: new Set<string>() };
    e.versions.push(r.versions);
    e.providers.add(r.provider);
    byOp.set(r.op, e);
  }
  const entries = [...byOp].sort(([a], [b]) => a.localeCompare(b));
  const isCustom = (op: string) => op.startsWith('CUSTOM:');
  const builtin = entries.filter(([op]) => !isCustom(op));
  const custom = entries.filter(([op]) => isCustom(op));
  const fmtVersions = (v: [number, number][]) => {
    const lo = Math.min(...v.map((x) => x[0]));
    const hi = Math.max(...v.map((x) => x[1]));
    return hi === Number.POSITIVE_INFINITY ? `${lo}+` : lo === hi ? `${lo}` : `${lo}-${hi}`;
  };
  if (json) {
    const row = ([op, e]: (typeof entries)[number]) => ({ op, versions: fmtVersions(e.versions), providers: [...e.providers] });
    out.log(
      JSON.stringify(
        { ops, builtinCount: builtin.length, customCount: custom.length, builtin: builtin.map(row), custom: custom.map(row) },
        null,
        2,
      ),
    );
    return 0;
  }
  printTable(
    out,
    ['op', 'versions', 'providers'],
    entries.map(([op, e]) => [op, fmtVersions(e.versions), [...e.providers].join(', ')]),
  );
  out.log('');
  out.log(`${builtin.length} builtin ops and ${custom.length} custom ops registered (--ops ${ops})`);
  return 0;
}
