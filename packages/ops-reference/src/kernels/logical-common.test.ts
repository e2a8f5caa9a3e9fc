import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { bool, harness, kernelError, q, run } from './__fixtures__/math-testing.js';
import { LOGICAL_AND } from './logical-and.js';
import { LOGICAL_NOT } from './logical-not.js';
import { LOGICAL_OR } from './logical-or.js';

describe('logical kernels', () => {
  it('LOGICAL_AND / LOGICAL_OR elementwise (TFLM logical_test)', () => {
    expect(run(LOGICAL_AND, [bool([1, 1, 1, 4], [1, 0, 0, 1]), bool([1, 1, 1, 4], [1, 0, 1, 0]), bool([1, 1, 1, 4])], [0, 1], [2])).toEqual(
      [1, 0, 0, 0],
    );
    expect(run(LOGICAL_OR, [bool([1, 1, 1, 4], [1, 0, 0, 1]), bool([1, 1, 1, 4], [1, 0, 1, 0]), bool([1, 1, 1, 4])], [0, 1], [2])).toEqual([
      1, 0, 1, 1,
    ]);
  });

  it('broadcast up to 4-D, either side', () => {
    expect(run(LOGICAL_AND, [bool([1, 1, 1, 4], [1, 0, 0, 1]), bool([1, 1, 1, 1], [1]), bool([1, 1, 1, 4])], [0, 1], [2])).toEqual([
      1, 0, 0, 1,
    ]);
    expect(run(LOGICAL_OR, [bool([3, 1], [1, 0, 0]), bool([1, 2], [0, 1]), bool([3, 2])], [0, 1], [2])).toEqual([1, 1, 0, 1, 0, 1]);
    expect(
      kernelError(() =>
        harness(LOGICAL_OR, [bool([2, 1, 1, 1, 1], [1, 0]), bool([2], [1, 0]), bool([2, 1, 1, 1, 2])], [0, 1], [2]).prepare(),
      ).message,
    ).toMatch(/at most 4 dimensions/);
  });

  it('treat any non-zero byte as true and write 0/1', () => {
    const h = harness(LOGICAL_AND, [bool([2]), bool([2]), bool([2])], [0, 1], [2]);
    h.prepare();
    h.setInput(0, [2, 255]);
    h.setInput(1, [7, 0]);
    expect(h.invoke().outputArray()).toEqual([1, 0]);
  });

  it('LOGICAL_NOT', () => {
    expect(run(LOGICAL_NOT, [bool([4], [1, 0, 0, 1]), bool([4])], [0], [1])).toEqual([0, 1, 1, 0]);
  });

  it('refuse non-bool tensors', () => {
    const h = harness(
      LOGICAL_AND,
      [q(TensorType.INT8, [1], 1, 0, [1]), q(TensorType.INT8, [1], 1, 0, [1]), q(TensorType.INT8, [1], 1, 0)],
      [0, 1],
      [2],
    );
    expect(h.supportsAnswer()).toBe('int8 input (handles bool)');
    expect(kernelError(() => h.prepare()).message).toMatch(/unsupported output type int8/);
    expect(
      kernelError(() => harness(LOGICAL_NOT, [q(TensorType.INT8, [1], 1, 0, [1]), q(TensorType.INT8, [1], 1, 0)], [0], [1]).prepare())
        .message,
    ).toMatch(/unsupported input type int8/);
  });
});
