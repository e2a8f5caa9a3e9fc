import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SLICE } from './slice.js';
import { constI32, constI64, harness, invokeError, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function slice(type: TensorType, shape: number[], data: number[], begin: number[], size: number[], outShape: number[], i64 = false) {
  const c = i64 ? constI64 : constI32;
  return harness(SLICE, [spec(type, shape, data), c(begin), c(size), spec(type, outShape)], 3);
}

const IN4 = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6];

describe('SLICE', () => {
  it('TFLite In1D, InputInteger1 and SizeMinus1', () => {
    expect(slice(TensorType.FLOAT32, [4], [1, 2, 3, 4], [1], [2], [2]).invoke().outputArray()).toEqual([2, 3]);
    expect(slice(TensorType.INT32, [3, 2, 3, 1], IN4, [1, 0, 0, 0], [1, 1, 3, 1], [1, 1, 3, 1]).invoke().outputArray()).toEqual([3, 3, 3]);
    expect(slice(TensorType.INT8, [3, 2, 3, 1], IN4, [1, 0, 0, 0], [2, 1, -1, 1], [2, 1, 3, 1]).invoke().outputArray()).toEqual([
      3, 3, 3, 5, 5, 5,
    ]);
  });

  it('5-D with int64 begin/size; bool and uint8 elements', () => {
    const h = slice(TensorType.INT16, [1, 2, 1, 2, 3], iota(12), [0, 1, 0, 0, 1], [1, 1, 1, 2, 2], [1, 1, 1, 2, 2], true).invoke();
    expect(h.outputArray()).toEqual([7, 8, 10, 11]);
    expect(slice(TensorType.BOOL, [2, 2], [1, 0, 0, 1], [1, 0], [1, 2], [1, 2]).invoke().outputArray()).toEqual([0, 1]);
    expect(slice(TensorType.UINT8, [3], [1, 200, 255], [1], [-1], [2]).invoke().outputArray()).toEqual([200, 255]);
  });

  it('runtime begin/size are checked at each invoke (TFLM checks them at eval)', () => {
    const h = harness(
      SLICE,
      [
        spec(TensorType.FLOAT32, [4], [1, 2, 3, 4]),
        spec(TensorType.INT32, [1], [2]),
        spec(TensorType.INT32, [1], [2]),
        spec(TensorType.FLOAT32, [2]),
      ],
      3,
    );
    expect(h.invoke().outputArray()).toEqual([3, 4]);
    h.setInput(1, [3]);
    expect(() => h.invoke()).toThrow(/size\[0\] = 2 is outside \[0, 1\] \(begin 3, dimension 4\)/);
    h.setInput(1, [0]).setInput(2, [3]);
    expect(() => h.invoke()).toThrow(/select 3 elements, the output holds 2/);
    h.setInput(1, [-1]);
    expect(invokeError(h).message).toMatch(/begin\[0\] = -1 is outside \[0, 4\]/);
  });

  it('refuses constant begin/size that do not fit, a wrong output shape, more than 5 dimensions, complex128 elements', () => {
    expect(prepareError(slice(TensorType.FLOAT32, [4], [1, 2, 3, 4], [5], [0], [0])).message).toMatch(/begin\[0\] = 5 is outside \[0, 4\]/);
    expect(prepareError(slice(TensorType.FLOAT32, [2, 2], iota(4), [0, 0], [1, 2], [2, 1])).message).toMatch(
      /output has shape \[2, 1\], the slice has shape \[1, 2\]/,
    );
    expect(
      prepareError(slice(TensorType.FLOAT32, [1, 1, 1, 1, 1, 1], [1], [0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1])).message,
    ).toMatch(/at most 5/);
    expect(
      prepareError(
        harness(SLICE, [spec(TensorType.COMPLEX128, [1], [1, 2]), constI32([0]), constI32([1]), spec(TensorType.COMPLEX128, [1])], 3),
      ).message,
    ).toMatch(/complex128/);
    expect(
      prepareError(harness(SLICE, [spec(TensorType.FLOAT32, [1], [1]), constI32([0]), constI64([1]), spec(TensorType.FLOAT32, [1])], 3))
        .message,
    ).toMatch(/size type int64 .* differs from begin type int32/);
  });
});
