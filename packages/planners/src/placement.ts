/**
 * An incremental placement: the buffers placed so far, kept in arena-offset order exactly like TFLM's
 * GreedyMemoryPlanner keeps its `buffers_sorted_by_offset_` list (a new entry goes after every entry with
 * an offset <= its own), plus TFLM's first-gap search. Used by the greedy, offline and optimal planners.
 */
import { alignUp, isAliasPair, type BufferTable } from './plan-common.js';

export class Placement {
  /** Offset of each buffer, -1 while unplaced. */
  readonly offsets: Float64Array;
  /** Placed buffer indices in offset order. */
  private readonly order: Int32Array;
  private placed = 0;
  /** Reverse in-place links: first buffer that may alias buffer i, then the next one, -1 terminated. */
  private readonly aliasHead: Int32Array;
  private readonly aliasNext: Int32Array;
  /** Entries scanned by {@link firstFit} since construction: a deterministic measure of work done. */
  work = 0;

  constructor(
    readonly table: BufferTable,
    readonly alignment: number,
  ) {
    const n = table.count;
    this.offsets = new Float64Array(n).fill(-1);
    this.order = new Int32Array(n);
    this.aliasHead = new Int32Array(n).fill(-1);
    this.aliasNext = new Int32Array(n).fill(-1);
    for (let i = n - 1; i >= 0; i--) {
      const p = table.aliasOf[i]!;
      if (p >= 0) {
        this.aliasNext[i] = this.aliasHead[p]!;
        this.aliasHead[p] = i;
      }
    }
  }

  /** Number of placed buffers. */
  get placedCount(): number {
    return this.placed;
  }

  /** The `k`-th placed buffer in offset order (`0 <= k < placedCount`). */
  placedAt(k: number): number {
    return this.order[k]!;
  }

  /** Forgets every placement. */
  reset(): void {
    this.offsets.fill(-1);
    this.placed = 0;
  }

  /** Records buffer `i` at `offset`, after all placed entries whose offset is <= `offset`. */
  place(i: number, offset: number): void {
    const order = this.order;
    const offsets = this.offsets;
    let lo = 0;
    let hi = this.placed;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (offsets[order[mid]!]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    order.copyWithin(lo + 1, lo, this.placed);
    order[lo] = i;
    offsets[i] = offset;
    this.placed++;
  }

  /** Removes placed buffer `i` (used when backtracking). */
  remove(i: number): void {
    const order = this.order;
    for (let k = 0; k < this.placed; k++) {
      if (order[k] === i) {
        order.copyWithin(k, k + 1, this.placed);
        this.placed--;
        this.offsets[i] = -1;
        return;
      }
    }
  }

  /**
   * Offset for buffer `i` among the placed ones. If `i` has a placed in-place partner and `i` fits exactly
   * on it, that offset. Otherwise TFLM's rule: walk the placed buffers that are alive at the same time in
   * offset order, with a candidate starting at 0 and moving past each one whose gap is too small; the first
   * gap of at least `size` (or the end) wins. The candidate is kept aligned.
   */
  firstFit(i: number): number {
    const t = this.table;
    if (t.hasAliases) {
      const shared = this.alignedPartnerOffset(i);
      if (shared >= 0) return shared;
    }
    const size = t.size[i]!;
    const first = t.first[i]!;
    const last = t.last[i]!;
    const order = this.order;
    const offsets = this.offsets;
    const align = this.alignment;
    let candidate = 0;
    let k = 0;
    for (; k < this.placed; k++) {
      const j = order[k]!;
      if (t.first[j]! > last || first > t.last[j]!) continue;
      const off = offsets[j]!;
      if (off - candidate >= size) break;
      const end = off + t.size[j]!;
      if (end > candidate) candidate = align === 1 ? end : alignUp(end, align);
    }
    this.work += k + 1;
    return candidate;
  }

  /** True when buffer `i` at `offset` collides with no placed buffer alive at the same time (empty buffers never collide). */
  fitsAt(i: number, offset: number): boolean {
    const t = this.table;
    const size = t.size[i]!;
    const first = t.first[i]!;
    const last = t.last[i]!;
    const order = this.order;
    const offsets = this.offsets;
    if (size === 0) return true;
    const end = offset + size;
    let k = 0;
    for (; k < this.placed; k++) {
      const j = order[k]!;
      const off = offsets[j]!;
      if (off >= end) break;
      if (t.first[j]! > last || first > t.last[j]!) continue;
      const sj = t.size[j]!;
      if (sj === 0 || offset >= off + sj) continue;
      if (off === offset && isAliasPair(t.aliasOf, i, j)) continue;
      this.work += k + 1;
      return false;
    }
    this.work += k + 1;
    return true;
  }

  /** Offset of a placed in-place partner of `i` where `i` fits, or -1. */
  private alignedPartnerOffset(i: number): number {
    const t = this.table;
    const p = t.aliasOf[i]!;
    if (p >= 0) {
      const off = this.offsets[p]!;
      if (off >= 0 && off % this.alignment === 0 && this.fitsAt(i, off)) return off;
    }
    for (let q = this.aliasHead[i]!; q >= 0; q = this.aliasNext[q]!) {
      const off = this.offsets[q]!;
      if (off >= 0 && off % this.alignment === 0 && this.fitsAt(i, off)) return off;
    }
    return -1;
  }

  /** Max over placed buffers of offset + size. */
  maxEnd(): number {
    const t = this.table;
    let head = 0;
    for (let k = 0; k < this.placed; k++) {
      const j = this.order[k]!;
      const end = this.offsets[j]! + t.size[j]!;
      if (end > head) head = end;
    }
    return head;
  }
}
