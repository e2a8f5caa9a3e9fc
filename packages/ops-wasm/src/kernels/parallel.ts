/**
 * Which nodes run on several threads, decided at prepare: the thread count (and so the per-thread
 * scratch) depends only on the options and the node's size, never on whether this prepare sees the
 * pool (the measuring pass of arena 'auto' does not), so both passes size the same arena.
 */
import type { ArenaRegion, TfLiteContext } from '@micrort/core';
import type { KernelOptions } from '../options.js';
import type { WasmThreadPool } from '../threads/pool.js';
import { THREAD_GAP_BYTES } from '../generated/abi.js';
import { arenaKernelsFor } from '../wasm-arena.js';

/** A node's share of the pool. */
export interface Parallel {
  pool: WasmThreadPool;
  /** The arena's instance id in the workers. */
  instance: number;
  /** Chunks per job. */
  chunks: number;
}

/**
 * Threads for a node of `work` multiply-accumulates (or weighted elements) over `units` independent
 * units (tiles, pixels, runs): `options.threads` when it is worth a job, else 1.
 */
export function threadsFor(options: Readonly<KernelOptions>, work: number, units: number): number {
  return options.threads > 1 && work >= options.parallelMinMacs && units >= 2 ? options.threads : 1;
}

/**
 * Bytes from one thread's scratch slot of `bytes` to the next: whole 64-byte cache lines plus
 * THREAD_GAP_BYTES (a page; scripts/abi.mjs declares it for both sides). assembly/thread-slot.ts's
 * threadSlot places slot `tid` at base + tid x this.
 */
export function threadSlotBytes(bytes: number): number {
  return ((bytes + 63) & ~63) + THREAD_GAP_BYTES;
}

/**
 * The layout of `threads` per-thread scratch slots of `bytes` in one buffer: the first slot `lead` bytes
 * in, one every {@link threadSlotBytes}, and the buffer's size. With several threads every slot has a
 * page (THREAD_GAP_BYTES) free on both sides. Each thread writes its slot on every tile; slots that
 * shared a cache line, or only a page, with another thread's slot or with data another thread reads
 * (the requantization blocks beside them, a neighbouring tensor) made the cores trade those lines: the
 * cache-line ping-pong of plain false sharing, and the hardware prefetchers, which fetch lines near the
 * ones a core streams through within a 4 KiB page and so take a line the other core is writing. A
 * 28x28x144 -> 32 pointwise CONV_2D ran no faster on two threads than on one with slots packed
 * side by side, 1.8x faster with these gaps. One thread: `bytes`, no gaps.
 */
export function threadSlots(bytes: number, threads: number): { lead: number; bytes: number } {
  return threads <= 1 ? { lead: 0, bytes } : { lead: THREAD_GAP_BYTES, bytes: THREAD_GAP_BYTES + threadSlotBytes(bytes) * threads };
}

/** Per-thread slots in a planned scratch buffer (see {@link requestThreadScratch}). */
export interface ThreadScratch {
  /** The scratch buffer's index. */
  index: number;
  /** Bytes into it where thread 0's slot starts. */
  lead: number;
}

/**
 * At prepare: a scratch buffer for `threads` slots of `bytes` laid out by {@link threadSlots} (planned
 * memory that other nodes' scratch shares, not persistent memory per node).
 */
export function requestThreadScratch(context: TfLiteContext, bytes: number, threads: number): ThreadScratch {
  const slots = threadSlots(bytes, threads);
  return { index: context.requestScratchBufferInArena(slots.bytes), lead: slots.lead };
}

/** At invoke: the arena offset of thread 0's slot in `s` (the base that assembly/thread-slot.ts's threadSlot takes). */
export function threadScratchOffset(context: TfLiteContext, s: ThreadScratch): number {
  return context.getScratchBuffer(s.index).offset + s.lead;
}

/** The node's share of the pool the arena `region` lives in, for `threads` > 1 (null in the measuring pass). */
export function parallelFor(region: ArenaRegion, threads: number, units: number): Parallel | null {
  if (threads < 2) return null;
  const ak = arenaKernelsFor(region);
  if (!ak?.pool) return null;
  return { pool: ak.pool, instance: ak.instance, chunks: Math.min(units, threads * 4) };
}
