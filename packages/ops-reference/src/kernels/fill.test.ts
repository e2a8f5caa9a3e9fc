import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { f32, harness, i32, kernelError, q, run } from './__fixtures__/math-testing.js';
import { FILL } from './fill.js';

describe('FILL', () => {
  it('fills the output with the scalar value (float32, int32; int8 copied raw)', () => {
    expect(run(FILL, [i32([2], [2, 3], true), f32([], [1.5]), f32([2, 3])], [0, 1], [2])).toEqual([1.5, 1.5, 1.5, 1.5, 1.5, 1.5]);
    expect(run(FILL, [i32([1], [3], true), i32([], [-7]), i32([3])], [0, 1], [2])).toEqual([-7, -7, -7]);
    expect(
      run(
        FILL,
        [
          { type: TensorType.INT64, shape: [2], data: [3n, 1n], constant: true },
          q(TensorType.INT8, [], 0.1, 3, [-100]),
          q(TensorType.INT8, [3, 1], 0.1, 3),
        ],
        [0, 1],
        [2],
      ),
    ).toEqual([-100, -100, -100]);
  });

  it('checks a constant dims tensor against the output shape; a non-constant one is not read', () => {
    expect(kernelError(() => harness(FILL, [i32([2], [2, 4], true), f32([], [1]), f32([2, 3])], [0, 1], [2]).prepare()).message).toMatch(
      /dims \(tensor 0\) \[2,4\] differ from the output shape \[2,3\]/,
    );
    expect(kernelError(() => harness(FILL, [i32([3], [2, 3, 1], true), f32([], [1]), f32([2, 3])], [0, 1], [2]).prepare()).message).toMatch(
      /must be a 1-D tensor of 2 values/,
    );
    expect(kernelError(() => harness(FILL, [f32([2], [2, 3], true), f32([], [1]), f32([2, 3])], [0, 1], [2]).prepare()).message).toMatch(
      /unsupported dims type float32 \(tensor 0\); supported: int8, int16, int32, int64/,
    );
    expect(run(FILL, [i32([2], [9, 9]), f32([], [2]), f32([2])], [0, 1], [2])).toEqual([2, 2]);
  });

  it("refuses a non-scalar value, a value/output type mismatch and complex128 values; fills TFLite's int16", () => {
    expect(kernelError(() => harness(FILL, [i32([1], [2], true), f32([1], [1]), f32([2])], [0, 1], [2]).prepare()).message).toMatch(
      /value \(tensor 1\) must be a scalar/,
    );
    expect(kernelError(() => harness(FILL, [i32([1], [2], true), f32([], [1]), i32([2])], [0, 1], [2]).prepare()).message).toMatch(
      /output \(tensor 2\) is int32, the value float32/,
    );
    const h16 = harness(FILL, [i32([1], [2], true), q(TensorType.INT16, [], 0.1, 0, [-7]), q(TensorType.INT16, [2], 0.1, 0)], [0, 1], [2]);
    expect(h16.prepare().invoke().outputArray()).toEqual([-7, -7]);
    const c = { type: TensorType.COMPLEX128, shape: [], data: [1, 2] };
    const h = harness(FILL, [i32([1], [2], true), c, { type: TensorType.COMPLEX128, shape: [2] }], [0, 1], [2]);
    expect(h.supportsAnswer()).toMatch(/^complex128 value \(handles float32, float16/);
    expect(kernelError(() => h.prepare()).message).toMatch(/unsupported value type complex128 \(tensor 1\)/);
  });
});
