/**
 * `linear`: TFLM's LinearMemoryPlanner. No reuse at all: each buffer starts where the previous one (in
 * request order) ended. Like TFLM's, it ignores offline offsets and lifetimes; useful as a baseline and
 * for debugging memory corruption.
 */
import type { BufferRequirement, MemoryPlan, MemoryPlanner, PlanOptions } from '@micrort/core';
import { alignUp, checkAlignment, checkRequirements, toMemoryPlan } from './plan-common.js';

/** TFLM's LinearMemoryPlanner as a pure planner. */
export class LinearPlanner implements MemoryPlanner {
  readonly name: string = 'linear';

  plan(buffers: readonly BufferRequirement[], options: PlanOptions): MemoryPlan {
    checkRequirements(buffers);
    const alignment = checkAlignment(options);
    const n = buffers.length;
    const size = new Float64Array(n);
    const offsets = new Float64Array(n);
    let next = 0;
    for (let i = 0; i < n; i++) {
      size[i] = buffers[i]!.size;
      offsets[i] = alignUp(next, alignment);
      next = offsets[i]! + size[i]!;
    }
    return toMemoryPlan(size, offsets, n);
  }
}

/** A shared {@link LinearPlanner} instance. */
export const linear: MemoryPlanner = new LinearPlanner();
