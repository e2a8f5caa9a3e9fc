/** Small DOM helpers: element builders and number formatting. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

function apply(el: Element, attrs: Attrs | null | undefined, children: Child[]): void {
  if (attrs)
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v as EventListener);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'number' ? String(c) : c);
}

/** An HTML element with attributes (`onclick` etc. become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, children);
  return el;
}

/** 1234567 → `1,234,567 B (1.18 MiB)`; small sizes without the unit in brackets. */
export function formatBytes(n: number): string {
  const plain = `${Math.round(n).toLocaleString('en-US')} B`;
  if (n < 1024) return plain;
  const kib = n / 1024;
  return `${plain} (${kib < 1024 ? `${kib.toFixed(1)} KiB` : `${(kib / 1024).toFixed(2)} MiB`})`;
}

/** 1234567 → `1.18 MiB`. */
export function shortBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

/** Milliseconds with sensible precision. */
export function formatMs(ms: number): string {
  if (ms === 0) return '< 0.1 ms'; // browsers coarsen performance.now() to 0.1 ms
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

/** 1234567.4 → `1,234,567`. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A table from a header row and body rows. */
export function table(head: Child[], rows: Child[][], attrs?: Attrs): HTMLTableElement {
  return h(
    'table',
    attrs ?? null,
    h('thead', null, h('tr', null, ...head.map((c) => h('th', null, c)))),
    h('tbody', null, ...rows.map((r) => h('tr', null, ...r.map((c) => h('td', null, c))))),
  );
}
