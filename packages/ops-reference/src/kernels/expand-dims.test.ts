import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { EXPAND_DIMS } from './expand-dims.js';
import { constI32, constI64, declaredInPlace, harness, invokeAliased, prepareError, spec } from './__fixtures__/data-testing.js';

function expand(type: TensorType, shape: number[], data: number[], axis: number, outShape: number[], axisShape: number[] = [1]) {
  return harness(EXPAND_DIMS, [spec(type, shape, data), constI32([axis], axisShape), spec(type, outShape)], 2);
}

describe('EXPAND_DIMS', () => {
  it('inserts a 1 at axis 0, in the middle, and at the end with a negative scalar axis', () => {
    expect(expand(TensorType.FLOAT32, [2, 2], [1, 2, 3, 4], 0, [1, 2, 2]).invoke().outputArray()).toEqual([1, 2, 3, 4]);
    expect(expand(TensorType.INT8, [2, 2], [1, 2, 3, 4], 1, [2, 1, 2]).invoke().outputArray()).toEqual([1, 2, 3, 4]);
    expect(expand(TensorType.INT16, [2, 2], [1, 2, 3, 4], -1, [2, 2, 1], []).invoke().outputArray()).toEqual([1, 2, 3, 4]);
    expect(expand(TensorType.UINT8, [3], [1, 2, 255], -2, [1, 3]).invoke().outputArray()).toEqual([1, 2, 255]);
  });

  it('a scalar input becomes [1]', () => {
    expect(expand(TensorType.FLOAT32, [], [7], 0, [1]).invoke().outputArray()).toEqual([7]);
  });

  it("takes TFLite's int64 axis and int32 input, refuses complex128, an out-of-range axis and a wrong output shape", () => {
    expect(
      harness(EXPAND_DIMS, [spec(TensorType.FLOAT32, [2], [1, 2]), constI64([0]), spec(TensorType.FLOAT32, [1, 2])], 2)
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([1, 2]);
    expect(expand(TensorType.INT32, [2], [1, 2], 0, [1, 2]).invoke().outputArray()).toEqual([1, 2]);
    expect(prepareError(expand(TensorType.COMPLEX128, [1], [1, 2], 0, [1, 1])).message).toMatch(
      /type complex128 \(tensor \d+\); supported:/,
    );
    expect(prepareError(expand(TensorType.FLOAT32, [2], [1, 2], 2, [2, 1])).message).toMatch(
      /axis 2 is out of range for a 1-D input \(valid: -2\.\.1\)/,
    );
    expect(prepareError(expand(TensorType.FLOAT32, [2], [1, 2], 0, [2, 1])).message).toMatch(/expected \[1, 2\]/);
  });

  it('declares input 0 in place, and gives the same output when the output aliases it', () => {
    const make = () => expand(TensorType.FLOAT32, [3], [1, 2, 3], 0, [1, 3]);
    expect(declaredInPlace(make().prepare(), EXPAND_DIMS)).toBe(0);
    expect(invokeAliased(make, 0).outputArray()).toEqual([1, 2, 3]);
  });
});
