import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { BROADCAST_TO } from './broadcast-to.js';
import { constI32, constI64, harness, iota, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

describe('BROADCAST_TO', () => {
  it('TFLM ShapeMustMatch-style cases: [3] -> [2,3], [2,1] -> [2,3]', () => {
    const a = harness(
      BROADCAST_TO,
      [spec(TensorType.FLOAT32, [3], [1, 2, 3]), constI32([2, 3]), spec(TensorType.FLOAT32, [2, 3])],
      2,
    ).invoke();
    expect(a.outputArray()).toEqual([1, 2, 3, 1, 2, 3]);
    const b = harness(BROADCAST_TO, [spec(TensorType.INT8, [2, 1], [4, -5]), constI32([2, 3]), spec(TensorType.INT8, [2, 3])], 2).invoke();
    expect(b.outputArray()).toEqual([4, 4, 4, -5, -5, -5]);
  });

  it('5-D target from an int64 shape, middle dimensions broadcast', () => {
    const h = harness(
      BROADCAST_TO,
      [spec(TensorType.INT32, [2, 1, 2], [1, 2, 3, 4]), constI64([1, 2, 2, 3, 2]), spec(TensorType.INT32, [1, 2, 2, 3, 2])],
      2,
    ).invoke();
    const row = (a: number, b: number) => [a, b, a, b, a, b];
    expect(h.outputArray()).toEqual([...row(1, 2), ...row(3, 4), ...row(1, 2), ...row(3, 4)]);
  });

  it('moves int64, bool and uint8 elements (raw bytes in TFLM)', () => {
    const i64 = harness(
      BROADCAST_TO,
      [spec(TensorType.INT64, [1], [-9007199254740993n]), constI32([3]), spec(TensorType.INT64, [3])],
      2,
    ).invoke();
    expect(Array.from(i64.output<BigInt64Array>())).toEqual([-9007199254740993n, -9007199254740993n, -9007199254740993n]);
    const b = harness(BROADCAST_TO, [spec(TensorType.BOOL, [2], [1, 0]), constI32([2, 2]), spec(TensorType.BOOL, [2, 2])], 2).invoke();
    expect(b.outputArray()).toEqual([1, 0, 1, 0]);
    const u = harness(BROADCAST_TO, [spec(TensorType.UINT8, [1, 1], [250]), constI32([2, 1]), spec(TensorType.UINT8, [2, 1])], 2).invoke();
    expect(u.outputArray()).toEqual([250, 250]);
  });

  it('refuses shapes it cannot broadcast to, more than 5 dimensions and a mismatched output', () => {
    const f = (inShape: number[], target: number[], outShape: number[]) =>
      harness(
        BROADCAST_TO,
        [spec(TensorType.FLOAT32, inShape, iota(inShape.reduce((a, b) => a * b, 1))), constI32(target), spec(TensorType.FLOAT32, outShape)],
        2,
      );
    expect(prepareError(f([2], [3], [3])).message).toMatch(/cannot be broadcast to \[3\]/);
    expect(prepareError(f([2, 2], [2], [2])).message).toMatch(/fewer dimensions than the input/);
    expect(prepareError(f([1], [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1])).message).toMatch(/supports 1 to 5 dimensions/);
    expect(preparedShape(f([1], [2, 2], [4]))).toEqual([2, 2]);
  });
});
