/**
 * Independent references for the search tests, written without the planners' code: exhaustive enumeration
 * of offsets, and the minimum over all placement orders of a lowest-feasible placement.
 */
import type { BufferRequirement } from '@micrort/core';

const fixedOffset = (b: BufferRequirement): number => (b.offlineOffset !== undefined && b.offlineOffset >= 0 ? b.offlineOffset : -1);
const liveTogether = (a: BufferRequirement, b: BufferRequirement): boolean => !(a.lastUsed < b.firstUsed || b.lastUsed < a.firstUsed);
const apart = (aOff: number, a: BufferRequirement, bOff: number, b: BufferRequirement): boolean =>
  a.size === 0 || b.size === 0 || aOff + a.size <= bOff || bOff + b.size <= aOff;

/** The lowest aligned offset where buffer `i` collides with no placed buffer alive at the same time. */
function lowestFeasible(buffers: readonly BufferRequirement[], placed: number[], offsets: number[], i: number, align: number): number {
  const b = buffers[i]!;
  const live = placed.filter((j) => liveTogether(buffers[j]!, b));
  const candidates = [0, ...live.map((j) => Math.ceil((offsets[j]! + buffers[j]!.size) / align) * align)].sort((x, y) => x - y);
  for (const c of candidates) {
    if (live.every((j) => apart(c, b, offsets[j]!, buffers[j]!))) return c;
  }
  throw new Error('unreachable: the largest end is always feasible');
}

/**
 * Minimum head over all placement orders of the online buffers, each placed at its lowest feasible offset
 * (offline buffers fixed first). Equals the optimum: placing the buffers of any plan in offset order this
 * way moves none of them up.
 */
export function bruteForceHead(buffers: readonly BufferRequirement[], align: number): number {
  const fixed = buffers.map((_, i) => i).filter((i) => fixedOffset(buffers[i]!) >= 0);
  const online = buffers.map((_, i) => i).filter((i) => fixedOffset(buffers[i]!) < 0);
  const offsets = buffers.map((b) => Math.max(0, fixedOffset(b)));
  const placed = [...fixed];
  let best = Infinity;
  // Depth-first over orders, placing on the way down; a prefix whose head is already >= best is cut.
  const recurse = (head: number): void => {
    if (head >= best) return;
    if (placed.length === buffers.length) {
      best = head;
      return;
    }
    for (const i of online) {
      if (placed.includes(i)) continue;
      offsets[i] = lowestFeasible(buffers, placed, offsets, i, align);
      placed.push(i);
      recurse(Math.max(head, offsets[i]! + buffers[i]!.size));
      placed.pop();
    }
  };
  recurse(Math.max(0, ...fixed.map((i) => offsets[i]! + buffers[i]!.size)));
  return best;
}

/** Minimum head by trying every aligned offset of every online buffer (tiny inputs only). */
export function exhaustiveHead(buffers: readonly BufferRequirement[], align: number): number {
  const n = buffers.length;
  const offsets = buffers.map((b) => Math.max(0, fixedOffset(b)));
  let best = buffers.reduce((sum, b) => sum + Math.ceil(b.size / align) * align, 0) + Math.max(0, ...offsets) + 1;
  const recurse = (i: number, head: number): void => {
    if (head >= best) return;
    if (i === n) {
      best = head;
      return;
    }
    const b = buffers[i]!;
    const choices = fixedOffset(b) >= 0 ? [fixedOffset(b)] : [];
    if (choices.length === 0) for (let off = 0; off + b.size < best; off += align) choices.push(off);
    for (const off of choices) {
      let ok = true;
      for (let j = 0; j < i && ok; j++) ok = !liveTogether(b, buffers[j]!) || apart(off, b, offsets[j]!, buffers[j]!);
      if (!ok) continue;
      offsets[i] = off;
      recurse(i + 1, Math.max(head, off + b.size));
    }
  };
  recurse(0, 0);
  return best;
}
