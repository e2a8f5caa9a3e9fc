/**
 * One-line descriptions of what a schedule did (scheduleReport(interpreter)), shared by run, bench and
 * plan: the patch stage and its tile grid with the extra multiply-accumulates, the in-place nodes.
 */
import type { ScheduleReport } from '@micrort/schedules';

/** `+38.2 M MACs (12.7 %)`. */
export function formatMacs(extra: number, model: number): string {
  const pct = model > 0 ? ` (${((100 * extra) / model).toFixed(1)} %)` : '';
  return `+${(extra / 1e6).toFixed(2)} M MACs${pct}`;
}

/** The patch part: `nodes 1-18 (…) in 4x4 tiles of 7x7 pixels, +38.23 M MACs (12.7 %)`, or why none. */
export function patchSummary(r: ScheduleReport): string | null {
  const p = r.patch;
  if (!p) return null;
  if (!p.grid) return p.description;
  return `${p.description} in ${p.grid.rows}x${p.grid.cols} tiles of ${p.grid.tileH}x${p.grid.tileW} output pixels, ${p.buffers.length} tile buffers, ${formatMacs(p.macs.extra, p.macs.model)}`;
}

/** The in-place part: `13 nodes run their in-place variant`. */
export function inPlaceSummary(r: ScheduleReport): string | null {
  if (!r.inPlace) return null;
  const n = r.inPlace.length;
  return `${n} node${n === 1 ? '' : 's'} run${n === 1 ? 's' : ''} ${n === 1 ? 'its' : 'their'} in-place variant${n === 1 ? '' : 's'}`;
}

/** `schedule patch+inplace: …; …` (null for the normal schedule). */
export function scheduleSummary(r: ScheduleReport): string | null {
  if (r.name === 'normal') return null;
  const parts = [patchSummary(r), inPlaceSummary(r)].filter((x): x is string => x !== null);
  return `schedule ${r.name}: ${parts.join('; ')}`;
}
