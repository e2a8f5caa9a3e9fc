/**
 * The signal library's int16 circular buffer (TFLM signal/src/circular_buffer.cc), used by SignalDelay,
 * SignalFramer and SignalStacker for their history. One buffer lives in one persistent arena region of
 * TFLM's size (`CircularBufferGetNeededMemory`: the 40-byte x86-64 struct, then `2 * capacity` int16
 * elements, TFLM's mirrored layout). The struct's first words hold the read and write positions and the
 * empty flag; the elements are the first `capacity` int16 after the struct (the mirror half, which TFLM
 * keeps only for contiguous peeks, is never read by these kernels, so it is not maintained).
 *
 * Semantics are TFLM's: `write`/`writeZeros` append, `get` copies the oldest `n` elements without
 * consuming them, `discard` consumes, `extend` re-appends the last `count` elements `n` times, and
 * `available` tells read == write apart with the empty flag. Callers guarantee TFLM's ASSERTs
 * (capacity for every write, enough elements for every get/discard) by validating options in prepare;
 * nothing here allocates.
 */
import type { ArenaRegion } from '@micrort/core';

/** sizeof(tflm_signal::CircularBuffer) on x86-64: capacity, read, write (size_t), empty, buffer_size (int32), buffer (pointer). */
export const CIRCULAR_BUFFER_STRUCT_BYTES = 40;

/** CircularBufferGetNeededMemory(capacity): the struct plus `2 * capacity` int16 elements. */
export function circularBufferNeededBytes(capacity: number): number {
  return CIRCULAR_BUFFER_STRUCT_BYTES + 2 * 2 * capacity;
}

const enum S {
  READ = 0,
  WRITE = 1,
  EMPTY = 2,
  CAPACITY = 3,
}

/** One int16 circular buffer of `capacity` elements over a persistent region (see the file comment). */
export class Int16CircularBuffer {
  readonly capacity: number;
  private readonly state: Int32Array;
  private readonly buf: Int16Array;

  /** Initializes an empty buffer (CircularBufferInit) in `region`, which must hold `circularBufferNeededBytes(capacity)` bytes. */
  constructor(region: ArenaRegion, capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 1))
      throw new RangeError(`circular buffer capacity ${capacity} must be an integer >= 1`);
    const need = circularBufferNeededBytes(capacity);
    if (region.size < need) throw new RangeError(`circular buffer of capacity ${capacity} needs ${need} bytes, region has ${region.size}`);
    this.capacity = capacity;
    this.state = new Int32Array(region.buffer, region.offset, 4);
    this.buf = new Int16Array(region.buffer, region.offset + CIRCULAR_BUFFER_STRUCT_BYTES, capacity);
    this.state[S.CAPACITY] = capacity;
    this.reset();
  }

  /** CircularBufferReset: empty, positions 0, elements zeroed. */
  reset(): void {
    this.state[S.READ] = 0;
    this.state[S.WRITE] = 0;
    this.state[S.EMPTY] = 1;
    this.buf.fill(0);
  }

  /** CircularBufferAvailable: elements ready to read. */
  available(): number {
    const diff = this.state[S.WRITE]! - this.state[S.READ]!;
    if (diff > 0) return diff;
    if (diff < 0) return this.capacity + diff;
    return this.state[S.EMPTY] === 1 ? 0 : this.capacity;
  }

  /** CircularBufferCanWrite: free elements. */
  canWrite(): number {
    return this.capacity - this.available();
  }

  /** CircularBufferWrite: appends `src[srcOffset .. srcOffset + n)`. */
  write(src: Int16Array, srcOffset: number, n: number): void {
    if (n <= 0) return;
    const buf = this.buf;
    const cap = this.capacity;
    let w = this.state[S.WRITE]!;
    for (let i = 0; i < n; i++) {
      buf[w] = src[srcOffset + i]!;
      if (++w === cap) w = 0;
    }
    this.state[S.WRITE] = w;
    this.state[S.EMPTY] = 0;
  }

  /** CircularBufferWriteZeros: appends `n` zeros. */
  writeZeros(n: number): void {
    if (n <= 0) return;
    const buf = this.buf;
    const cap = this.capacity;
    let w = this.state[S.WRITE]!;
    for (let i = 0; i < n; i++) {
      buf[w] = 0;
      if (++w === cap) w = 0;
    }
    this.state[S.WRITE] = w;
    this.state[S.EMPTY] = 0;
  }

  /** CircularBufferExtend: appends the last `count` elements written, `n` times. */
  extend(count: number, n: number): void {
    if (n <= 0 || count <= 0) return;
    const buf = this.buf;
    const cap = this.capacity;
    const w0 = this.state[S.WRITE]!;
    const start = count > w0 ? w0 + cap - count : w0 - count;
    let w = w0;
    for (let r = 0; r < n; r++) {
      let s = start;
      for (let i = 0; i < count; i++) {
        buf[w] = buf[s]!;
        if (++s === cap) s = 0;
        if (++w === cap) w = 0;
      }
    }
    this.state[S.WRITE] = w;
  }

  /** CircularBufferGet: copies the oldest `n` elements to `dst[dstOffset ..]` without consuming them. */
  get(n: number, dst: Int16Array, dstOffset: number): void {
    const buf = this.buf;
    const cap = this.capacity;
    let r = this.state[S.READ]!;
    for (let i = 0; i < n; i++) {
      dst[dstOffset + i] = buf[r]!;
      if (++r === cap) r = 0;
    }
  }

  /** CircularBufferDiscard: consumes the oldest `n` elements (n > 0). */
  discard(n: number): void {
    let r = this.state[S.READ]! + n;
    if (r >= this.capacity) r -= this.capacity;
    this.state[S.READ] = r;
    if (r === this.state[S.WRITE]) this.state[S.EMPTY] = 1;
  }
}
