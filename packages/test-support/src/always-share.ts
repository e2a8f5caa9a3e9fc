/**
 * A test planner that shares every in-place pair the allocator permits (greedy may decline a pair when
 * the plan without it is smaller), so that tests run each in-place kernel on really aliased buffers.
 * Each chain of pairs is planned as one buffer (its first input, widened to the chain's lifetime and
 * largest size) with greedy; every output of the chain then goes to that offset. The interpreter
 * validates the plan like any other.
 */
import { inPlacePartners, type BufferRequirement, type MemoryPlan, type MemoryPlanner } from '@micrort/core';
import { createPlanner } from '@micrort/planners';

export class AlwaysSharePlanner implements MemoryPlanner {
  readonly name = 'always-share';
  plan(buffers: readonly BufferRequirement[], options: { alignment: number }): MemoryPlan {
    const partner = inPlacePartners(buffers);
    const merged = buffers.map((b) => ({ ...b, inPlaceOf: undefined }));
    const root = (i: number): number => (partner[i]! >= 0 ? root(partner[i]!) : i);
    buffers.forEach((b, i) => {
      if (partner[i]! < 0) return;
      const r = merged[root(i)]!;
      r.lastUsed = Math.max(r.lastUsed, b.lastUsed);
      r.size = Math.max(r.size, b.size);
    });
    const kept = buffers.map((_, i) => i).filter((i) => partner[i]! < 0);
    const base = createPlanner('greedy').plan(
      kept.map((i) => merged[i]!),
      options,
    );
    const offsets = new Int32Array(buffers.length);
    kept.forEach((i, k) => (offsets[i] = base.offsets[k]!));
    buffers.forEach((_, i) => partner[i]! >= 0 && (offsets[i] = offsets[root(i)]!));
    return { offsets, headBytes: Math.max(base.headBytes, ...buffers.map((b, i) => offsets[i]! + b.size)) };
  }
}
