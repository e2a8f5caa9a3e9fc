/**
 * The one-screen text summary of a {@link DeployReport}: arena figures for each word size (minimum
 * kTensorArenaSize, arena_used_bytes, head, tail by kind), the resolver, the offline plan, and what TFLM
 * will refuse.
 */
import type { DeployReport, DeployTarget } from './deploy.js';
import type { TailKind } from './tflm/arena-model.js';

/** `17632` → `17,632 B`. */
export function formatByteCount(n: number): string {
  return `${n.toLocaleString('en-US')} B`;
}

const SHORT_KIND: Record<TailKind, string> = {
  allocator: 'allocator objects',
  graph: 'graph structs (eval tensors, nodes)',
  builtinData: 'builtin options (TfLite*Params)',
  opData: 'kernel op data (Init)',
  prepare: 'kernel buffers (Prepare)',
  variables: 'variable tensors',
  scratchHandles: 'scratch buffer handles',
  ioTensors: 'input/output TfLiteTensors',
  resourceVariables: 'resource variables',
  padding: 'alignment padding',
};

function row(label: string, cells: readonly string[], width: number): string {
  return `${label.padEnd(width)}${cells.map((c) => c.padStart(20)).join('')}`;
}

function targetName(t: DeployTarget): string {
  return t.word === 64 ? '64-bit (LP64)' : t.abi === 'ilp32' ? '32-bit (ARM EABI)' : '32-bit (int enums)';
}

/** The summary text (about 25 lines). */
export function deploySummary(r: DeployReport): string {
  const lines: string[] = [];
  const ts = r.targets;
  const w = 38;
  lines.push(`TFLM deployment of ${r.model} (tflite-micro 90b983c2 reference kernels, plain MicroInterpreter)`);
  lines.push(row('', ts.map(targetName), w));
  lines.push(
    row(
      'kTensorArenaSize (smallest that works)',
      ts.map((t) => formatByteCount(t.arenaMinBytes)),
      w,
    ),
  );
  lines.push(
    row(
      'arena_used_bytes() TFLM reports',
      ts.map((t) => formatByteCount(t.arenaUsedBytes)),
      w,
    ),
  );
  lines.push(
    row(
      '  head (planned tensors + scratch)',
      ts.map((t) => formatByteCount(t.headBytes)),
      w,
    ),
  );
  lines.push(
    row(
      '  tail',
      ts.map((t) => formatByteCount(t.tailBytes)),
      w,
    ),
  );
  for (const kind of Object.keys(SHORT_KIND) as TailKind[]) {
    if (ts.every((t) => t.tailByKind[kind] === 0)) continue;
    lines.push(
      row(
        `    ${SHORT_KIND[kind]}`,
        ts.map((t) => formatByteCount(t.tailByKind[kind])),
        w,
      ),
    );
  }
  const limits = [...new Set(ts.map((t) => t.limitedBy))];
  lines.push(`smallest arena set by: ${limits.length === 1 ? limits[0] : ts.map((t) => `${t.word}-bit: ${t.limitedBy}`).join('; ')}`);
  const missing = r.resolver.missing.length ? `; TFLM has no kernel for ${r.resolver.missing.join(', ')}` : '';
  lines.push(
    `resolver: MicroMutableOpResolver<${r.resolver.count}> — ${r.resolver.entries.map((e) => (e.builtIn ? e.call : `AddCustom("${e.op.slice('CUSTOM:'.length)}", …)`)).join(', ') || 'no ops'}${missing}`,
  );
  if (r.offlinePlan) {
    const o = r.offlinePlan;
    lines.push(
      `offline plan (${o.planner}, ${o.tensorOffsets} tensor offsets embedded): ` +
        o.targets
          .map((t, i) => {
            const base = ts[i]!;
            const saved = base.arenaMinBytes - t.arenaMinBytes;
            return `${t.word}-bit arena ${formatByteCount(t.arenaMinBytes)} (head ${formatByteCount(t.headBytes)}; ${saved > 0 ? `saves ${formatByteCount(saved)}` : saved < 0 ? `${formatByteCount(-saved)} more` : 'same as greedy'})`;
          })
          .join(', '),
    );
  }
  const groups = new Map<string, { severity: string; nodes: number[] }>();
  for (const f of r.refusals) {
    const key = `${f.op}: ${f.reason}`;
    const g = groups.get(key) ?? { severity: f.severity, nodes: [] };
    g.nodes.push(f.node);
    groups.set(key, g);
  }
  if (groups.size === 0) lines.push('TFLM will refuse: nothing known');
  else {
    lines.push('TFLM will refuse / needs:');
    const shown = [...groups].slice(0, 6);
    for (const [key, g] of shown)
      lines.push(
        `  ${g.severity === 'error' ? 'refuses' : 'note   '} ${key} (node${g.nodes.length === 1 ? '' : 's'} ${g.nodes.join(', ')})`,
      );
    if (groups.size > shown.length) lines.push(`  … ${groups.size - shown.length} more (see --json)`);
  }
  for (const n of r.notes) lines.push(`note: ${n}`);
  if (!r.exact && r.notes.length === 0) lines.push('note: figures are not exact');
  return lines.join('\n');
}
