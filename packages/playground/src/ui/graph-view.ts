/**
 * The Graph tab: the dagre layout drawn as SVG, panned by dragging and zoomed with the wheel (or the
 * buttons); boxes are coloured by the provider that runs them, with a legend of the colours and how many
 * nodes each provider runs; a search box finds nodes by index, op or tensor name and steps through them;
 * clicking a node shows its options (enums by name), tensors and quantization.
 */
import type { CheckReport, NodeCheck } from '../engine/check.js';
import type { GraphLayout } from '../engine/graph.js';
import { describeQuant, type ModelSummary } from '../engine/summary.js';
import { formatBytes, h, s, table } from './dom.js';

/** A colour per provider (by substring), red for nodes that cannot run. */
export function providerColor(n: NodeCheck | undefined): string {
  if (!n) return '#e8ecf2';
  if (n.status !== 'ok') return '#ffd5d2';
  const p = `${n.delegate ?? ''} ${n.provider ?? ''}`.toLowerCase();
  if (n.delegate || p.includes('gpu')) return '#ffe0b8';
  if (p.includes('wasm')) return '#e6dcff';
  if (p.includes('simd')) return '#d4f3dc';
  if (p.includes('signal')) return '#fff4bf';
  return '#dbe8fb';
}

/** What a node's colour stands for in the legend: its provider (short), its delegate, or that it cannot run. */
function legendLabel(n: NodeCheck): string {
  if (n.status !== 'ok') return 'cannot run';
  if (n.delegate) return `${n.delegate} (delegate)`;
  return (n.provider ?? '?').replace(/^@micrort\//, '');
}

/** Nodes of `summary` that `query` finds: `12` or `#12` by index, else op names and tensor names containing it (any case). */
export function findNodes(summary: ModelSummary, query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const index = /^#?(\d+)$/.exec(q);
  if (index) return summary.nodes.some((n) => n.index === Number(index[1])) ? [Number(index[1])] : [];
  return summary.nodes
    .filter(
      (n) =>
        n.op.toLowerCase().includes(q) ||
        [...n.inputs, ...n.outputs].some((t) => t >= 0 && (summary.tensors[t]?.name ?? '').toLowerCase().includes(q)),
    )
    .map((n) => n.index);
}

export class GraphView {
  readonly element: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly layer: SVGGElement;
  private readonly details: HTMLElement;
  private layout: GraphLayout | null = null;
  private summary: ModelSummary | null = null;
  private check: CheckReport | null = null;
  /** Check outcomes of subgraph 0, by node index. */
  private outcomes = new Map<number, NodeCheck>();
  private scale = 1;
  private tx = 0;
  private ty = 0;
  private selected: number | null = null;
  private readonly legend = h('div', { class: 'graph-legend', 'data-testid': 'graph-legend' });
  private readonly search = h('input', {
    type: 'search',
    class: 'graph-search',
    placeholder: 'find: 12, CONV, a tensor',
    'data-testid': 'graph-search',
    title: 'a node index (12 or #12), part of an op name or of a tensor name; Enter goes to the next match',
  });
  private readonly searchCount = h('span', { class: 'muted small', 'data-testid': 'graph-search-count' });
  private matches: number[] = [];
  private matchAt = -1;

  constructor() {
    this.svg = s('svg', { class: 'graph-svg', 'data-testid': 'graph-svg' });
    this.layer = s('g');
    this.svg.append(this.layer);
    this.details = h(
      'aside',
      { class: 'node-details', 'data-testid': 'node-details' },
      h('p', { class: 'hint' }, 'Click a node to see its options, tensors and quantization.'),
    );
    const btn = (label: string, title: string, fn: () => void) => h('button', { type: 'button', title, onclick: fn }, label);
    this.element = h(
      'div',
      { class: 'graph-view' },
      h(
        'div',
        { class: 'graph-main' },
        h(
          'div',
          { class: 'graph-tools' },
          btn('+', 'zoom in', () => this.zoomBy(1.25)),
          btn('−', 'zoom out', () => this.zoomBy(0.8)),
          btn('fit', 'show the whole graph', () => this.fit(true)),
          btn('1:1', 'readable size, from the top', () => this.fit(false)),
          this.search,
          this.searchCount,
          h('span', { class: 'hint' }, 'drag to pan, wheel to zoom'),
        ),
        this.legend,
        this.svg,
      ),
      this.details,
    );
    this.installPanZoom();
    this.search.addEventListener('input', () => this.find(false));
    this.search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        this.find(true);
      }
    });
  }

  /** Marks the nodes the search box finds; `next`: goes to the next of them (centred and selected). */
  private find(next: boolean): void {
    const q = this.search.value;
    const found = this.summary ? findNodes(this.summary, q) : [];
    if (found.join() !== this.matches.join()) this.matchAt = -1;
    this.matches = found;
    const set = new Set(found);
    this.svg.classList.toggle('searching', q.trim() !== '');
    for (const el of this.layer.querySelectorAll('.box.op')) el.classList.toggle('match', set.has(Number(el.getAttribute('data-node'))));
    if (next && found.length) {
      this.matchAt = (this.matchAt + 1) % found.length;
      this.select(found[this.matchAt]!);
      this.centreOn(found[this.matchAt]!);
    }
    this.searchCount.textContent = !q.trim()
      ? ''
      : found.length
        ? `${this.matchAt >= 0 ? `${this.matchAt + 1} of ` : ''}${found.length} node${found.length === 1 ? '' : 's'}${this.matchAt < 0 ? ' (Enter: go to the first)' : ''}`
        : 'no node matches';
  }

  /** Pans (at a readable zoom) so node `index` is in the middle of the view. */
  private centreOn(index: number): void {
    const b = this.layout?.boxes.find((x) => x.kind === 'op' && x.index === index);
    if (!b) return;
    const r = this.svg.getBoundingClientRect();
    this.scale = Math.max(this.scale, 0.8);
    this.tx = (r.width || 800) / 2 - b.x * this.scale;
    this.ty = (r.height || 600) / 2 - b.y * this.scale;
    this.applyTransform();
  }

  /** The legend: each colour on the graph, what it stands for and how many nodes have it. */
  private drawLegend(): void {
    const counts = new Map<string, { color: string; n: number }>();
    for (const n of this.outcomes.values()) {
      const label = legendLabel(n);
      const c = counts.get(label) ?? { color: providerColor(n), n: 0 };
      c.n++;
      counts.set(label, c);
    }
    this.legend.replaceChildren(
      ...(counts.size ? [h('span', { class: 'muted small' }, 'runs on: ')] : []),
      ...[...counts].map(([label, { color, n }]) =>
        h('span', { class: 'legend-item' }, h('span', { class: 'swatch', style: `background:${color}` }), `${label} (${n})`),
      ),
    );
  }

  /** Draws a layout (after a model is opened). */
  show(layout: GraphLayout, summary: ModelSummary): void {
    this.layout = layout;
    this.summary = summary;
    this.selected = null;
    this.outcomes = new Map();
    this.drawLegend();
    this.redraw();
    this.find(false);
    this.fitted = false;
    requestAnimationFrame(() => this.refit());
  }

  /** Colours the boxes by the providers of a check report. */
  setCheck(check: CheckReport | null): void {
    this.check = check;
    this.outcomes = new Map((check?.nodes ?? []).filter((n) => n.subgraph === 0).map((n) => [n.index, n]));
    this.drawLegend();
    this.redraw();
    this.find(false);
    if (this.selected !== null) this.showDetails(this.selected);
  }

  private redraw(): void {
    const L = this.layout;
    this.layer.replaceChildren();
    if (!L) return;
    const edges = s('g', { class: 'edges' });
    for (const e of L.edges) {
      const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
      edges.append(
        s('path', { d, class: 'edge', 'marker-end': 'url(#arrow)' }),
        s('text', { x: e.labelX.toFixed(1), y: (e.labelY + 4).toFixed(1), class: 'edge-label', 'text-anchor': 'middle' }, e.label),
      );
    }
    const boxes = s('g', { class: 'boxes' });
    for (const b of L.boxes) {
      const node = b.kind === 'op' ? this.outcomes.get(b.index) : undefined;
      const x = b.x - b.width / 2;
      const y = b.y - b.height / 2;
      const g = s('g', {
        class: `box ${b.kind}${this.selected === b.index && b.kind === 'op' ? ' selected' : ''}`,
        'data-node': b.kind === 'op' ? b.index : null,
        transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`,
      });
      g.append(
        s('rect', {
          width: b.width,
          height: b.height,
          rx: b.kind === 'op' ? 6 : 14,
          fill: b.kind === 'op' ? providerColor(node) : '#f4f4f4',
        }),
      );
      if (b.kind === 'op') {
        g.append(
          s('text', { x: 8, y: 16, class: 'op-name' }, b.label.length > 22 ? `${b.label.slice(0, 21)}…` : b.label),
          s('text', { x: b.width - 6, y: 32, class: 'op-index', 'text-anchor': 'end' }, `#${b.index}`),
        );
        const prov = node
          ? node.status !== 'ok'
            ? node.status
            : node.delegate
              ? `${node.delegate} delegate`
              : (node.provider ?? '').replace(/^@micrort\//, '')
          : '';
        g.append(s('text', { x: 8, y: 32, class: 'op-provider' }, prov.length > 23 ? `${prov.slice(0, 22)}…` : prov));
        g.append(s('title', null, `node ${b.index} ${b.label}${node ? ` — ${prov}` : ''}`));
        g.addEventListener('click', (ev) => {
          ev.stopPropagation();
          this.select(b.index);
        });
      } else {
        g.append(
          s(
            'text',
            { x: b.width / 2, y: b.height / 2 + 4, 'text-anchor': 'middle', class: 'io-name' },
            `${b.kind === 'input' ? '▶ ' : ''}${b.label.length > 20 ? `${b.label.slice(0, 19)}…` : b.label}${b.kind === 'output' ? ' ◀' : ''}`,
          ),
        );
      }
      boxes.append(g);
    }
    const defs = s(
      'defs',
      null,
      s(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#7b8794' }),
      ),
    );
    this.layer.append(defs, edges, boxes);
    this.applyTransform();
  }

  /** Selects node `index`: highlights it and shows its details. */
  select(index: number): void {
    this.selected = index;
    for (const el of this.layer.querySelectorAll('.box.op'))
      el.classList.toggle('selected', el.getAttribute('data-node') === String(index));
    this.showDetails(index);
  }

  private showDetails(index: number): void {
    const m = this.summary;
    if (!m) return;
    const n = m.nodes[index]!;
    const c = this.outcomes.get(index);
    const tensorRows = (list: number[], kind: string) =>
      list.map((t, i) => {
        if (t < 0) return [`${kind} ${i}`, '(omitted)', '', '', ''];
        const ti = m.tensors[t]!;
        return [
          `${kind} ${i}`,
          `#${t} ${ti.name}`,
          `${ti.type}[${ti.shape.join(',')}]`,
          describeQuant(ti.quant),
          ti.constant ? `constant, ${formatBytes(ti.bytes)}` : ti.isVariable ? 'variable' : formatBytes(ti.bytes),
        ];
      });
    const perChannel = [...n.inputs, ...n.outputs].filter((t) => t >= 0 && (m.tensors[t]!.quant?.scale.length ?? 0) > 1);
    const parts: (HTMLElement | null)[] = [
      h('h3', null, `#${n.index} ${n.op}`, h('span', { class: 'muted' }, ` v${n.version}`)),
      c
        ? h(
            'p',
            null,
            c.status === 'ok'
              ? `runs on ${c.delegate ? `${c.delegate} (delegate)` : c.provider}${c.kernel && !c.delegate ? ` — kernel ${c.kernel}` : ''}`
              : `cannot run: ${c.status}`,
            ...(c.declined ?? []).map((d) => h('div', { class: 'muted' }, `${d.provider} declined${d.reason ? `: ${d.reason}` : ''}`)),
            c.delegateDeclined ? h('div', { class: 'muted' }, `GPU delegate left it: ${c.delegateDeclined}`) : null,
            c.error ? h('div', { class: 'err' }, c.error) : null,
          )
        : null,
      h('h4', null, 'Options'),
      n.options.length || n.customOptionBytes
        ? table(
            ['option', 'value'],
            [...n.options.map(([k, v]) => [k, v]), ...(n.customOptionBytes ? [['custom options', `${n.customOptionBytes} bytes`]] : [])],
            { class: 'small' },
          )
        : h('p', { class: 'muted' }, 'none'),
      h('h4', null, 'Tensors'),
      table(['', 'tensor', 'type', 'quantization', ''], [...tensorRows(n.inputs, 'in'), ...tensorRows(n.outputs, 'out')], {
        class: 'small',
      }),
      ...perChannel.map((t) => {
        const q = m.tensors[t]!.quant!;
        const shown = q.scale.slice(0, 16).map((v, i) => `${Number(v.toPrecision(4))}/${q.zeroPoint[i] ?? 0}`);
        return h(
          'p',
          { class: 'muted small' },
          `#${t} scales/zero points: ${shown.join(', ')}${q.scale.length > 16 ? `, … (${q.scale.length})` : ''}`,
        );
      }),
    ];
    this.details.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  private fitted = false;

  /** Fits (readable, from the top) the first time the tab is shown after a new model. */
  refit(): void {
    if (this.fitted || !this.layout) return;
    if (this.svg.getBoundingClientRect().width === 0) return;
    this.fitted = true;
    this.fit(false);
  }

  private applyTransform(): void {
    this.layer.setAttribute('transform', `translate(${this.tx.toFixed(1)},${this.ty.toFixed(1)}) scale(${this.scale.toFixed(4)})`);
  }

  /**
   * Fits the graph into the view: all of it (`whole`), or (a model's first view) its width at a
   * readable scale from the top, so a tall graph is not shrunk to a thread.
   */
  fit(whole = true): void {
    const L = this.layout;
    if (!L) return;
    const r = this.svg.getBoundingClientRect();
    const w = r.width || 800;
    const hgt = r.height || 600;
    const widthFit = w / (L.width + 20);
    this.scale = whole ? Math.min(1.2, widthFit, hgt / (L.height + 20)) : Math.min(1.1, widthFit);
    this.tx = (w - L.width * this.scale) / 2;
    this.ty = whole ? (hgt - L.height * this.scale) / 2 : 40;
    this.applyTransform();
  }

  private zoomBy(f: number, cx?: number, cy?: number): void {
    const r = this.svg.getBoundingClientRect();
    const x = cx ?? r.width / 2;
    const y = cy ?? r.height / 2;
    const ns = Math.max(0.05, Math.min(4, this.scale * f));
    this.tx = x - ((x - this.tx) * ns) / this.scale;
    this.ty = y - ((y - this.ty) * ns) / this.scale;
    this.scale = ns;
    this.applyTransform();
  }

  private installPanZoom(): void {
    let drag: { x: number; y: number; tx: number; ty: number } | null = null;
    this.svg.addEventListener('pointerdown', (e) => {
      if ((e.target as Element).closest('.box.op')) return;
      drag = { x: e.clientX, y: e.clientY, tx: this.tx, ty: this.ty };
      this.svg.setPointerCapture(e.pointerId);
      this.svg.classList.add('dragging');
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (!drag) return;
      this.tx = drag.tx + e.clientX - drag.x;
      this.ty = drag.ty + e.clientY - drag.y;
      this.applyTransform();
    });
    const end = () => {
      drag = null;
      this.svg.classList.remove('dragging');
    };
    this.svg.addEventListener('pointerup', end);
    this.svg.addEventListener('pointercancel', end);
    this.svg.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = this.svg.getBoundingClientRect();
        this.zoomBy(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
  }
}
