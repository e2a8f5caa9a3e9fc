import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SPLIT_V } from './split-v.js';
import { constI32, harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function splitV(type: TensorType, shape: number[], data: number[], sizes: number[], axis: number, outShapes: number[][]) {
  return harness(SPLIT_V, [spec(type, shape, data), constI32(sizes), constI32([axis], []), ...outShapes.map((s) => spec(type, s))], 3, {
    numSplits: outShapes.length,
  });
}

describe('SPLIT_V', () => {
  it('TFLM SPLIT_V_ThreeOutputs-style: [4,3] rows 1, 2, 1 along axis 0', () => {
    const h = splitV(TensorType.FLOAT32, [4, 3], iota(12), [1, 2, 1], 0, [
      [1, 3],
      [2, 3],
      [1, 3],
    ]).invoke();
    expect([0, 1, 2].map((i) => h.outputArray(i))).toEqual([
      [0, 1, 2],
      [3, 4, 5, 6, 7, 8],
      [9, 10, 11],
    ]);
  });

  it('uneven parts along the last axis; the -1 entry is resolved in the output shapes (int8, uint8)', () => {
    const h = splitV(TensorType.INT8, [2, 5], iota(10), [2, -1], -1, [
      [2, 2],
      [2, 3],
    ]).invoke();
    expect([h.outputArray(0), h.outputArray(1)]).toEqual([
      [0, 1, 5, 6],
      [2, 3, 4, 7, 8, 9],
    ]);
    const u = splitV(TensorType.UINT8, [3], [9, 250, 251], [1, 2], 0, [[1], [2]]).invoke();
    expect([u.outputArray(0), u.outputArray(1)]).toEqual([[9], [250, 251]]);
  });

  it('refuses outputs that do not add up or differ off the axis, and bool data', () => {
    expect(prepareError(splitV(TensorType.FLOAT32, [4], iota(4), [1, 2], 0, [[1], [2]])).message).toMatch(
      /add up to 3 along axis 0, the input has 4/,
    );
    expect(
      prepareError(
        splitV(TensorType.FLOAT32, [2, 2], iota(4), [1, 1], 0, [
          [1, 2],
          [1, 1],
        ]),
      ).message,
    ).toMatch(/output 1 has shape \[1, 1\]; it must equal the input \[2, 2\] except along axis 0/);
    const i64 = harness(
      SPLIT_V,
      [spec(TensorType.BOOL, [2], [1, 0]), constI32([1, 1]), constI32([0], []), spec(TensorType.BOOL, [1]), spec(TensorType.BOOL, [1])],
      3,
    );
    expect(prepareError(i64).message).toMatch(/unsupported input type bool \(tensor 0\)/);
  });
});
