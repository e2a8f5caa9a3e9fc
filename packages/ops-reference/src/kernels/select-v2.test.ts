import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { bool, f32, harness, i32, kernelError, q, run } from './__fixtures__/math-testing.js';
import { SELECT_V2 } from './select-v2.js';

describe('SELECT_V2', () => {
  it('selects elementwise with equal shapes (TFLM select_test SelectFloat)', () => {
    expect(
      run(
        SELECT_V2,
        [
          bool([1, 1, 1, 4], [1, 0, 1, 0]),
          f32([1, 1, 1, 4], [0.1, 0.2, 0.3, 0.4]),
          f32([1, 1, 1, 4], [0.5, 0.6, 0.7, 0.8]),
          f32([1, 1, 1, 4]),
        ],
        [0, 1, 2],
        [3],
      ),
    ).toEqual([0.1, 0.6, 0.3, 0.8].map(Math.fround));
  });

  it('broadcasts condition, x and y against each other (all three, up to 5-D)', () => {
    const cond = bool([1, 3, 1], [1, 0, 1]);
    const x = f32([2, 1, 2], [1, 2, 3, 4]);
    const y = f32([2], [-1, -2]);
    expect(run(SELECT_V2, [cond, x, y, f32([2, 3, 2])], [0, 1, 2], [3])).toEqual([1, 2, -1, -2, 1, 2, 3, 4, -1, -2, 3, 4]);
    const x5 = q(TensorType.INT8, [2, 1, 1, 1, 2], 0.1, 2, [1, 2, 3, 4]);
    expect(
      run(
        SELECT_V2,
        [bool([2], [0, 1]), x5, q(TensorType.INT8, [1], 0.1, 2, [9]), q(TensorType.INT8, [2, 1, 1, 1, 2], 0.1, 2)],
        [0, 1, 2],
        [3],
      ),
    ).toEqual([9, 2, 9, 4]);
  });

  it('int16 and one-element tensors of mixed ranks', () => {
    expect(
      run(
        SELECT_V2,
        [bool([], [0]), q(TensorType.INT16, [1, 1], 1, 0, [5]), q(TensorType.INT16, [1], 1, 0, [-7]), q(TensorType.INT16, [1], 1, 0)],
        [0, 1, 2],
        [3],
      ),
    ).toEqual([-7]);
  });

  it("selects TFLite's int32; refuses complex128, a non-bool condition, incompatible shapes and a wrong output shape", () => {
    expect(
      harness(SELECT_V2, [bool([1], [0]), i32([1], [1]), i32([1], [2]), i32([1])], [0, 1, 2], [3])
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([2]);
    const c = { type: TensorType.COMPLEX128, shape: [1], data: [1, 2] };
    const h = harness(SELECT_V2, [bool([1], [1]), c, c, { type: TensorType.COMPLEX128, shape: [1] }], [0, 1, 2], [3]);
    expect(h.supportsAnswer()).toMatch(/^complex128 x \(handles float32, float16/);
    expect(kernelError(() => h.prepare()).message).toMatch(/unsupported x type complex128 \(tensor 1\); supported: float32/);
    expect(
      kernelError(() => harness(SELECT_V2, [f32([1], [1]), f32([1], [1]), f32([1], [2]), f32([1])], [0, 1, 2], [3]).prepare()).message,
    ).toMatch(/condition \(tensor 0\) has type float32, expected bool/);
    expect(
      kernelError(() => harness(SELECT_V2, [bool([3], [1, 0, 1]), f32([2], [1, 2]), f32([1], [0]), f32([3])], [0, 1, 2], [3]).prepare())
        .message,
    ).toMatch(/cannot be broadcast \(x has 2 where another input has 3\)/);
    expect(
      kernelError(() => harness(SELECT_V2, [bool([2], [1, 0]), f32([2], [1, 2]), f32([1], [0]), f32([2, 2])], [0, 1, 2], [3]).prepare())
        .message,
    ).toMatch(/output \(tensor 3\) has shape \[2,2\], the broadcast shape is \[2\]/);
  });

  it('keeps TFLM OpData (two bools) in the arena', () => {
    expect(harness(SELECT_V2, [bool([1], [1]), f32([1], [1]), f32([1], [2]), f32([1])], [0, 1, 2], [3]).prepare().persistentBytes).toBe(16);
  });
});
