import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { GATHER_ND } from './gather-nd.js';
import { harness, invokeError, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function gatherNd(type: TensorType, shape: number[], params: number[], idxShape: number[], idx: number[], outShape: number[]) {
  return harness(GATHER_ND, [spec(type, shape, params), spec(TensorType.INT32, idxShape, idx), spec(type, outShape)], 2);
}

describe('GATHER_ND', () => {
  it('TFLM GatherNd_ElementIndexingIntoMatrix and SliceIndexingIntoMatrix', () => {
    expect(gatherNd(TensorType.FLOAT32, [2, 2], [1.5, 2.5, 3.5, 4.5], [2, 2], [0, 0, 1, 1], [2]).invoke().outputArray()).toEqual([
      1.5, 4.5,
    ]);
    expect(gatherNd(TensorType.FLOAT32, [2, 2], [1.5, 2.5, 3.5, 4.5], [2, 1], [1, 0], [2, 2]).invoke().outputArray()).toEqual([
      3.5, 4.5, 1.5, 2.5,
    ]);
  });

  it('3-D params with 2-index rows and batched indices (int8, uint8)', () => {
    // params [2, 2, 3]; indices [2, 1, 2] -> output [2, 1, 3]
    expect(gatherNd(TensorType.INT8, [2, 2, 3], iota(12), [2, 1, 2], [1, 0, 0, 1], [2, 1, 3]).invoke().outputArray()).toEqual([
      6, 7, 8, 3, 4, 5,
    ]);
    expect(gatherNd(TensorType.UINT8, [3], [7, 8, 255], [1, 1], [2], [1]).invoke().outputArray()).toEqual([255]);
  });

  it('an index row selecting outside the params fails the invoke (TFLM checks the flat position)', () => {
    expect(invokeError(gatherNd(TensorType.FLOAT32, [2, 2], iota(4), [1, 2], [2, 0], [1])).message).toMatch(
      /index out of bounds: index row 0 selects elements \[4, 5\) of params holding 4/,
    );
    expect(invokeError(gatherNd(TensorType.FLOAT32, [2, 2], iota(4), [1, 1], [-1], [1, 2])).message).toMatch(/selects elements \[-2, 0\)/);
    // A row whose second index is out of its dimension but whose flat position is inside passes, as in TFLM.
    expect(gatherNd(TensorType.FLOAT32, [2, 2], iota(4), [1, 2], [0, 2], [1]).invoke().outputArray()).toEqual([2]);
  });

  it("gathers TFLite's int16 params with int64 indices; refuses complex128 params, too long index rows and a wrong output", () => {
    expect(gatherNd(TensorType.INT16, [2], [1, -2], [1, 1], [1], [1]).prepare().invoke().outputArray()).toEqual([-2]);
    const i64 = harness(
      GATHER_ND,
      [spec(TensorType.FLOAT32, [2], [1, 2]), spec(TensorType.INT64, [1, 1], [1n]), spec(TensorType.FLOAT32, [1])],
      2,
    );
    expect(i64.prepare().invoke().outputArray()).toEqual([2]);
    expect(prepareError(gatherNd(TensorType.COMPLEX128, [1], [1, 2], [1, 1], [0], [1])).message).toMatch(/complex128/);
    expect(prepareError(gatherNd(TensorType.FLOAT32, [2], [1, 2], [1, 2], [0, 0], [1])).message).toMatch(
      /length 2 must be <= params rank 1/,
    );
    expect(prepareError(gatherNd(TensorType.FLOAT32, [2, 2], iota(4), [1, 1], [0], [1])).message).toMatch(/expected \[1, 2\]/);
  });
});
