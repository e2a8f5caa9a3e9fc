/** The Model tab: what the file is, its inputs and outputs, its op histogram and the check table. */
import type { CheckGroup, CheckReport } from '../engine/check.js';
import { checkHeadline, fallbackLines } from '../engine/served.js';
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
      ...metadataFacts(m),
    ),
    h('h3', null, 'Inputs and outputs'),
    table(['', 'name', 'type', 'shape', 'quantization', 'bytes'], [...ioRows(m.inputs, 'input'), ...ioRows(m.outputs, 'output')], {
      class: 'io',
    }),
  );
}

/** What the model's TFLite metadata says: its name and author, the labels of each output, the input's normalization. */
function metadataFacts(m: ModelSummary): (HTMLElement | null)[] {
  const md = m.modelMetadata;
  const labelled = m.outputLabels.map((l, j) =>
    l ? `output ${j}: ${l.length} labels (${l.slice(0, 4).join(', ')}${l.length > 4 ? ', …' : ''})` : null,
  );
  const norm = m.imageInput?.normalization;
  const facts: [string, string][] = [];
  if (md) {
    facts.push([
      'TFLite metadata',
      [md.name, md.version, md.author && `by ${md.author}`, md.license].filter(Boolean).join(' · ') || '(unnamed)',
    ]);
    if (md.description) facts.push(['about', md.description]);
  }
  if (labelled.some(Boolean)) facts.push(['labels', labelled.filter(Boolean).join('; ')]);
  if (norm)
    facts.push(['input normalization', `(pixel − ${norm.mean.join('/')}) / ${norm.std.join('/')} (used for image inputs in the Run tab)`]);
  if (m.metadataError) facts.push(['metadata', `not read: ${m.metadataError} — classes are shown by index`]);
  return facts.flatMap(([k, v]) => [h('dt', null, k), h('dd', { 'data-testid': `meta-${k.split(' ')[0]!.toLowerCase()}` }, v)]);
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

/** The grouped check table, headed by which package serves how many nodes (and MACs). */
export function renderCheck(r: CheckReport, kernelLabel: string): HTMLElement {
  const fallbacks = fallbackLines(r.served);
  return h(
    'div',
    { class: `check ${r.ok ? 'ok' : 'failing'}`, 'data-testid': 'check' },
    h('h3', null, 'Check: which kernel runs each node'),
    h(
      'p',
      { class: 'headline', 'data-testid': 'check-headline' },
      checkHeadline(r, kernelLabel),
      r.arena ? ` Arena (arena: 'auto', greedy): ${formatBytes(r.arena.usedBytes)}.` : '',
    ),
    fallbacks.length ? h('ul', { class: 'served-notes', 'data-testid': 'check-served' }, ...fallbacks.map((l) => h('li', null, l))) : null,
    r.error
      ? h(
          'div',
          { class: 'error-line', 'data-testid': 'check-error' },
          `${r.error.name}: ${r.error.message}`,
          r.error.advice ? h('div', { class: 'advice' }, r.error.advice) : null,
        )
      : null,
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
