/**
 * Exact search for small buffer sets (no in-place pairs). Every plan can be compacted by placing its
 * buffers first-fit in the order of their offsets (each lands at or below its old offset), and repeating
 * that reaches a plan that first-fit reproduces from its own (offset, index) order. So it is enough to
 * search the orders whose first-fit offsets come out non-decreasing (ties by increasing index): a
 * depth-first search over those, pruned with the bound "each remaining buffer ends at or above
 * max(current offset, its first-fit offset now) + its size" (first-fit offsets only grow as buffers are
 * added), finds a minimum-head plan when it completes within its budget.
 */
import type { SearchState } from './search-common.js';

/** Result of {@link branchAndBound}: whether the search space was exhausted (the best plan is optimal). */
export interface ExactSearchResult {
  complete: boolean;
  nodes: number;
}

/** Runs the exact search, improving `state`'s best plan. Requires a table without in-place pairs. */
export function branchAndBound(state: SearchState): ExactSearchResult {
  const { table, placement, online } = state;
  const n = table.count;
  const m = online.length;
  const size = table.size;
  // Children are tried largest first: good plans are found early and tighten the bound.
  const cands = Array.from(online).sort((a, b) => size[b]! - size[a]! || a - b);
  const used = new Uint8Array(n);
  const fit = new Float64Array((m + 1) * n);
  const order = new Int32Array(m);
  let nodes = 0;
  let aborted = false;

  state.placeFixed();
  let fixedHead = 0;
  for (let k = 0; k < state.fixed.length; k++) {
    const end = state.fixedOffsets[k]! + size[state.fixed[k]!]!;
    if (end > fixedHead) fixedHead = end;
  }

  const dfs = (depth: number, lastOff: number, lastIdx: number, curMax: number): void => {
    if (depth === m) {
      if (curMax < state.bestHead) state.offer(curMax, order, 'exact');
      return;
    }
    nodes++;
    placement.work += m;
    if (state.exhausted()) {
      if (state.bestHead > state.lowerBound) aborted = true;
      return;
    }
    const base = depth * n;
    let bound = curMax;
    for (let c = 0; c < m; c++) {
      const q = cands[c]!;
      if (used[q]) continue;
      const f = placement.firstFit(q);
      fit[base + q] = f;
      const end = (f > lastOff ? f : lastOff) + size[q]!;
      if (end > bound) bound = end;
    }
    if (bound >= state.bestHead) return;
    for (let c = 0; c < m; c++) {
      const q = cands[c]!;
      if (used[q]) continue;
      const off = fit[base + q]!;
      if (off < lastOff || (off === lastOff && q < lastIdx)) continue;
      const end = off + size[q]!;
      const nextMax = end > curMax ? end : curMax;
      if (nextMax >= state.bestHead) continue;
      used[q] = 1;
      order[depth] = q;
      placement.place(q, off);
      dfs(depth + 1, off, q, nextMax);
      placement.remove(q);
      used[q] = 0;
      if (aborted || state.bestHead <= state.lowerBound) return;
    }
  };
  dfs(0, 0, -1, fixedHead);
  return { complete: !aborted, nodes };
}
