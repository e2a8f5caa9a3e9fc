/**
 * Randomized local search over placement orders (first-fit evaluation), for buffer sets too large for the
 * exact search. Moves: take a buffer that ends at the current head and move it earlier in the order, swap
 * two buffers, or move one buffer to another position. A move is kept when the head does not grow
 * (sideways moves let the search cross plateaus); after a run of moves without improvement the search
 * restarts from the best order with a few random swaps. Deterministic for a given seed and work budget.
 */
import { Prng } from './prng.js';
import type { SearchState } from './search-common.js';

/** Runs the local search until the state's budget is spent or the lower bound is reached. */
export function localSearch(state: SearchState, seed: number): number {
  const m = state.online.length;
  if (m < 2) return 0;
  const rng = new Prng(seed);
  const size = state.table.size;
  let cur = Int32Array.from(state.bestOrder);
  let cand = new Int32Array(m);
  const curOffsets = new Float64Array(state.table.count);
  let curHead = state.evaluate(cur);
  curOffsets.set(state.placement.offsets);
  state.offer(curHead, cur, 'local-search');
  const critical = new Int32Array(m);
  const stallLimit = 30 + 2 * m;
  let stall = 0;
  let moves = 0;
  while (!state.exhausted()) {
    moves++;
    cand.set(cur);
    const r = rng.next();
    if (r < 0.45) {
      // Move a buffer that reaches the head to an earlier position.
      let count = 0;
      for (let k = 0; k < m; k++) {
        const i = cur[k]!;
        if (curOffsets[i]! + size[i]! === curHead) critical[count++] = k;
      }
      const from = count > 0 ? critical[rng.int(count)]! : rng.int(m);
      if (from === 0) continue;
      moveElement(cand, from, rng.int(from));
    } else if (r < 0.75) {
      const a = rng.int(m);
      const b = rng.int(m);
      if (a === b) continue;
      const t = cand[a]!;
      cand[a] = cand[b]!;
      cand[b] = t;
    } else {
      const a = rng.int(m);
      const b = rng.int(m);
      if (a === b) continue;
      moveElement(cand, a, b);
    }
    const head = state.evaluate(cand);
    if (head <= curHead) {
      if (head < curHead) stall = 0;
      else stall++;
      const t = cur;
      cur = cand;
      cand = t;
      curHead = head;
      curOffsets.set(state.placement.offsets);
      if (state.offer(head, cur, 'local-search')) stall = 0;
    } else {
      stall++;
    }
    if (stall > stallLimit) {
      // Restart from the best order with a small random kick.
      cur.set(state.bestOrder);
      const kicks = 1 + rng.int(3);
      for (let k = 0; k < kicks; k++) {
        const a = rng.int(m);
        const b = rng.int(m);
        const t = cur[a]!;
        cur[a] = cur[b]!;
        cur[b] = t;
      }
      curHead = state.evaluate(cur);
      curOffsets.set(state.placement.offsets);
      state.offer(curHead, cur, 'local-search');
      stall = 0;
    }
  }
  return moves;
}

/** Moves `order[from]` to index `to`, shifting the elements in between. */
function moveElement(order: Int32Array, from: number, to: number): void {
  const v = order[from]!;
  if (from > to) order.copyWithin(to + 1, to, from);
  else order.copyWithin(from, from + 1, to + 1);
  order[to] = v;
}
