import { ArenaLimitError, ArenaTooSmallError, MicrortError } from '../errors.js';
import { ArenaRegion } from '../kernel/arena-region.js';
import { ARENA_ALIGNMENT, alignUp } from '../types.js';

/** Default `maxArenaBytes`: the largest arena a model may make an interpreter allocate (256 MiB). */
export const DEFAULT_MAX_ARENA_BYTES = 256 * 1024 * 1024;

/**
 * TFLM's SingleArenaBufferAllocator over one ArrayBuffer. Five positions, all byte offsets into the
 * buffer: `bufferHead` (0) ≤ `head` ≤ `temp` ≤ `tail` ≤ `bufferTail` (size).
 *
 * - The head section [0, head) holds the planned, non-persistent buffers; its size is set once by
 *   `setHeadSize` after memory planning.
 * - Temp allocations grow up from `head` and are released together by `resetTempAllocations`.
 * - Persistent allocations grow down from the tail and live until the allocator is dropped.
 *
 * Overflow does not throw at once: the allocator keeps counting (so the exact size that would fit is
 * known) and hands out memory from a side buffer; `overflow` records the first failing request and
 * `checkFits()` throws an ArenaTooSmallError naming requested, available and missing bytes and the arena
 * size that would fit. Kernels therefore always get usable memory during init/prepare.
 *
 * `limitBytes` bounds what a model can make the allocator reserve, side buffers included: a request that
 * would bring the required arena size over it throws ArenaLimitError before anything is allocated.
 */
export class SingleArenaBufferAllocator {
  readonly buffer: ArrayBuffer;
  readonly size: number;
  private headPos = 0;
  private tempPos = 0;
  /** Virtual tail position; negative or below head/temp when the arena overflowed. */
  private tailPos: number;
  private tempHighWater = 0;
  /** The first request that did not fit, if any. */
  overflow: { what: string; requested: number; available: number } | null = null;

  constructor(
    bufferOrSize: ArrayBuffer | number,
    /** Largest arena a model may require (see the class comment). */
    readonly limitBytes: number = DEFAULT_MAX_ARENA_BYTES,
  ) {
    if (typeof bufferOrSize === 'number') {
      if (!Number.isInteger(bufferOrSize) || bufferOrSize < 0)
        throw new MicrortError(`arena size must be a non-negative integer number of bytes, got ${bufferOrSize}`);
      if (bufferOrSize > limitBytes) throw new ArenaLimitError('the arena buffer', bufferOrSize, bufferOrSize, limitBytes);
      this.buffer = new ArrayBuffer(bufferOrSize - (bufferOrSize % ARENA_ALIGNMENT));
    } else {
      this.buffer = bufferOrSize;
    }
    // Only whole 16-byte blocks are usable, so every region stays aligned.
    this.size = this.buffer.byteLength - (this.buffer.byteLength % ARENA_ALIGNMENT);
    this.tailPos = this.size;
  }

  /** Bytes of the head section (planned buffers). */
  get headBytes(): number {
    return this.headPos;
  }
  /** Bytes allocated persistently from the tail. */
  get tailBytes(): number {
    return this.size - this.tailPos;
  }
  /** Largest temp usage seen, measured from the head. */
  get tempHighWaterBytes(): number {
    return this.tempHighWater;
  }
  /** Bytes between the end of temp allocations and the tail (negative once overflowed). */
  get availableBytes(): number {
    return this.tailPos - Math.max(this.headPos, this.tempPos);
  }
  /** The arena size that holds everything allocated so far: max(head, temp peak) + tail. */
  get requiredBytes(): number {
    return Math.max(this.headPos, this.headPos + this.tempHighWater) + this.tailBytes;
  }
  /** head + tail, as TFLM's arena_used_bytes() once temp allocations are released. */
  get usedBytes(): number {
    return Math.max(this.headPos, this.tempPos) + this.tailBytes;
  }

  /** Allocates `bytes` from the tail (rounded up to 16 bytes). */
  allocatePersistent(bytes: number, what: string): ArenaRegion {
    const size = alignUp(Math.max(0, bytes));
    const available = this.availableBytes;
    this.checkLimit(what, size, this.requiredBytes + size);
    this.tailPos -= size;
    if (size > available || this.overflow) {
      this.noteOverflow(what, size, available);
      return new ArenaRegion(new ArrayBuffer(size), 0, bytes);
    }
    return new ArenaRegion(this.buffer, this.tailPos, bytes);
  }

  /** Allocates `bytes` of temp memory above the head (rounded up to 16 bytes). */
  allocateTemp(bytes: number, what: string): ArenaRegion {
    const size = alignUp(Math.max(0, bytes));
    const start = Math.max(this.headPos, this.tempPos);
    const available = this.tailPos - start;
    this.checkLimit(what, size, start + size + this.tailBytes);
    this.tempPos = start + size;
    this.tempHighWater = Math.max(this.tempHighWater, this.tempPos - this.headPos);
    if (size > available || this.overflow) {
      this.noteOverflow(what, size, available);
      return new ArenaRegion(new ArrayBuffer(size), 0, bytes);
    }
    return new ArenaRegion(this.buffer, start, bytes);
  }

  /** Releases every temp allocation (TFLM ResetTempAllocations). */
  resetTempAllocations(): void {
    this.tempPos = this.headPos;
  }

  /** Sets the head section's size (TFLM ResizeBuffer/SetHeadBufferSize); temp must be empty. */
  setHeadSize(bytes: number): void {
    const size = alignUp(bytes);
    if (this.tempPos > this.headPos)
      throw new MicrortError(`setHeadSize: ${this.tempPos - this.headPos} bytes of temp allocations are still outstanding`);
    const available = this.tailPos;
    this.checkLimit('planned head (activations and scratch buffers)', size, size + this.tailBytes);
    this.headPos = size;
    this.tempPos = size;
    if (size > available) this.noteOverflow('planned head (activations and scratch buffers)', size, Math.max(0, available));
  }

  /** Throws ArenaTooSmallError if anything did not fit. */
  checkFits(): void {
    if (this.overflow) {
      const o = this.overflow;
      throw new ArenaTooSmallError(o.what, o.requested, Math.max(0, o.available), this.size, this.requiredBytes);
    }
  }

  /** Throws ArenaLimitError when `required` (the arena size this request implies) is over the limit. */
  private checkLimit(what: string, requested: number, required: number): void {
    if (required > Math.max(this.limitBytes, this.size)) throw new ArenaLimitError(what, requested, required, Math.max(this.limitBytes, this.size));
  }

  private noteOverflow(what: string, requested: number, available: number): void {
    if (!this.overflow) this.overflow = { what, requested, available };
  }
}
