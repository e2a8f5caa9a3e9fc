/** The text table of a benchmark run. */
import type { ModelResult, RuntimeResult } from './harness.js';

/** Milliseconds with 3 significant digits (at least 3 decimals below 1 ms). */
export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(ms >= 0.1 ? 3 : 4);
}

/** A max |Δ|: 0, an integer step count, or a float in exponent form. */
export function formatDiff(d: number | null | undefined): string {
  if (d === null || d === undefined) return '-';
  if (d === 0) return '0';
  if (!Number.isFinite(d)) return 'NaN';
  return Number.isInteger(d) ? String(d) : d.toExponential(1);
}

/** The median of `r` over the baseline's, or null when either has none. */
export function ratioTo(r: RuntimeResult, baseline: RuntimeResult | undefined): number | null {
  return r.timing && baseline?.timing ? r.timing.medianMs / baseline.timing.medianMs : null;
}

/** The note column: why a runtime has no time, or how its outputs compare (and the share of MACs a kernel package served). */
export function noteOf(r: RuntimeResult, reference: string | null): string {
  const note = outputNote(r, reference);
  if (r.macShare === undefined || r.macShare === null || r.status !== 'ok') return note;
  const share = `${r.runtime.replace(/^micrort (\S+).*$/, 'ops-$1')} served ${(100 * r.macShare).toFixed(r.macShare > 0.999 && r.macShare < 1 ? 2 : 0)}% of MACs`;
  return note ? `${note}; ${share}` : share;
}

function outputNote(r: RuntimeResult, reference: string | null): string {
  if (r.status === 'unavailable') return `unavailable: ${r.error}`;
  if (r.status === 'refused') return `${r.runtime.startsWith('micrort') ? 'not runnable yet' : 'refused'}: ${r.error}`;
  if (!r.agreement) return r.runtime === reference ? 'reference outputs' : '';
  const a = r.agreement;
  switch (a.verdict) {
    case 'exact':
      return `outputs = ${reference}`;
    case 'close':
      return `outputs ≈ ${reference}`;
    case 'rounding':
      return `int8 rounding differs from ${reference} (mean ${(a.meanAbsDiff ?? 0).toFixed(2)} steps): TFLite's optimized kernels`;
    case 'zeros':
      return `ALL-ZERO outputs (a missing op?): time not comparable`;
    case 'mismatch':
      return `outputs differ in shape: ${a.detail}`;
    default:
      return `OUTPUTS DIFFER from ${reference}: time not comparable`;
  }
}

/** Rows of the table (model, runtime, median, min, ratio, max |Δ|, note). */
export function tableRows(results: readonly ModelResult[], baselineId: string): string[][] {
  const rows: string[][] = [];
  for (const m of results) {
    const baseline = m.runtimes.find((r) => r.runtime === baselineId && r.status === 'ok');
    m.runtimes.forEach((r, i) => {
      const ratio = ratioTo(r, baseline);
      rows.push([
        i === 0 ? m.model : '',
        r.runtime,
        r.timing ? formatMs(r.timing.medianMs) : '-',
        r.timing ? formatMs(r.timing.minMs) : '-',
        ratio === null ? '-' : `${ratio.toFixed(2)}x`,
        r.agreement ? formatDiff(r.agreement.maxAbsDiff) : '-',
        noteOf(r, m.reference),
      ]);
    });
  }
  return rows;
}

/** The table as text lines. */
export function formatTable(results: readonly ModelResult[], baselineId: string): string[] {
  const header = ['model', 'runtime', 'median ms', 'min ms', `× ${baselineId}`, 'max |Δ|', 'note'];
  const rows = tableRows(results, baselineId);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
