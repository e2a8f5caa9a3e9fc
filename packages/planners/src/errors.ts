/**
 * Typed planner errors. All extend core's `PlannerError`, so callers can catch that one class; each carries
 * the numbers a user needs (buffer indices, ids, offsets, sizes, lifetimes) as fields and in its message.
 */
import { PlannerError, type BufferRequirement } from '@micrort/core';

/** A buffer as named in an error: where it is in the requirement list and what it is. */
export interface BufferRef {
  /** Index in the requirement list handed to the planner. */
  index: number;
  kind: 'tensor' | 'scratch';
  /** Tensor index or scratch-buffer index. */
  id: number;
  label?: string;
  size: number;
  firstUsed: number;
  lastUsed: number;
  /** Offset the buffer was given (or asked for, for offline buffers). */
  offset: number;
}

/** Builds a {@link BufferRef} for buffer `index` placed at `offset`. */
export function bufferRef(buffers: readonly BufferRequirement[], index: number, offset: number): BufferRef {
  const b = buffers[index]!;
  const ref: BufferRef = {
    index,
    kind: b.kind,
    id: b.id,
    size: b.size,
    firstUsed: b.firstUsed,
    lastUsed: b.lastUsed,
    offset,
  };
  if (b.label !== undefined) ref.label = b.label;
  return ref;
}

/** Human-readable description of a buffer: `buffer #3 (tensor 7 "conv1/out") size 64 at offset 128, steps 2..4`. */
export function describeBuffer(ref: BufferRef): string {
  const name = ref.label !== undefined ? ` "${ref.label}"` : '';
  return (
    `buffer #${ref.index} (${ref.kind} ${ref.id}${name}) size ${ref.size} at offset ${ref.offset}, ` +
    `steps ${ref.firstUsed}..${ref.lastUsed}`
  );
}

/** Two buffers that are alive at the same step share bytes of the arena. */
export class PlanOverlapError extends PlannerError {
  constructor(
    readonly a: BufferRef,
    readonly b: BufferRef,
    /** `offline` when both offsets came from an offline plan, else `plan`. */
    readonly source: 'offline' | 'plan' = 'plan',
  ) {
    const lo = Math.max(a.offset, b.offset);
    const hi = Math.min(a.offset + a.size, b.offset + b.size);
    const firstStep = Math.max(a.firstUsed, b.firstUsed);
    const lastStep = Math.min(a.lastUsed, b.lastUsed);
    super(
      `${source === 'offline' ? 'offline plan' : 'memory plan'} overlap: ${describeBuffer(a)} and ${describeBuffer(b)} ` +
        `share bytes [${lo}, ${hi}) while both alive at steps ${firstStep}..${lastStep}`,
    );
  }
}

/** An offset is not a multiple of the arena alignment (or is negative / not an integer). */
export class PlanOffsetError extends PlannerError {
  constructor(
    readonly buffer: BufferRef,
    readonly alignment: number,
    readonly reason: 'misaligned' | 'negative' | 'not-integer',
  ) {
    super(
      reason === 'misaligned'
        ? `${describeBuffer(buffer)}: offset ${buffer.offset} is not a multiple of the alignment ${alignment}`
        : reason === 'negative'
          ? `${describeBuffer(buffer)}: offset ${buffer.offset} is negative`
          : `${describeBuffer(buffer)}: offset ${buffer.offset} is not an integer`,
    );
  }
}

/** The plan's shape does not match the requirements (offset count, head size). */
export class PlanShapeError extends PlannerError {
  constructor(
    readonly detail: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`${detail}: expected ${expected}, got ${actual}`);
  }
}

/** A buffer requirement or plan option the planners cannot work with. */
export class InvalidRequirementError extends PlannerError {
  constructor(
    /** Index of the offending requirement, or -1 for a bad option. */
    readonly index: number,
    readonly field: string,
    readonly value: unknown,
    detail: string,
  ) {
    super(
      index >= 0
        ? `buffer requirement #${index}: ${field} = ${String(value)} ${detail}`
        : `plan option ${field} = ${String(value)} ${detail}`,
    );
  }
}

/** `createPlanner` was given a name no planner is registered under. */
export class UnknownPlannerError extends PlannerError {
  constructor(
    readonly requested: string,
    readonly validNames: readonly string[],
  ) {
    super(`unknown memory planner "${requested}"; valid names: ${validNames.join(', ')}`);
  }
}
