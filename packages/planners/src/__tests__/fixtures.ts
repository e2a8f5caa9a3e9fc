/** Test fixtures: buffer builders and seeded random buffer sets. */
import type { BufferRequirement } from '@micrort/core';
import { Prng } from '../prng.js';

/** A tensor buffer `id` of `size` bytes alive over steps `[first, last]`. */
export function buf(id: number, size: number, first: number, last: number, extra: Partial<BufferRequirement> = {}): BufferRequirement {
  return { kind: 'tensor', id, size, firstUsed: first, lastUsed: last, ...extra };
}

/** Buffers from TFLM-style `[size, first, last]` triples, ids 0..n-1. */
export function bufs(triples: readonly (readonly [number, number, number])[]): BufferRequirement[] {
  return triples.map(([size, first, last], i) => buf(i, size, first, last));
}

/** Options of {@link randomBuffers}. */
export interface RandomSetOptions {
  count: number;
  steps: number;
  maxLifetime: number;
  /** Sizes are multiples of this (the alignment). */
  unit: number;
  maxUnits: number;
  /** Probability that a buffer is a one-step scratch buffer. */
  scratchRate?: number;
}

/** A reproducible random buffer set. */
export function randomBuffers(rng: Prng, o: RandomSetOptions): BufferRequirement[] {
  const out: BufferRequirement[] = [];
  for (let i = 0; i < o.count; i++) {
    const first = rng.int(o.steps);
    const scratch = rng.next() < (o.scratchRate ?? 0.15);
    const last = scratch ? first : Math.min(o.steps - 1, first + rng.int(o.maxLifetime + 1));
    const size = (1 + rng.int(o.maxUnits)) * o.unit;
    out.push(
      scratch
        ? { kind: 'scratch', id: i, size, firstUsed: first, lastUsed: last, label: `scratch #${i} (node ${first})` }
        : { kind: 'tensor', id: i, size, firstUsed: first, lastUsed: last, label: `t${i}` },
    );
  }
  return out;
}

/** TFLM's person-detection buffer list (greedy_memory_planner_test.cc, TestPersonDetectionModel). */
export const PERSON_DETECTION: readonly (readonly [number, number, number])[] = [
  [9216, 0, 29],
  [3, 28, 29],
  [256, 27, 28],
  [2304, 26, 27],
  [2304, 25, 26],
  [2304, 24, 25],
  [1152, 23, 24],
  [4608, 22, 23],
  [4608, 21, 22],
  [4608, 20, 21],
  [4608, 19, 20],
  [4608, 18, 19],
  [4608, 17, 18],
  [4608, 16, 17],
  [4608, 15, 16],
  [4608, 14, 15],
  [4608, 13, 14],
  [4608, 12, 13],
  [2304, 11, 12],
  [9216, 10, 11],
  [9216, 9, 10],
  [9216, 8, 9],
  [4608, 7, 8],
  [18432, 6, 7],
  [18432, 5, 6],
  [18432, 4, 5],
  [9216, 3, 4],
  [36864, 2, 3],
  [18432, 1, 2],
  [18432, 0, 1],
];
