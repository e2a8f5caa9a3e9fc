import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { nearestNeighbor } from '@micrort/kernel-support';
import { RESIZE_NEAREST_NEIGHBOR } from './resize-nearest-neighbor.js';
import { constI32, harness, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

function resize(
  type: TensorType,
  inShape: number[],
  data: number[],
  size: [number, number],
  alignCorners = false,
  halfPixelCenters = false,
) {
  const out = [inShape[0]!, size[0], size[1], inShape[3]!];
  return harness(RESIZE_NEAREST_NEIGHBOR, [spec(type, inShape, data), constI32(size), spec(type, out)], 2, {
    alignCorners,
    halfPixelCenters,
  });
}

describe('RESIZE_NEAREST_NEIGHBOR', () => {
  it('TFLM HorizontalResize, VerticalResize, TwoDimensionalResize', () => {
    expect(resize(TensorType.FLOAT32, [1, 1, 2, 1], [3, 6], [1, 3]).invoke().outputArray()).toEqual([3, 3, 6]);
    expect(resize(TensorType.INT8, [1, 2, 1, 1], [3, 9], [3, 1]).invoke().outputArray()).toEqual([3, 3, 9]);
    expect(resize(TensorType.INT16, [1, 2, 2, 1], [3, 6, 9, 12], [3, 3]).invoke().outputArray()).toEqual([3, 3, 6, 3, 3, 6, 9, 9, 12]);
  });

  it('TFLM AlignCorners and HalfPixelCenters cases', () => {
    const data = [3, 6, 9, 12];
    expect(resize(TensorType.FLOAT32, [1, 2, 2, 1], data, [3, 3], true).invoke().outputArray()).toEqual([3, 6, 6, 9, 12, 12, 9, 12, 12]);
    expect(resize(TensorType.FLOAT32, [1, 2, 2, 1], data, [3, 3], false, true).invoke().outputArray()).toEqual([
      3, 6, 6, 9, 12, 12, 9, 12, 12,
    ]);
  });

  it('two batches, two channels, downscale; uint8', () => {
    // [2, 2, 2, 2] -> [2, 1, 1, 2]: the top-left pixel of each batch
    const h = resize(TensorType.UINT8, [2, 2, 2, 2], [1, 2, 3, 4, 5, 6, 7, 8, 200, 201, 9, 9, 9, 9, 9, 9], [1, 1]).invoke();
    expect(h.outputArray()).toEqual([1, 2, 200, 201]);
  });

  it('rounds its coordinates in float32 like TFLM (2 -> 50: row 25 reads input row 1, not 0)', () => {
    expect(nearestNeighbor(25, 2, 50, false, false)).toBe(1);
    expect(nearestNeighbor(24, 2, 50, false, false)).toBe(0);
  });

  it("copies TFLite's int32; refuses float64, a non-constant size and a wrong output", () => {
    expect(resize(TensorType.INT32, [1, 1, 1, 1], [-5], [2, 2]).invoke().outputArray()).toEqual([-5, -5, -5, -5]);
    expect(prepareError(resize(TensorType.FLOAT64, [1, 1, 1, 1], [1], [2, 2])).message).toMatch(/type float64 \(tensor \d+\); supported:/);
    const dynamic = harness(
      RESIZE_NEAREST_NEIGHBOR,
      [spec(TensorType.FLOAT32, [1, 1, 1, 1], [1]), spec(TensorType.INT32, [2], [2, 2]), spec(TensorType.FLOAT32, [1, 2, 2, 1])],
      2,
      { alignCorners: false, halfPixelCenters: false },
    );
    expect(prepareError(dynamic).message).toMatch(/must be constant/);
    const wrong = harness(
      RESIZE_NEAREST_NEIGHBOR,
      [spec(TensorType.FLOAT32, [1, 1, 1, 1], [1]), constI32([2, 2]), spec(TensorType.FLOAT32, [1, 2, 2, 2])],
      2,
      { alignCorners: false, halfPixelCenters: false },
    );
    expect(preparedShape(wrong)).toEqual([1, 2, 2, 1]);
  });
});
