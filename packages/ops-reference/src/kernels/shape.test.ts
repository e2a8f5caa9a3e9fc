import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SHAPE } from './shape.js';
import { harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

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

  it("writes TFLite's int64 output (out_type INT64), refuses a float32 output and a wrong length", () => {
    const h64 = harness(SHAPE, [spec(TensorType.FLOAT32, [2, 3], iota(6)), spec(TensorType.INT64, [2])], 1);
    expect(Array.from(h64.prepare().invoke().output<BigInt64Array>())).toEqual([2n, 3n]);
    const h = harness(SHAPE, [spec(TensorType.FLOAT32, [2], [1, 2]), spec(TensorType.FLOAT32, [1])], 1);
    expect(h.supportsAnswer()).toBe('float32 output (handles int32, int64)');
    expect(prepareError(h).message).toMatch(/output type float32 \(tensor 1\) is not supported; handled: int32, int64/);
    expect(prepareError(harness(SHAPE, [spec(TensorType.FLOAT32, [2, 2], iota(4)), spec(TensorType.INT32, [3])], 1)).message).toMatch(
      /expected \[2\]/,
    );
  });
});
