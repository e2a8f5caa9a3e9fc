import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { f32, harness, i32, kernelError, q, run } from './__fixtures__/math-testing.js';
import { REDUCE_MAX } from './reduce-max.js';
import { REDUCE_MIN } from './reduce-min.js';

const I8 = TensorType.INT8;
const X = [1, 9, -3, 4, 0.5, -7, 8, 2, 6, -1, 3, 5];

describe('REDUCE_MAX / REDUCE_MIN', () => {
  it('float32 over one axis and over all axes with keep_dims', () => {
    expect(run(REDUCE_MAX, [f32([3, 4], X), i32([1], [1], true), f32([3])], [0, 1], [2])).toEqual([9, 8, 6]);
    expect(run(REDUCE_MIN, [f32([3, 4], X), i32([1], [-2], true), f32([4])], [0, 1], [2])).toEqual([0.5, -7, -3, 2]);
    expect(run(REDUCE_MAX, [f32([3, 4], X), i32([2], [0, 1], true), f32([1, 1])], [0, 1], [2], { keepDims: true })).toEqual([9]);
  });

  it('float32 starts from the type extremes; NaN never replaces the running value', () => {
    expect(run(REDUCE_MAX, [f32([2], [-Infinity, -Infinity]), i32([1], [0], true), f32([])], [0, 1], [2])).toEqual([
      -3.4028234663852886e38,
    ]);
    expect(run(REDUCE_MIN, [f32([3], [Number.NaN, 2, Number.NaN]), i32([1], [0], true), f32([])], [0, 1], [2])).toEqual([2]);
  });

  it('int8 compares raw values; scale and zero point must match between input and output', () => {
    expect(
      run(REDUCE_MAX, [q(I8, [2, 3], 0.1, 3, [-128, 5, -7, 4, 127, 0]), i32([1], [1], true), q(I8, [2], 0.1, 3)], [0, 1], [2]),
    ).toEqual([5, 127]);
    expect(
      run(REDUCE_MIN, [q(I8, [2, 3], 0.1, 3, [-128, 5, -7, 4, 127, 0]), i32([1], [0], true), q(I8, [3], 0.1, 3)], [0, 1], [2]),
    ).toEqual([-128, 5, -7]);
    expect(
      kernelError(() => harness(REDUCE_MAX, [q(I8, [2], 0.1, 3, [1, 2]), i32([1], [0], true), q(I8, [], 0.2, 3)], [0, 1], [2]).prepare())
        .message,
    ).toMatch(/must share scale and zero point/);
  });

  it("reduces TFLite's int16 (raw values), refuses uint16", () => {
    const max = harness(
      REDUCE_MAX,
      [q(TensorType.INT16, [2], 0.1, 0, [1, -2]), i32([1], [0], true), q(TensorType.INT16, [], 0.1, 0)],
      [0, 1],
      [2],
    );
    expect(max.prepare().invoke().outputArray()).toEqual([1]);
    for (const reg of [REDUCE_MAX, REDUCE_MIN]) {
      const u = { type: TensorType.UINT16, shape: [2], data: [1, 2] };
      const h = harness(reg, [u, i32([1], [0], true), { type: TensorType.UINT16, shape: [] }], [0, 1], [2]);
      expect(h.supportsAnswer()).toBe('uint16 input (handles float32, int8, uint8, int16, int32, int64)');
      expect(kernelError(() => h.prepare()).message).toMatch(/type uint16 \(tensor \d+\); supported:/);
    }
  });

  it("requests TFLM's scratch (4 bytes per input dimension and per axis) and keeps OpDataReduce (40 bytes)", () => {
    const h = harness(REDUCE_MAX, [f32([2, 3, 2], X), i32([2], [0, 2], true), f32([3])], [0, 1], [2]).prepare();
    expect(h.scratchSizes).toEqual([12, 8]);
    expect(h.persistentBytes).toBe(48);
  });
});
