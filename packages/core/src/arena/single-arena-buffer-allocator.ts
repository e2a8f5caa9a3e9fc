import { ArenaLimitError, ArenaTooSmallError, MicrortError } from '../errors.js';
import { ArenaRegion } from '../kernel/arena-region.js';
import { ARENA_ALIGNMENT, alignUp } from '../types.js';

/** Default `maxArenaBytes`: the largest arena a model may make an interpreter allocate (256 MiB). */
export const DEFAULT_MAX_ARENA_BYTES = 256 * 1024 * 1024;

/**
 * Supplies the memory an arena lives in, for a kernel package that must see the arena in memory it owns
 * (ops-wasm hands out the buffer of a `WebAssembly.Memory`, so its kernels read and write tensors in
 * place). Pass it as `InterpreterOptions.arenaBacking`.
 *
 * Contract:
 * - `allocate(bytes)` is called once per interpreter, with the final arena size (a multiple of 16: the
 *   requested size, or the size `'auto'` measured); the measuring pass of `'auto'` does not call it.
 * - It returns a fresh `ArrayBuffer` (not shared with another interpreter) of at least `bytes` bytes;
 *   the arena is its first `bytes` bytes: offsets 0 … bytes-1, so every tensor view, persistent and
 *   scratch region lies there. Bytes beyond belong to the backing and are never touched. A
 *   `SharedArrayBuffer` is accepted too (ops-wasm's threads share the arena's memory with workers).
 * - The buffer must stay attached for the interpreter's life: never grown (growing a
 *   `WebAssembly.Memory` detaches its old buffer and would leave every view empty), never transferred.
 * - It may throw (e.g. no memory); the error propagates from `allocateTensors()`.
 */
export interface ArenaBacking {
  /** Short name shown in messages, e.g. `@micrort/ops-wasm linear memory`. */
  readonly name: string;
  /** Returns the arena's backing buffer, at least `bytes` bytes long (see the interface comment). */
  allocate(bytes: number): ArrayBuffer | SharedArrayBuffer;
}

/** Whether `b` is an ArrayBuffer or a SharedArrayBuffer (where the engine has them). */
function isBuffer(b: unknown): b is ArrayBuffer | SharedArrayBuffer {
  return b instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer);
}

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

  /**
   * `bufferOrSize`: an ArrayBuffer to use whole, or a size in bytes. With a size and a `backing`, the
   * buffer comes from `backing.allocate` and the arena is its first `size` bytes (see ArenaBacking).
   */
  constructor(
    bufferOrSize: ArrayBuffer | number,
    /** Largest arena a model may require (see the class comment). */
    readonly limitBytes: number = DEFAULT_MAX_ARENA_BYTES,
    backing?: ArenaBacking,
  ) {
    if (typeof bufferOrSize === 'number') {
      if (!Number.isInteger(bufferOrSize) || bufferOrSize < 0)
        throw new MicrortError(`arena size must be a non-negative integer number of bytes, got ${bufferOrSize}`);
      if (bufferOrSize > limitBytes) throw new ArenaLimitError('the arena buffer', bufferOrSize, bufferOrSize, limitBytes);
      const bytes = bufferOrSize - (bufferOrSize % ARENA_ALIGNMENT);
      if (backing) {
        const buffer = backing.allocate(bytes);
        if (!isBuffer(buffer) || buffer.byteLength < bytes)
          throw new MicrortError(
            `arena backing ${backing.name} returned ${isBuffer(buffer) ? `${buffer.byteLength} bytes` : 'no ArrayBuffer'}, the arena needs ${bytes}`,
          );
        // views work alike over a SharedArrayBuffer; the arena never grows, transfers or slices it
        this.buffer = buffer as ArrayBuffer;
        this.size = bytes;
        this.tailPos = bytes;
        return;
      }
      this.buffer = new ArrayBuffer(bytes);
    } else {
      if (backing)
        throw new MicrortError(`arena backing ${backing.name} applies to an arena given as a size or 'auto', not to an ArrayBuffer`);
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
    if (required > Math.max(this.limitBytes, this.size))
      throw new ArenaLimitError(what, requested, required, Math.max(this.limitBytes, this.size));
  }

  private noteOverflow(what: string, requested: number, available: number): void {
    if (!this.overflow) this.overflow = { what, requested, available };
  }
}
