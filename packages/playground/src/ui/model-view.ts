/** The Model tab: what the file is, its inputs and outputs, its op histogram and the check table. */
import type { CheckGroup, CheckReport } from '../engine/check.js';
import { describeQuant, typeAndShape, type ModelSummary, type TensorInfo } from '../engine/summary.js';
import { formatBytes, h, table } from './dom.js';

function ioRows(list: TensorInfo[], kind: string) {
  return list.map((t, i) => [
    `${kind} ${i}`,
    t.name || '-',
    t.type,
    `[${t.shape.join(', ')}]`,
    describeQuant(t.quant),
    formatBytes(t.bytes),
  ]);
}

/** Name, size, inputs and outputs. */
export function renderSummary(m: ModelSummary): HTMLElement {
  return h(
    'div',
    { class: 'summary', 'data-testid': 'summary' },
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'model'),
      h('dd', { 'data-testid': 'model-name' }, m.name),
      h('dt', null, 'file size'),
      h('dd', null, formatBytes(m.bytes)),
      m.description ? h('dt', null, 'description') : null,
      m.description ? h('dd', null, m.description) : null,
      h('dt', null, 'schema / subgraphs'),
      h('dd', null, `version ${m.schemaVersion}, ${m.subgraphs} subgraph${m.subgraphs === 1 ? '' : 's'} (entry: 0)`),
      h('dt', null, 'nodes / tensors'),
      h('dd', null, `${m.nodes.length} nodes, ${m.tensors.length} tensors, ${formatBytes(m.constantBytes)} of constants`),
      m.metadata.length ? h('dt', null, 'metadata') : null,
      m.metadata.length ? h('dd', null, m.metadata.join(', ')) : null,
    ),
    h('h3', null, 'Inputs and outputs'),
    table(['', 'name', 'type', 'shape', 'quantization', 'bytes'], [...ioRows(m.inputs, 'input'), ...ioRows(m.outputs, 'output')], {
      class: 'io',
    }),
  );
}

/** The op histogram. */
export function renderHistogram(m: ModelSummary): HTMLElement {
  const max = m.opHistogram.reduce((a, [, n]) => Math.max(a, n), 1);
  return h(
    'div',
    null,
    h('h3', null, `Operators (${m.opHistogram.length} kinds, ${m.nodes.length} nodes)`),
    h(
      'div',
      { class: 'histogram' },
      ...m.opHistogram.map(([op, n]) =>
        h(
          'div',
          { class: 'hrow' },
          h('span', { class: 'hlabel' }, op),
          h('span', { class: 'hbar', style: `width:${Math.max(2, (n / max) * 100)}%` }),
          h('span', { class: 'hcount' }, String(n)),
        ),
      ),
    ),
  );
}

const STATUS_TEXT: Record<string, string> = {
  ok: 'runs',
  'no-provider': 'no kernel registered',
  declined: 'every provider declined',
  'prepare-failed': 'prepare failed',
  'not-prepared': 'not prepared',
};

function outcome(g: CheckGroup): HTMLElement {
  const parts: (HTMLElement | string)[] = [];
  if (g.status === 'ok') parts.push(h('span', { class: 'provider' }, g.delegate ? `${g.delegate} (delegate)` : (g.provider ?? '')));
  else parts.push(h('strong', null, STATUS_TEXT[g.status] ?? g.status));
  if (g.status === 'prepare-failed' && g.provider) parts.push(h('span', { class: 'provider' }, ` in ${g.provider}`));
  const notes: HTMLElement[] = [];
  for (const d of g.declined ?? []) notes.push(h('li', null, `${d.provider} declined${d.reason ? `: ${d.reason}` : ''}`));
  if (g.delegateDeclined) notes.push(h('li', null, `GPU delegate left it: ${g.delegateDeclined}`));
  for (const e of g.errors ?? []) notes.push(h('li', { class: 'err' }, e));
  return h('div', null, ...parts, notes.length ? h('ul', { class: 'reasons' }, ...notes) : null);
}

/** The grouped check table. */
export function renderCheck(r: CheckReport, kernelLabel: string): HTMLElement {
  const where = r.subgraphs > 1 ? ` (${r.subgraphs} subgraphs)` : '';
  const headline = r.ok
    ? `All ${r.nodeCount} nodes${where} run with ${kernelLabel}.`
    : `${r.failingCount} of ${r.nodeCount} nodes${where} cannot run with ${kernelLabel}.`;
  return h(
    'div',
    { class: `check ${r.ok ? 'ok' : 'failing'}`, 'data-testid': 'check' },
    h('h3', null, 'Check: which kernel runs each node'),
    h('p', { class: 'headline' }, headline, r.arena ? ` Arena (arena: 'auto', greedy): ${formatBytes(r.arena.usedBytes)}.` : ''),
    r.error ? h('p', { class: 'error-line', 'data-testid': 'check-error' }, `${r.error.name}: ${r.error.message}`) : null,
    table(
      ['op', 'v', 'input types', 'output types', 'nodes', 'outcome'],
      r.groups.map((g) => [
        g.op,
        String(g.version),
        g.inputTypes.join(', '),
        g.outputTypes.join(', '),
        h(
          'span',
          { title: g.nodes.join(', ') },
          `${g.nodes.length} (${g.nodes.length > 6 ? `${g.nodes.slice(0, 6).join(', ')}, …` : g.nodes.join(', ')})`,
        ),
        outcome(g),
      ]),
      { class: 'check-table', 'data-testid': 'check-table' },
    ),
  );
}

/** `int8[1,96,96,1]`, re-exported for the other views. */
export { typeAndShape };
