/**
 * `bestfit`: TFLite's ArenaPlanner allocation order with SimpleMemoryArena's best-fit gap rule.
 *
 * Order (ArenaPlanner::CreateTensorAllocationVector): buffers alive for the whole run (created at the
 * first step, never freed) first, by request index; all others by size descending, equal sizes by first
 * use (allocation node), then request index (std::sort is not stable; the index makes it deterministic).
 *
 * Placement (SimpleMemoryArena::Allocate): walk the placed buffers alive at the same time in offset order;
 * each gap before one of them that can hold the buffer (at the aligned running offset) is a candidate, and
 * the smallest gap wins (a zero gap stops the walk); without any, the buffer goes after the last one.
 * The gap size is measured from the unaligned running offset, as TFLite does. Empty buffers get offset 0.
 *
 * TFLite has no offline plans; here offline-planned buffers are placed first at their fixed offsets and
 * the rest are fitted around them.
 */
import type { BufferRequirement, MemoryPlan, MemoryPlanner, PlanOptions } from '@micrort/core';
import { alignUp, buildTable, checkAlignment, checkRequirements, toMemoryPlan, type BufferTable } from './plan-common.js';
import { Placement } from './placement.js';

/** ArenaPlanner's allocation order of the online buffers (offline ones excluded). */
export function bestFitOrder(table: BufferTable): Int32Array {
  const { count, size, first, last, offline } = table;
  let minFirst = Infinity;
  let maxLast = -Infinity;
  for (let i = 0; i < count; i++) {
    if (first[i]! < minFirst) minFirst = first[i]!;
    if (last[i]! > maxLast) maxLast = last[i]!;
  }
  const wholeRun = (i: number): boolean => first[i] === minFirst && last[i] === maxLast;
  const online: number[] = [];
  for (let i = 0; i < count; i++) if (offline[i]! < 0) online.push(i);
  online.sort((a, b) => {
    const wa = wholeRun(a);
    const wb = wholeRun(b);
    if (wa || wb) return wa && wb ? a - b : wa ? -1 : 1;
    if (size[a] !== size[b]) return size[b]! - size[a]!;
    if (first[a] !== first[b]) return first[a]! - first[b]!;
    return a - b;
  });
  return Int32Array.from(online);
}

/** SimpleMemoryArena's best-fit offset for buffer `i` among the placed buffers. */
export function bestFitOffset(placement: Placement, i: number): number {
  const t = placement.table;
  const size = t.size[i]!;
  if (size === 0) return 0;
  const first = t.first[i]!;
  const last = t.last[i]!;
  const align = placement.alignment;
  let best = -1;
  let bestGap = Infinity;
  let current = 0;
  for (let k = 0; k < placement.placedCount; k++) {
    const j = placement.placedAt(k);
    if (t.last[j]! < first || t.first[j]! > last) continue;
    const off = placement.offsets[j]!;
    const aligned = alignUp(current, align);
    if (aligned + size <= off && off - aligned < bestGap) {
      best = aligned;
      bestGap = off - current;
    }
    const end = off + t.size[j]!;
    if (end > current) current = end;
    if (bestGap === 0) break;
  }
  return best >= 0 ? best : alignUp(current, align);
}

/** TFLite's ArenaPlanner + SimpleMemoryArena as a pure planner. */
export class BestFitPlanner implements MemoryPlanner {
  readonly name: string = 'bestfit';

  plan(buffers: readonly BufferRequirement[], options: PlanOptions): MemoryPlan {
    checkRequirements(buffers);
    const alignment = checkAlignment(options);
    const table = buildTable(buffers, false);
    const placement = new Placement(table, alignment);
    for (let i = 0; i < table.count; i++) {
      if (table.offline[i]! >= 0) placement.place(i, table.offline[i]!);
    }
    const order = bestFitOrder(table);
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      const off = bestFitOffset(placement, i);
      if (table.size[i]! === 0) placement.offsets[i] = off;
      else placement.place(i, off);
    }
    return toMemoryPlan(table.size, placement.offsets, table.count);
  }
}

/** A shared {@link BestFitPlanner} instance. */
export const bestfit: MemoryPlanner = new BestFitPlanner();
