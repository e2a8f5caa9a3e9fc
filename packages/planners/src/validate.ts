/**
 * Plan validation: every offset a non-negative multiple of the alignment, the head large enough, and no
 * two buffers alive at the same step sharing a byte (an in-place pair at the very same offset excepted).
 */
import { findPlanOverlap, type BufferRequirement, type MemoryPlan, type PlanOptions } from '@micrort/core';
import { bufferRef, PlanOffsetError, PlanOverlapError, PlanShapeError } from './errors.js';
import { checkAlignment, checkRequirements } from './plan-common.js';

/** Default arena alignment used when none is given (TFLM's 16 bytes). */
export const DEFAULT_ALIGNMENT = 16;

/**
 * Throws a `PlannerError` subclass if `plan` is not a valid placement of `buffers`:
 * {@link PlanShapeError} (wrong offset count, head smaller than the largest offset + size),
 * {@link PlanOffsetError} (negative, fractional or misaligned offset), or {@link PlanOverlapError}
 * naming the two colliding buffers with offsets, sizes and lifetimes.
 */
export function validatePlan(
  buffers: readonly BufferRequirement[],
  plan: MemoryPlan,
  options: Pick<PlanOptions, 'alignment'> = { alignment: DEFAULT_ALIGNMENT },
): void {
  checkRequirements(buffers);
  const alignment = checkAlignment({ alignment: options.alignment });
  const n = buffers.length;
  const offsets = plan.offsets;
  if (offsets.length !== n) throw new PlanShapeError('plan offset count', n, offsets.length);
  let head = 0;
  for (let i = 0; i < n; i++) {
    const off = offsets[i]!;
    if (!Number.isInteger(off)) throw new PlanOffsetError(bufferRef(buffers, i, off), alignment, 'not-integer');
    if (off < 0) throw new PlanOffsetError(bufferRef(buffers, i, off), alignment, 'negative');
    if (off % alignment !== 0) throw new PlanOffsetError(bufferRef(buffers, i, off), alignment, 'misaligned');
    const end = off + buffers[i]!.size;
    if (end > head) head = end;
  }
  if (!(plan.headBytes >= head)) {
    throw new PlanShapeError('plan headBytes is below the largest offset + size', head, plan.headBytes);
  }
  const overlap = findOverlap(buffers, offsets);
  if (overlap)
    throw new PlanOverlapError(bufferRef(buffers, overlap[0], offsets[overlap[0]]!), bufferRef(buffers, overlap[1], offsets[overlap[1]]!));
}

/**
 * First pair `[i, j]` of buffers alive at a common step whose byte ranges intersect, or undefined
 * (core's `findPlanOverlap`: empty buffers never collide; an in-place pair at the same offset is allowed).
 */
export function findOverlap(buffers: readonly BufferRequirement[], offsets: ArrayLike<number>): [number, number] | undefined {
  return findPlanOverlap(buffers, offsets);
}
