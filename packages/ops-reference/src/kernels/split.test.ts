import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SPLIT } from './split.js';
import { constI32, constI64, harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function split(type: TensorType, shape: number[], data: number[], axis: number, outShapes: number[][], numSplits = outShapes.length) {
  return harness(SPLIT, [constI32([axis], []), spec(type, shape, data), ...outShapes.map((s) => spec(type, s))], 2, { numSplits });
}

describe('SPLIT', () => {
  it('TFLM TwoSplitFourDimensionalAxisZero / AxisOne', () => {
    const a0 = split(TensorType.FLOAT32, [2, 2, 2, 2], iota(16, 1), 0, [
      [1, 2, 2, 2],
      [1, 2, 2, 2],
    ]).invoke();
    expect([a0.outputArray(0), a0.outputArray(1)]).toEqual([iota(8, 1), iota(8, 9)]);
    const a1 = split(TensorType.INT8, [2, 2, 2, 2], iota(16, 1), 1, [
      [2, 1, 2, 2],
      [2, 1, 2, 2],
    ]).invoke();
    expect([a1.outputArray(0), a1.outputArray(1)]).toEqual([
      [1, 2, 3, 4, 9, 10, 11, 12],
      [5, 6, 7, 8, 13, 14, 15, 16],
    ]);
  });

  it('negative axis into three parts (int16, int32), uint8', () => {
    const h = split(TensorType.INT16, [2, 3], iota(6), -1, [
      [2, 1],
      [2, 1],
      [2, 1],
    ]).invoke();
    expect([0, 1, 2].map((i) => h.outputArray(i))).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    const u = split(TensorType.UINT8, [4], [1, 2, 254, 255], 0, [[2], [2]]).invoke();
    expect([u.outputArray(0), u.outputArray(1)]).toEqual([
      [1, 2],
      [254, 255],
    ]);
  });

  it('refuses bool and int64 data (as TFLM), an int64 or non-constant axis, uneven splits and num_splits mismatch', () => {
    expect(prepareError(split(TensorType.BOOL, [2], [1, 0], 0, [[1], [1]])).message).toMatch(/bool/);
    const axis64 = harness(
      SPLIT,
      [constI64([0], []), spec(TensorType.FLOAT32, [2], [1, 2]), spec(TensorType.FLOAT32, [1]), spec(TensorType.FLOAT32, [1])],
      2,
      { numSplits: 2 },
    );
    expect(prepareError(axis64).message).toMatch(/axis .* int64/);
    const dynamic = harness(
      SPLIT,
      [
        spec(TensorType.INT32, [], [0]),
        spec(TensorType.FLOAT32, [2], [1, 2]),
        spec(TensorType.FLOAT32, [1]),
        spec(TensorType.FLOAT32, [1]),
      ],
      2,
      { numSplits: 2 },
    );
    expect(prepareError(dynamic).message).toMatch(/axis tensor 0 must be constant/);
    expect(prepareError(split(TensorType.FLOAT32, [3], [1, 2, 3], 0, [[1], [1]])).message).toMatch(
      /size 3 does not split into 2 equal parts/,
    );
    expect(prepareError(split(TensorType.FLOAT32, [2], [1, 2], 0, [[1], [1]], 3)).message).toMatch(
      /num_splits is 3 but the node has 2 outputs/,
    );
  });
});
