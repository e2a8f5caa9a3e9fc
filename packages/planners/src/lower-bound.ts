/**
 * The lower bound on any plan's head: the largest total size of the buffers alive at one step. When an
 * in-place pair (see `buildAliasTable`) is alive together at its hand-over step, the smaller of the two may
 * lie inside the larger, so it is not counted there; without `inPlaceOf` this is exactly the max over
 * steps of the summed sizes of live buffers.
 */
import type { BufferRequirement } from '@micrort/core';
import { buildAliasTable, checkRequirements } from './plan-common.js';

/** The lower bound and the first execution step at which that many bytes must be live. */
export interface LowerBoundInfo {
  /** Max over steps of the bytes live at the step (see {@link lowerBound}). */
  bytes: number;
  /** First step where the maximum is reached; -1 with no (non-empty) buffers. */
  step: number;
}

/** Max over execution steps of the bytes that must be live at that step (0 with no buffers). */
export function lowerBound(buffers: readonly BufferRequirement[]): number {
  return lowerBoundAt(buffers).bytes;
}

/** {@link lowerBound} together with the step where it is reached (for reports: "the peak is at node n"). */
export function lowerBoundAt(buffers: readonly BufferRequirement[]): LowerBoundInfo {
  checkRequirements(buffers);
  const n = buffers.length;
  const aliasOf = buildAliasTable(buffers);
  // Events: (step, delta); a buffer adds its size at firstUsed and removes it after lastUsed.
  const steps: number[] = [];
  const deltas: number[] = [];
  for (let i = 0; i < n; i++) {
    const b = buffers[i]!;
    if (b.size === 0) continue;
    steps.push(b.firstUsed, b.lastUsed + 1);
    deltas.push(b.size, -b.size);
    const p = aliasOf[i]!;
    if (p >= 0) {
      const shared = Math.min(b.size, buffers[p]!.size);
      if (shared > 0) {
        steps.push(b.firstUsed, b.firstUsed + 1);
        deltas.push(-shared, shared);
      }
    }
  }
  const idx = steps.map((_, k) => k).sort((a, b) => steps[a]! - steps[b]!);
  let live = 0;
  let best = 0;
  let bestStep = -1;
  for (let k = 0; k < idx.length;) {
    const step = steps[idx[k]!]!;
    while (k < idx.length && steps[idx[k]!] === step) live += deltas[idx[k++]!]!;
    if (live > best) {
      best = live;
      bestStep = step;
    }
  }
  return { bytes: best, step: bestStep };
}
