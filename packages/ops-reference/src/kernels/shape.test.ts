import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SHAPE } from './shape.js';
import { harness, iota, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

describe('SHAPE', () => {
  it('writes the input dims, whatever its type (values unread)', () => {
    expect(
      harness(SHAPE, [spec(TensorType.FLOAT32, [2, 3, 4], iota(24)), spec(TensorType.INT32, [3])], 1)
        .invoke()
        .outputArray(),
    ).toEqual([2, 3, 4]);
    expect(
      harness(SHAPE, [spec(TensorType.BOOL, [1, 5], [1, 0, 1, 0, 1]), spec(TensorType.INT32, [2])], 1)
        .invoke()
        .outputArray(),
    ).toEqual([1, 5]);
    expect(
      harness(SHAPE, [spec(TensorType.INT8, [], [3]), spec(TensorType.INT32, [0])], 1)
        .invoke()
        .outputArray(),
    ).toEqual([]);
  });

  it('refuses an int64 output as TFLM does (out_type INT64), and a wrong length', () => {
    const h = harness(SHAPE, [spec(TensorType.FLOAT32, [2], [1, 2]), spec(TensorType.INT64, [1])], 1);
    expect(h.supportsAnswer()).toBe('int64 output (handles int32)');
    expect(prepareError(h).message).toMatch(/output type int64 \(tensor 1\) is not supported; handled: int32/);
    expect(preparedShape(harness(SHAPE, [spec(TensorType.FLOAT32, [2, 2], iota(4)), spec(TensorType.INT32, [3])], 1))).toEqual([2]);
  });
});
