import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { ARG_MAX } from './arg-max.js';
import { constI32, constI64, harness, prepareError, spec } from './__fixtures__/data-testing.js';

const F = TensorType.FLOAT32;

function argMax(
  type: TensorType,
  shape: number[],
  data: number[],
  axis: number[],
  outShape: number[],
  axisShape: number[] = [axis.length],
) {
  return harness(ARG_MAX, [spec(type, shape, data), constI32(axis, axisShape), spec(TensorType.INT32, outShape)], 2);
}

describe('ARG_MAX', () => {
  it('TFLM GetMaxArgFloat: [1,1,1,4] along axis 3', () => {
    expect(argMax(F, [1, 1, 1, 4], [0.1, 0.9, 0.7, 0.3], [3], [1, 1, 1]).invoke().outputArray()).toEqual([1]);
  });

  it('TFLM GetMaxArgMulDimensions: [1,1,2,4] along axis 3', () => {
    expect(argMax(F, [1, 1, 2, 4], [1, 2, 7, 8, 1, 9, 7, 3], [3], [1, 1, 2]).invoke().outputArray()).toEqual([3, 1]);
  });

  it('axis 0 of a [3,2] matrix, and the same axis given as -2 (scalar axis tensor)', () => {
    const data = [1, 5, 4, 2, 3, 6];
    expect(argMax(F, [3, 2], data, [0], [2]).invoke().outputArray()).toEqual([1, 2]);
    expect(argMax(F, [3, 2], data, [-2], [2], []).invoke().outputArray()).toEqual([1, 2]);
  });

  it('ties keep the first index; NaN compares false both ways (a later NaN is skipped, a leading one stays)', () => {
    expect(argMax(F, [3, 3], [2, 7, 7, 1, NaN, 3, NaN, 1, 0], [1], [3]).invoke().outputArray()).toEqual([1, 2, 0]);
  });

  it('int8 compares the raw values; an axis of size 1 gives 0', () => {
    expect(argMax(TensorType.INT8, [2, 3], [-128, 127, 0, 5, -5, 5], [1], [2]).invoke().outputArray()).toEqual([1, 0]);
    expect(argMax(TensorType.INT8, [3, 1], [4, 5, 6], [1], [3]).invoke().outputArray()).toEqual([0, 0, 0]);
  });

  it('refuses int16 input (as TFLM), naming the type, in supports() and prepare', () => {
    const h = argMax(TensorType.INT16, [2, 2], [1, 2, 3, 4], [1], [2]);
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8, uint8, int32, bool)');
    expect(prepareError(h).message).toMatch(/unsupported input type int16 \(tensor 0\); supported: float32, int8, uint8, int32, bool/);
  });

  it("takes TFLite's int64 axis and int64 output (indices in the low words), refuses a non-constant axis", () => {
    expect(
      harness(ARG_MAX, [spec(F, [2, 2], [1, 2, 4, 3]), constI64([1]), spec(TensorType.INT32, [2])], 2)
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([1, 0]);
    const wide = harness(ARG_MAX, [spec(F, [2, 2], [1, 2, 4, 3]), constI32([1]), spec(TensorType.INT64, [2])], 2)
      .prepare()
      .invoke();
    expect(Array.from(wide.output<BigInt64Array>())).toEqual([1n, 0n]);
    expect(
      prepareError(harness(ARG_MAX, [spec(F, [2, 2], [1, 2, 3, 4]), spec(TensorType.INT32, [1], [1]), spec(TensorType.INT32, [2])], 2))
        .message,
    ).toMatch(/must be constant/);
  });

  it('refuses an out-of-range axis and a wrong output shape', () => {
    expect(prepareError(argMax(F, [2, 2], [1, 2, 3, 4], [2], [2])).message).toMatch(/axis 2 is out of range for a 2-D tensor/);
    expect(prepareError(argMax(F, [2, 3], [1, 2, 3, 4, 5, 6], [1], [3])).message).toMatch(
      /output \(tensor 2\) has shape \[3\], expected \[2\]/,
    );
  });
});
