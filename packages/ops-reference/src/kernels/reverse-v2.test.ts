import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { REVERSE_V2 } from './reverse-v2.js';
import { constI32, constI64, harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function reverse(type: TensorType, shape: number[], data: number[] | bigint[], axes: number[], outShape = shape) {
  return harness(REVERSE_V2, [spec(type, shape, data), constI32(axes), spec(type, outShape)], 2);
}

describe('REVERSE_V2', () => {
  it('TFLite FloatOneDimension and MultiDimensions (axis 1 of [4,3,2])', () => {
    expect(reverse(TensorType.FLOAT32, [4], [1, 2, 3, 4], [0]).invoke().outputArray()).toEqual([4, 3, 2, 1]);
    const h = reverse(TensorType.INT32, [4, 3, 2], iota(24, 1), [1]).invoke();
    expect(h.outputArray()).toEqual([5, 6, 3, 4, 1, 2, 11, 12, 9, 10, 7, 8, 17, 18, 15, 16, 13, 14, 23, 24, 21, 22, 19, 20]);
  });

  it('two contiguous axes (given unsorted, one negative) reverse both', () => {
    // [2, 2, 2], axes {-1, 1}: within each outer block, the 2x2 is reversed in both axes.
    expect(reverse(TensorType.INT8, [2, 2, 2], iota(8), [-1, 1]).invoke().outputArray()).toEqual([3, 2, 1, 0, 7, 6, 5, 4]);
  });

  it('int64, bool, uint8 and int16 elements; an empty axis list copies', () => {
    expect(
      Array.from(
        reverse(TensorType.INT64, [2], [2n ** 62n, -1n], [0])
          .invoke()
          .output<BigInt64Array>(),
      ),
    ).toEqual([-1n, 2n ** 62n]);
    expect(reverse(TensorType.BOOL, [3], [1, 0, 0], [0]).invoke().outputArray()).toEqual([0, 0, 1]);
    expect(reverse(TensorType.UINT8, [1, 3], [1, 2, 255], [1]).invoke().outputArray()).toEqual([255, 2, 1]);
    expect(reverse(TensorType.INT16, [2], [-5, 5], []).invoke().outputArray()).toEqual([-5, 5]);
  });

  it('refuses non-contiguous axes (as TFLM), an int64 axis tensor, too many axes and an out-of-range axis', () => {
    expect(prepareError(reverse(TensorType.FLOAT32, [2, 2, 2], iota(8), [0, 2])).message).toMatch(
      /non-contiguous axes \[0, 2\] are not supported/,
    );
    expect(
      prepareError(harness(REVERSE_V2, [spec(TensorType.FLOAT32, [2], [1, 2]), constI64([0]), spec(TensorType.FLOAT32, [2])], 2)).message,
    ).toMatch(/axis .* int64/);
    expect(prepareError(reverse(TensorType.FLOAT32, [2], [1, 2], [0, 0])).message).toMatch(/2 axes given for a 1-D input/);
    expect(prepareError(reverse(TensorType.FLOAT32, [2], [1, 2], [1])).message).toMatch(/axis 1 is out of range for a 1-D tensor/);
  });
});
