/**
 * `greedy`: TFLM's GreedyMemoryPlanner. Offline-planned buffers are taken first, in request order, at their
 * fixed offsets; the online buffers follow in descending size order (TFLM's stable bubble sort over the
 * buffers listed from the last request to the first, so of two equal sizes the later request goes first),
 * each placed in the first gap among the already placed buffers alive at the same time. On the same
 * buffers (sizes already aligned) it gives TFLM's offsets and head size.
 */
import type { BufferRequirement, MemoryPlan, MemoryPlanner, PlanOptions } from '@micrort/core';
import { buildTable, checkAlignment, checkRequirements, toMemoryPlan, type BufferTable } from './plan-common.js';
import { Placement } from './placement.js';

/** Options of {@link GreedyPlanner}. */
export interface GreedyPlannerOptions {
  /**
   * Honour `BufferRequirement.inPlaceOf` (an output takes its dying input's offset when it fits there).
   * TFLM has no in-place planning; with no `inPlaceOf` set the plan is TFLM's either way. With in-place
   * pairs the planner also plans without them and keeps the smaller head (ties: the in-place plan), so
   * allowing sharing never makes greedy's head larger. Default true.
   */
  inPlace?: boolean;
}

/**
 * TFLM's placement order: offline buffers first (request order), then online buffers by size descending,
 * equal sizes latest request first.
 */
export function greedyOrder(table: BufferTable): Int32Array {
  const order = new Int32Array(table.count);
  let head = 0;
  const online: number[] = [];
  for (let i = 0; i < table.count; i++) {
    if (table.offline[i]! >= 0) order[head++] = i;
  }
  for (let i = table.count - 1; i >= 0; i--) {
    if (table.offline[i]! < 0) online.push(i);
  }
  const size = table.size;
  online.sort((a, b) => size[b]! - size[a]!); // stable: keeps the reversed request order among equals
  for (let k = 0; k < online.length; k++) order[head + k] = online[k]!;
  return order;
}

/**
 * Places the buffers in `order` (offline ones at their fixed offset, the others first-fit) into an empty
 * placement.
 */
export function placeInOrder(placement: Placement, order: Int32Array): void {
  const offline = placement.table.offline;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const fixed = offline[i]!;
    placement.place(i, fixed >= 0 ? fixed : placement.firstFit(i));
  }
}

/** Greedy placement of every buffer of `table`. */
function placeAll(table: BufferTable, alignment: number): MemoryPlan {
  const placement = new Placement(table, alignment);
  placeInOrder(placement, greedyOrder(table));
  return toMemoryPlan(table.size, placement.offsets, table.count);
}

/** TFLM's GreedyMemoryPlanner as a pure planner. */
export class GreedyPlanner implements MemoryPlanner {
  readonly name: string = 'greedy';
  private readonly inPlace: boolean;

  constructor(options: GreedyPlannerOptions = {}) {
    this.inPlace = options.inPlace ?? true;
  }

  plan(buffers: readonly BufferRequirement[], options: PlanOptions): MemoryPlan {
    checkRequirements(buffers);
    const alignment = checkAlignment(options);
    const table = buildTable(buffers, this.inPlace);
    const plan = placeAll(table, alignment);
    if (!table.hasAliases) return plan;
    // Sharing is a permission: in TFLM's size order an output that takes its input's offset can push a
    // later, smaller buffer into a worse gap (e.g. the audio preprocessor: 3,056 instead of 3,040 bytes).
    const plain = placeAll(buildTable(buffers, false), alignment);
    return plain.headBytes < plan.headBytes ? plain : plan;
  }
}

/** A shared {@link GreedyPlanner} instance. */
export const greedy: MemoryPlanner = new GreedyPlanner();
