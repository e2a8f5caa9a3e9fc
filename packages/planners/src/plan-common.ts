/**
 * Shared helpers of the planners: input checks, the struct-of-arrays view of the requirements used by the
 * hot loops, the in-place (aliasing) rule, and conversion of internal offsets to a {@link MemoryPlan}.
 */
import { inPlacePartners, type BufferRequirement, type MemoryPlan, type PlanOptions } from '@micrort/core';
import { InvalidRequirementError, PlanShapeError } from './errors.js';

/** Largest offset or end an `Int32Array` plan can hold. */
export const MAX_PLAN_BYTES = 0x7fffffff;

/** Rounds `value` up to a multiple of `alignment` (both non-negative integers, alignment >= 1). */
export function alignUp(value: number, alignment: number): number {
  const rem = value % alignment;
  return rem === 0 ? value : value + (alignment - rem);
}

/** True when the buffer has a fixed offset from an offline plan. */
export function isOfflinePlanned(b: BufferRequirement): boolean {
  return b.offlineOffset !== undefined && b.offlineOffset >= 0;
}

/** True when the two inclusive lifetimes share at least one step. */
export function overlapsInTime(aFirst: number, aLast: number, bFirst: number, bLast: number): boolean {
  return !(aLast < bFirst || bLast < aFirst);
}

/** True when byte ranges `[aOff, aOff + aSize)` and `[bOff, bOff + bSize)` share a byte (empty ranges never do). */
export function overlapsInMemory(aOff: number, aSize: number, bOff: number, bSize: number): boolean {
  return aSize > 0 && bSize > 0 && aOff < bOff + bSize && bOff < aOff + aSize;
}

/** Checks `options.alignment` (positive integer) and returns it. */
export function checkAlignment(options: PlanOptions): number {
  const a = options.alignment;
  if (!Number.isInteger(a) || a < 1) {
    throw new InvalidRequirementError(-1, 'alignment', a, 'must be a positive integer');
  }
  return a;
}

function checkInt(index: number, field: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidRequirementError(index, field, value, `must be an integer in [${min}, ${max}]`);
  }
}

/** Validates every requirement: integer sizes and steps, `firstUsed <= lastUsed`, integer offline offsets. */
export function checkRequirements(buffers: readonly BufferRequirement[]): void {
  for (let i = 0; i < buffers.length; i++) {
    const b = buffers[i]!;
    checkInt(i, 'size', b.size, 0, MAX_PLAN_BYTES);
    checkInt(i, 'firstUsed', b.firstUsed, -0x80000000, 0x7fffffff);
    checkInt(i, 'lastUsed', b.lastUsed, -0x80000000, 0x7fffffff);
    if (b.firstUsed > b.lastUsed) {
      throw new InvalidRequirementError(i, 'lastUsed', b.lastUsed, `is before firstUsed ${b.firstUsed}`);
    }
    if (b.offlineOffset !== undefined && b.offlineOffset >= 0) {
      checkInt(i, 'offlineOffset', b.offlineOffset, 0, MAX_PLAN_BYTES);
      if (b.offlineOffset + b.size > MAX_PLAN_BYTES) {
        throw new InvalidRequirementError(i, 'offlineOffset', b.offlineOffset, `+ size ${b.size} exceeds ${MAX_PLAN_BYTES}`);
      }
    }
  }
}

/**
 * Struct-of-arrays copy of the requirements for allocation-free inner loops. `aliasOf[i]` is the index of
 * the buffer that buffer `i` may share memory with in place (see {@link buildAliasTable}), or -1.
 */
export interface BufferTable {
  readonly count: number;
  readonly size: Float64Array;
  readonly first: Int32Array;
  readonly last: Int32Array;
  /** Offline offset, or -1 when planned online. */
  readonly offline: Float64Array;
  readonly aliasOf: Int32Array;
  /** True when at least one in-place pair exists. */
  readonly hasAliases: boolean;
}

/**
 * The in-place rule: buffer `i` with `inPlaceOf = t` may share its partner's memory (same offset) when the
 * partner is the requirement of kind `tensor` with id `t` and the partner's last use is the step that
 * creates `i` (the input dies at the op that writes the output). Returns, per buffer, its partner's index
 * or -1. Requests that do not meet the rule are ignored: the buffers are then planned apart.
 */
export function buildAliasTable(buffers: readonly BufferRequirement[]): Int32Array {
  return inPlacePartners(buffers);
}

/** True when buffers `i` and `j` form an in-place pair (either direction). */
export function isAliasPair(aliasOf: Int32Array, i: number, j: number): boolean {
  return aliasOf[i] === j || aliasOf[j] === i;
}

/** Builds the {@link BufferTable} of `buffers` (after {@link checkRequirements}). */
export function buildTable(buffers: readonly BufferRequirement[], honourInPlace: boolean): BufferTable {
  const n = buffers.length;
  const size = new Float64Array(n);
  const first = new Int32Array(n);
  const last = new Int32Array(n);
  const offline = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const b = buffers[i]!;
    size[i] = b.size;
    first[i] = b.firstUsed;
    last[i] = b.lastUsed;
    offline[i] = isOfflinePlanned(b) ? b.offlineOffset! : -1;
  }
  const aliasOf = honourInPlace ? buildAliasTable(buffers) : new Int32Array(n).fill(-1);
  let hasAliases = false;
  for (let i = 0; i < n; i++) if (aliasOf[i]! >= 0) hasAliases = true;
  return { count: n, size, first, last, offline, aliasOf, hasAliases };
}

/** Head bytes of a placement: max over buffers of offset + size (0 with no buffers). */
export function headOf(size: Float64Array, offsets: Float64Array, count: number): number {
  let head = 0;
  for (let i = 0; i < count; i++) {
    const end = offsets[i]! + size[i]!;
    if (end > head) head = end;
  }
  return head;
}

/** Converts internal offsets to a {@link MemoryPlan}, refusing plans that do not fit 32-bit offsets. */
export function toMemoryPlan(size: Float64Array, offsets: Float64Array, count: number): MemoryPlan {
  const head = headOf(size, offsets, count);
  if (head > MAX_PLAN_BYTES) {
    throw new PlanShapeError('plan head exceeds the 2 GiB limit of 32-bit offsets (bytes)', MAX_PLAN_BYTES, head);
  }
  return { offsets: Int32Array.from(offsets), headBytes: head };
}
