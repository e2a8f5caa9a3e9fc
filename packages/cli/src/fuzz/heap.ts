import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let cached: (() => void) | null | undefined;

/**
 * A function that runs a full garbage collection, or null when V8 refuses. Node exposes `gc` only with
 * --expose-gc; setting the flag at run time makes it available to contexts created afterwards.
 */
export function getGc(): (() => void) | null {
  if (cached !== undefined) return cached;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    cached = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    cached = null;
  }
  return cached;
}

/** One memory sample. */
export interface MemorySample {
  /** V8 heap in use, bytes (after a full GC when `afterGc`). */
  heapUsed: number;
  rss: number;
  /** ArrayBuffer memory (arenas live here), bytes. */
  arrayBuffers: number;
  afterGc: boolean;
}

/** Samples memory, collecting garbage first when `gc` is true and possible. */
export function sampleMemory(gc: boolean): MemorySample {
  const collect = gc ? getGc() : null;
  if (collect) collect();
  const mem = process.memoryUsage();
  return {
    heapUsed: collect ? getHeapStatistics().used_heap_size : mem.heapUsed,
    rss: mem.rss,
    arrayBuffers: mem.arrayBuffers,
    afterGc: collect !== null,
  };
}
