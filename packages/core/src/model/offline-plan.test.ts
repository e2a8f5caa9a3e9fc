import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import { smallModelBuilder } from './__tests__/helpers.js';
import { loadModel } from './loader.js';
import { OFFLINE_MEMORY_ALLOCATION_METADATA, readOfflineMemoryAllocation } from './offline-plan.js';

/** The small model (9 tensors) with an OfflineMemoryAllocation entry made of `words`. */
function withPlan(words: number[] | Uint8Array) {
  const bytes = words instanceof Uint8Array ? words : new Uint8Array(new Int32Array(words).buffer);
  return loadModel(smallModelBuilder().addMetadata(OFFLINE_MEMORY_ALLOCATION_METADATA, bytes).build());
}

const OFFSETS = [0, -1, -1, 64, -1, 128, -1, 0, 16];

describe('readOfflineMemoryAllocation', () => {
  it('returns null when the model has no plan', () => {
    expect(readOfflineMemoryAllocation(loadModel(smallModelBuilder().build()))).toBeNull();
  });

  it('reads one offset per tensor, -1 meaning "plan online"', () => {
    const plan = readOfflineMemoryAllocation(withPlan([1, 1, 9, ...OFFSETS]));
    expect(Array.from(plan!)).toEqual(OFFSETS);
  });

  it('accepts trailing padding words', () => {
    const plan = readOfflineMemoryAllocation(withPlan([1, 1, 9, ...OFFSETS, 0, 0, 0, 0]));
    expect(plan!.length).toBe(9);
  });

  it('rejects a count that differs from the tensor count (as TFLM does)', () => {
    expect(() => readOfflineMemoryAllocation(withPlan([1, 1, 8, ...OFFSETS.slice(0, 8)]))).toThrow(/8 offsets but the model has 9 tensors/);
  });

  it('rejects a buffer too short for its count, or not whole words', () => {
    expect(() => readOfflineMemoryAllocation(withPlan([1, 1, 9, 0, 0]))).toThrow(/holds only 2/);
    expect(() => readOfflineMemoryAllocation(withPlan(new Uint8Array(13)))).toThrow(ModelError);
    expect(() => readOfflineMemoryAllocation(withPlan([1, 1]))).toThrow(ModelError);
  });

  it('rejects offsets below -1 and subgraph indices out of range', () => {
    const bad = [...OFFSETS];
    bad[4] = -7;
    expect(() => readOfflineMemoryAllocation(withPlan([1, 1, 9, ...bad]))).toThrow(/offset -7 for tensor 4/);
    expect(() => readOfflineMemoryAllocation(withPlan([1, 1, 9, ...OFFSETS]), 1)).toThrow(/subgraph 1 out of range/);
  });
});
