/**
 * The Compare tab: every kernel package on the same inputs — allocation and invoke times, arena, and
 * the largest difference of each output from ops-reference's.
 */
import type { TensorDiff } from '../engine/outputs.js';
import type { CompareRow } from '../engine/session.js';
import { fallbackLines, sharesText } from '../engine/served.js';
import type { ModelSummary } from '../engine/summary.js';
import type { AppContext } from './context.js';
import { barChart } from './charts.js';
import { formatBytes, formatMs, h, table } from './dom.js';
import type { RunView } from './run-view.js';

function diffText(d: TensorDiff, type: string): string {
  if (d.identical) return 'identical bytes';
  const unit = type === 'float32' ? '' : ' (quantized steps)';
  return `max |Δ| ${Number(d.maxAbs.toPrecision(4))}${unit}, ${d.differing} of ${d.count} differ${d.withinTolerance ? ', within float tolerance' : ''}`;
}

/** Which package ran how many of the nodes: a package that served none says so, with why. */
function servedCell(r: CompareRow): HTMLElement {
  const shares = r.served ?? [];
  const notes = fallbackLines(shares);
  const front = shares.filter((s) => s.front);
  const none = front.filter((s) => s.nodes === 0);
  return h(
    'span',
    { class: none.length ? 'err' : notes.length ? 'partial' : '', title: notes.join('\n'), 'data-testid': 'compare-served' },
    none.length ? `${none.map((s) => s.package).join(', ')} served no node: ` : '',
    sharesText(shares),
  );
}

export class CompareView {
  readonly element: HTMLElement;
  private readonly results = h('div', { class: 'compare-results', 'data-testid': 'compare-results' });
  private readonly button = h('button', { type: 'button', class: 'primary', 'data-testid': 'compare-button' }, 'Run every package');
  private summary: ModelSummary | null = null;

  constructor(
    private readonly app: AppContext,
    private readonly run: RunView,
  ) {
    this.button.addEventListener('click', () => void this.compare());
    this.element = h(
      'div',
      { class: 'compare' },
      h(
        'div',
        { class: 'controls' },
        this.button,
        h(
          'span',
          { class: 'muted' },
          ' on the inputs set in the Run tab (greedy planner); outputs against ops-reference. "served" says which package ran how many nodes: a package falls back to ops-reference node by node.',
        ),
      ),
      this.results,
    );
  }

  setModel(summary: ModelSummary): void {
    this.summary = summary;
    this.results.replaceChildren();
  }

  async compare(): Promise<void> {
    if (!this.summary) return;
    this.app.clearError();
    this.button.disabled = true;
    try {
      const kernels = this.app.kernels().map((k) => k.id);
      const rows = await this.app.client.call('compare', { input: this.run.inputSpec(), kernels }, (l, d, t) =>
        this.app.progress(`compare: ${l}`, d, t),
      );
      this.show(rows);
    } catch (e) {
      this.app.showError(e);
    } finally {
      this.button.disabled = false;
      this.app.progress(null);
    }
  }

  private show(rows: CompareRow[]): void {
    const outs = this.summary?.outputs ?? [];
    const ran = rows.filter((r) => r.meanInvokeMs !== undefined);
    this.results.replaceChildren(
      table(
        ['kernels', 'served', 'allocate', 'first invoke', 'mean invoke', 'arena', ...outs.map((o, j) => `output ${j} vs reference`)],
        rows.map((r) =>
          r.error
            ? [
                h('span', null, r.label),
                h(
                  'span',
                  { class: r.error.name === 'unavailable' ? 'muted' : 'err' },
                  `${r.error.name === 'unavailable' ? 'unavailable' : r.error.name}: ${r.error.message}`,
                ),
                '',
                '',
                '',
                '',
                ...outs.map(() => ''),
              ]
            : [
                h('span', null, r.label, r.detail ? h('span', { class: 'muted' }, ` (${r.detail})`) : null),
                servedCell(r),
                formatMs(r.allocateMs ?? 0),
                formatMs(r.firstInvokeMs ?? 0),
                `${formatMs(r.meanInvokeMs ?? 0)} (${r.invokes} runs)`,
                formatBytes(r.arenaBytes ?? 0),
                ...(r.diffs ?? []).map((d, j) =>
                  h('span', { class: d.identical || d.withinTolerance ? 'same' : 'err' }, diffText(d, outs[j]?.type ?? '')),
                ),
              ],
        ),
        { class: 'compare-table', 'data-testid': 'compare-table' },
      ),
      h('h3', null, 'Mean invoke (after the first)'),
      barChart(
        ran.map((r) => ({ label: r.label, value: r.meanInvokeMs! })),
        formatMs,
      ),
    );
  }
}
