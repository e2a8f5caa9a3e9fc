import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { ARG_MIN } from './arg-min.js';
import { constI32, harness, prepareError, spec } from './__fixtures__/data-testing.js';

function argMin(type: TensorType, shape: number[], data: number[], axis: number, outShape: number[]) {
  return harness(ARG_MIN, [spec(type, shape, data), constI32([axis]), spec(TensorType.INT32, outShape)], 2);
}

describe('ARG_MIN', () => {
  it('TFLM GetMinArgFloat and GetMinArgMulDimensions', () => {
    expect(argMin(TensorType.FLOAT32, [1, 1, 1, 4], [0.1, 0.9, 0.7, 0.3], 3, [1, 1, 1]).invoke().outputArray()).toEqual([0]);
    expect(argMin(TensorType.FLOAT32, [1, 1, 2, 4], [1, 2, 7, 8, 1, 9, 7, 3], 3, [1, 1, 2]).invoke().outputArray()).toEqual([0, 0]);
  });

  it('middle axis of a 3-D int8 tensor, negative axis, ties keep the first index', () => {
    // [2, 3, 2]: along axis 1 (-2) for each (outer, inner)
    const data = [5, 1, -3, 1, 7, 0, 2, 2, 2, -1, 2, -1];
    expect(argMin(TensorType.INT8, [2, 3, 2], data, -2, [2, 2]).invoke().outputArray()).toEqual([1, 2, 0, 1]);
  });

  it('uint8 (TFLite, which TFLM does not run): raw values compared', () => {
    expect(argMin(TensorType.UINT8, [2, 3], [200, 7, 255, 0, 9, 9], 1, [2]).invoke().outputArray()).toEqual([1, 0]);
    expect(prepareError(argMin(TensorType.INT16, [2], [1, 2], 0, [])).message).toMatch(/type int16 \(tensor \d+\); supported:/);
  });
});
