/**
 * Which nodes run on several threads, decided at prepare: the thread count (and so the per-thread
 * scratch) depends only on the options and the node's size, never on whether this prepare sees the
 * pool (the measuring pass of arena 'auto' does not), so both passes size the same arena.
 */
import type { ArenaRegion } from '@micrort/core';
import type { KernelOptions } from '../options.js';
import type { WasmThreadPool } from '../threads/pool.js';
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

/** The node's share of the pool the arena `region` lives in, for `threads` > 1 (null in the measuring pass). */
export function parallelFor(region: ArenaRegion, threads: number, units: number): Parallel | null {
  if (threads < 2) return null;
  const ak = arenaKernelsFor(region);
  if (!ak?.pool) return null;
  return { pool: ak.pool, instance: ak.instance, chunks: Math.min(units, threads * 4) };
}
