/** Small helpers of the SVG renderer: XML escaping, number and byte formatting, axis ticks. */

/** Escapes text for XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;'));
}

/** A coordinate with at most two decimals, no exponent. */
export function num(x: number): string {
  const r = Math.round(x * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

const KIB = 1024;
const MIB = 1024 * 1024;

/** `512 B`, `1.5 KiB`, `2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  const [unit, name] = bytes < MIB ? [KIB, 'KiB'] : [MIB, 'MiB'];
  const v = bytes / unit;
  return `${Number.isInteger(v) ? v : Math.round(v * 10) / 10} ${name}`;
}

/** A "nice" step (1, 2 or 5 times a power of ten) giving about `target` intervals over `span`. */
export function niceStep(span: number, target: number): number {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, target);
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const f = raw / pow;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * pow;
}

/**
 * Byte-axis ticks from 0 to at least `max`: nice steps in B, KiB or MiB so that labels stay round.
 * Returns at least two ticks.
 */
export function byteTicks(max: number, target = 6): number[] {
  const unit = max >= 4 * MIB ? MIB : max >= 4 * KIB ? KIB : 1;
  const step = Math.max(1, niceStep(max / unit, target)) * unit;
  const ticks: number[] = [];
  for (let v = 0; ; v += step) {
    ticks.push(v);
    if (v >= max) break;
  }
  if (ticks.length < 2) ticks.push(step);
  return ticks;
}

/** Integer ticks over the steps `[from, to]`, about `target` of them. */
export function stepTicks(from: number, to: number, target = 12): number[] {
  const step = Math.max(1, Math.round(niceStep(to - from + 1, target)));
  const ticks: number[] = [];
  const start = Math.ceil(from / step) * step;
  for (let s = start; s <= to; s += step) ticks.push(s);
  if (ticks.length === 0) ticks.push(from);
  return ticks;
}
