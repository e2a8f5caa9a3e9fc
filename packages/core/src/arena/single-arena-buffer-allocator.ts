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
 * - `allocate(bytes)` is called once per interpreter (a multiple of 16): with the arena size for a
 *   numeric `arena`, and with the reservation (`maxArenaBytes` rounded down to 16) for `'auto'`, whose
 *   head grows up from offset 0 and whose tail grows down from the reservation's end, so only the bytes
 *   the model uses (`arenaUsage().arenaBytes`) are ever written.
 * - It returns a fresh `ArrayBuffer` (not shared with another interpreter) of at least `bytes` bytes;
 *   the arena is its first `bytes` bytes: offsets 0 … bytes-1, so every tensor view, persistent and
 *   scratch region lies there (a SharedArrayBuffer too). Bytes beyond belong to the backing, never touched.
 * - The buffer must stay attached for the interpreter's life: never grown (growing a
 *   `WebAssembly.Memory` detaches its old buffer and would leave every view empty), never transferred.
 *   Pages never written cost no memory on the platforms micrort targets (they are committed lazily).
 * - It may throw (e.g. no memory); the error propagates from `allocateTensors()`.
 */
export interface ArenaBacking {
  /** Short name shown in messages, e.g. `@micrort/ops-wasm linear memory`. */
  readonly name: string;
  /** Returns the arena's backing buffer, at least `bytes` bytes long (see the interface comment). */
  allocate(bytes: number): ArrayBuffer | SharedArrayBuffer;
}

/**
 * TFLM's SingleArenaBufferAllocator over one ArrayBuffer. Five positions, all byte offsets into the
 * buffer: `bufferHead` (0) ≤ `head` ≤ `temp` ≤ `tail` ≤ `bufferTail` (the capacity).
 *
 * - The head section [0, head) holds the planned, non-persistent buffers; its size is set once by
 *   `setHeadSize` after memory planning.
 * - Temp allocations grow up from `head` and are released together by `resetTempAllocations`.
 * - Persistent allocations grow down from the tail and live until the allocator is dropped.
 *
 * Two kinds of arena:
 * - **fixed** (`new SingleArenaBufferAllocator(size | buffer)`): the arena is the whole buffer. Overflow
 *   does not throw at once: the allocator keeps counting (so the exact size that would fit is known)
 *   and hands out memory from a side buffer; `overflow` records the first failing request and
 *   `checkFits()` throws an ArenaTooSmallError naming requested, available and missing bytes and the
 *   arena size that would fit. Kernels therefore always get usable memory during init/prepare. A fixed
 *   arena of size 0 only measures (checkModel).
 * - **reserved** (`SingleArenaBufferAllocator.reserve(limit)`, interpreter option `arena: 'auto'`): the
 *   buffer is `limitBytes` of address space, the head at its start and the tail at its end, exactly as
 *   TFLM lays out an arena bigger than the model needs. Every allocation lands in its final place the
 *   first time, so each kernel prepares once; `size` is what the model uses (head, temp peak and
 *   tail), the figure a fixed arena needs. Nothing ever overflows: a request that would pass the
 *   limit is an ArenaLimitError. The reservation is made at the first allocation (a model rejected
 *   before reserves nothing): from the backing, else a SharedArrayBuffer where the platform has one
 *   (Node; cross-origin-isolated pages), whose untouched pages cost neither memory nor garbage-collector
 *   pressure, else an ArrayBuffer. Pages are committed only where written: head + tail bytes.
 *
 * `limitBytes` bounds what a model can make the allocator reserve, side buffers included: a request that
 * would bring the required arena size over it throws ArenaLimitError before anything is allocated.
 */
export class SingleArenaBufferAllocator {
  /** Usable bytes of the buffer (whole 16-byte blocks): the tail grows down from here. */
  private cap: number;
  private memory: ArrayBufferLike | null = null;
  /** Makes the reservation of a reserved arena on first use. */
  private reserveMemory: (() => ArrayBufferLike) | null = null;
  /** The arena size of a fixed arena; null for a reserved one (its size is what the model uses). */
  private fixedSize: number | null;
  private headPos = 0;
  private tempPos = 0;
  /** Virtual tail position; negative or below head/temp when a fixed arena overflowed. */
  private tailPos: number;
  private tempHighWater = 0;
  /** The first request that did not fit, if any. */
  overflow: { what: string; requested: number; available: number } | null = null;

  /**
   * A fixed arena. `bufferOrSize`: an ArrayBuffer to use whole, or a size in bytes. With a size and a
   * `backing`, the buffer comes from `backing.allocate` and the arena is its first `size` bytes (see
   * ArenaBacking).
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
      this.memory = backing ? backedBuffer(backing, bytes) : new ArrayBuffer(bytes);
      this.cap = bytes;
    } else {
      if (backing)
        throw new MicrortError(`arena backing ${backing.name} applies to an arena given as a size or 'auto', not to an ArrayBuffer`);
      this.memory = bufferOrSize;
      // Only whole 16-byte blocks are usable, so every region stays aligned.
      this.cap = bufferOrSize.byteLength - (bufferOrSize.byteLength % ARENA_ALIGNMENT);
    }
    this.fixedSize = this.cap;
    this.tailPos = this.cap;
  }

  /**
   * A reserved arena (`arena: 'auto'`): `limitBytes` (rounded down to 16) of address space, filled from
   * both ends, reserved at the first allocation from `backing`, else a SharedArrayBuffer (or an
   * ArrayBuffer where there is none); see the class comment.
   */
  static reserve(limitBytes: number = DEFAULT_MAX_ARENA_BYTES, backing?: ArenaBacking): SingleArenaBufferAllocator {
    if (!Number.isInteger(limitBytes) || limitBytes < 0)
      throw new MicrortError(`maxArenaBytes must be a non-negative integer number of bytes, got ${limitBytes}`);
    // An empty fixed arena turned into a reservation of `capacity` bytes, made on first use.
    const arena = new SingleArenaBufferAllocator(new ArrayBuffer(0), limitBytes);
    const capacity = limitBytes - (limitBytes % ARENA_ALIGNMENT);
    arena.cap = capacity;
    arena.tailPos = capacity;
    arena.fixedSize = null;
    arena.memory = null;
    arena.reserveMemory = () => (backing ? backedBuffer(backing, capacity) : reservation(capacity));
    return arena;
  }

  /** The arena's memory (a reserved arena makes its reservation on the first call). */
  get buffer(): ArrayBufferLike {
    if (this.memory === null) {
      this.memory = this.reserveMemory!();
      this.reserveMemory = null;
    }
    return this.memory;
  }

  /** Usable bytes of the buffer (whole 16-byte blocks): the tail grows down from here. */
  get capacity(): number {
    return this.cap;
  }
  /** Whether this is a reserved arena (`'auto'`), sized by what the model uses. */
  get reserved(): boolean {
    return this.fixedSize === null;
  }
  /** The arena size: a fixed arena's size, or what a reserved arena's model uses (`requiredBytes`). */
  get size(): number {
    return this.fixedSize ?? this.requiredBytes;
  }
  /** Bytes of the head section (planned buffers). */
  get headBytes(): number {
    return this.headPos;
  }
  /** Bytes allocated persistently from the tail. */
  get tailBytes(): number {
    return this.cap - this.tailPos;
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
    const limit = Math.max(this.limitBytes, this.fixedSize ?? 0);
    if (required > limit) throw new ArenaLimitError(what, requested, required, limit);
  }

  private noteOverflow(what: string, requested: number, available: number): void {
    if (!this.overflow) this.overflow = { what, requested, available };
  }
}

function backedBuffer(backing: ArenaBacking, bytes: number): ArrayBufferLike {
  const buffer = backing.allocate(bytes); // views work alike over a SharedArrayBuffer (ops-wasm's threads)
  const ok = buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer);
  if (!ok || buffer.byteLength < bytes)
    throw new MicrortError(
      `arena backing ${backing.name} returned ${ok ? `${buffer.byteLength} bytes` : 'no ArrayBuffer'}, the arena needs ${bytes}`,
    );
  return buffer;
}

/** `bytes` of address space for a reserved arena: a SharedArrayBuffer where there is one, else an ArrayBuffer. */
function reservation(bytes: number): ArrayBufferLike {
  try {
    return typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new MicrortError(
      `arena 'auto' could not reserve ${bytes} bytes of address space (maxArenaBytes): lower maxArenaBytes or give the arena size (${e.message})`,
    );
  }
}
