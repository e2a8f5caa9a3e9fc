/**
 * The chart of a benchmark run: per model, one horizontal bar per runtime for its median invoke time on
 * a log scale (decades marked), labelled with the time and the ratio to the baseline; runtimes without
 * a time show why. Plain SVG, no dependencies.
 */
import type { ModelResult } from './harness.js';
import { formatMs, noteOf, ratioTo } from './report.js';

const PALETTE = ['#4e79a7', '#59a14f', '#9c755f', '#76b7b2', '#e15759', '#f28e2b', '#b07aa1', '#edc948'];

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Renders the chart; `runtimeOrder` fixes each runtime's colour. */
export function renderChart(results: readonly ModelResult[], baselineId: string, runtimeOrder: readonly string[], title: string): string {
  const times = results.flatMap((m) => m.runtimes.flatMap((r) => (r.timing ? [r.timing.medianMs] : [])));
  const lo = Math.pow(10, Math.floor(Math.log10(Math.max(1e-4, Math.min(...times, 1)))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...times, lo * 10))));
  const left = 170;
  const barW = 560;
  const width = left + barW + 330;
  const x = (ms: number) => left + (barW * (Math.log10(ms) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const rowH = 18;
  const out: string[] = [];
  let y = 56;
  const body: string[] = [];
  for (const m of results) {
    body.push(`<text x="8" y="${y + 13}" font-weight="bold">${esc(m.model)}</text>`);
    y += rowH + 2;
    const baseline = m.runtimes.find((r) => r.runtime === baselineId && r.status === 'ok');
    for (const r of m.runtimes) {
      const colour = PALETTE[Math.max(0, runtimeOrder.indexOf(r.runtime)) % PALETTE.length]!;
      body.push(`<text x="20" y="${y + 13}">${esc(r.runtime)}</text>`);
      if (r.timing) {
        const w = Math.max(1, x(r.timing.medianMs) - left);
        const ratio = ratioTo(r, baseline);
        const flag =
          r.agreement && (r.agreement.verdict === 'differs' || r.agreement.verdict === 'zeros' || r.agreement.verdict === 'mismatch')
            ? ' (outputs differ)'
            : '';
        body.push(`<rect x="${left}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowH - 5}" fill="${colour}"/>`);
        body.push(
          `<text x="${(left + w + 6).toFixed(1)}" y="${y + 13}">${esc(`${formatMs(r.timing.medianMs)} ms${ratio !== null && r.runtime !== baselineId ? `, ${ratio.toFixed(2)}× ${baselineId}` : ''}${flag}`)}</text>`,
        );
      } else {
        const note = noteOf(r, m.reference);
        body.push(`<text x="${left}" y="${y + 13}" fill="#888">${esc(note.length > 110 ? `${note.slice(0, 107)}...` : note)}</text>`);
      }
      y += rowH;
    }
    y += 8;
  }
  const height = y + 10;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  out.push(`<text x="8" y="20" font-size="15" font-weight="bold">${esc(title)}</text>`);
  out.push(`<text x="8" y="38" fill="#555">median ms per invoke, log scale; one process per model, same inputs for every runtime</text>`);
  for (let d = lo; d <= hi * 1.0001; d *= 10) {
    const gx = x(d).toFixed(1);
    out.push(`<line x1="${gx}" y1="46" x2="${gx}" y2="${height - 8}" stroke="#ddd"/>`);
    out.push(
      `<text x="${gx}" y="52" fill="#777" font-size="10" text-anchor="middle">${d >= 1 ? d.toFixed(0) : String(+d.toPrecision(1))} ms</text>`,
    );
  }
  out.push(...body, '</svg>');
  return `${out.join('\n')}\n`;
}
