import { describe, expect, it } from 'vitest';
import { bool, f32, harness, i32, kernelError, run } from './__fixtures__/math-testing.js';
import { REDUCE_ALL } from './reduce-all.js';

describe('REDUCE_ALL', () => {
  it('logical AND over the axes, true for an empty reduction', () => {
    const x = [1, 1, 0, 1, 1, 1];
    expect(run(REDUCE_ALL, [bool([2, 3], x), i32([1], [1], true), bool([2])], [0, 1], [2])).toEqual([0, 1]);
    expect(run(REDUCE_ALL, [bool([2, 3], x), i32([1], [0], true), bool([1, 3])], [0, 1], [2], { keepDims: true })).toEqual([1, 1, 0]);
    expect(run(REDUCE_ALL, [bool([0, 3], []), i32([1], [0], true), bool([3])], [0, 1], [2])).toEqual([1, 1, 1]);
  });

  it('refuses non-bool inputs', () => {
    const h = harness(REDUCE_ALL, [f32([2], [1, 0]), i32([1], [0], true), f32([])], [0, 1], [2]);
    expect(h.supportsAnswer()).toBe('float32 input (handles bool)');
    expect(kernelError(() => h.prepare()).message).toMatch(/type float32 \(tensor \d+\); supported:/);
  });
});
