/**
 * `offline`: honours an offline plan (model metadata `OfflineMemoryAllocation`, TFLM's offline planner
 * path). Every buffer with `offlineOffset >= 0` goes exactly there; the others are planned online by the
 * greedy rule in the gaps around them. Unlike TFLM, which trusts the metadata, the offline offsets are
 * checked first: a misaligned offset or two offline buffers that are alive at the same step and share
 * bytes is a `PlannerError` naming both buffers.
 */
import type { BufferRequirement, MemoryPlan, MemoryPlanner, PlanOptions } from '@micrort/core';
import { bufferRef, PlanOffsetError, PlanOverlapError } from './errors.js';
import { GreedyPlanner, type GreedyPlannerOptions } from './greedy.js';
import { checkAlignment, checkRequirements, isOfflinePlanned } from './plan-common.js';
import { findOverlap, validatePlan } from './validate.js';

/**
 * Throws {@link PlanOffsetError} for an offline offset that is not a multiple of `alignment`, or
 * {@link PlanOverlapError} (source `offline`) for two offline buffers that collide.
 */
export function checkOfflineOffsets(buffers: readonly BufferRequirement[], alignment: number): void {
  const fixed: number[] = [];
  for (let i = 0; i < buffers.length; i++) {
    const b = buffers[i]!;
    if (!isOfflinePlanned(b)) continue;
    if (b.offlineOffset! % alignment !== 0) {
      throw new PlanOffsetError(bufferRef(buffers, i, b.offlineOffset!), alignment, 'misaligned');
    }
    fixed.push(i);
  }
  if (fixed.length < 2) return;
  const subset = fixed.map((i) => buffers[i]!);
  const overlap = findOverlap(
    subset,
    subset.map((b) => b.offlineOffset!),
  );
  if (overlap) {
    const a = fixed[overlap[0]]!;
    const b = fixed[overlap[1]]!;
    throw new PlanOverlapError(
      bufferRef(buffers, a, buffers[a]!.offlineOffset!),
      bufferRef(buffers, b, buffers[b]!.offlineOffset!),
      'offline',
    );
  }
}

/** Offline plan + greedy for the rest, validated. */
export class OfflinePlanner implements MemoryPlanner {
  readonly name: string = 'offline';
  private readonly online: GreedyPlanner;

  constructor(options: GreedyPlannerOptions = {}) {
    this.online = new GreedyPlanner(options);
  }

  plan(buffers: readonly BufferRequirement[], options: PlanOptions): MemoryPlan {
    checkRequirements(buffers);
    const alignment = checkAlignment(options);
    checkOfflineOffsets(buffers, alignment);
    const plan = this.online.plan(buffers, options);
    validatePlan(buffers, plan, { alignment });
    return plan;
  }
}

/** A shared {@link OfflinePlanner} instance. */
export const offline: MemoryPlanner = new OfflinePlanner();
