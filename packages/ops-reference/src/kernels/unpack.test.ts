import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { UNPACK } from './unpack.js';
import { harness, iota, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

function unpack(type: TensorType, shape: number[], data: number[], axis: number, outShapes: number[][], num = outShapes.length) {
  return harness(UNPACK, [spec(type, shape, data), ...outShapes.map((s) => spec(type, s))], 1, { num, axis });
}

describe('UNPACK', () => {
  it('TFLite tests: [3,2] along axis 0 and axis 1 (and -1)', () => {
    const h0 = unpack(TensorType.FLOAT32, [3, 2], iota(6, 1), 0, [[2], [2], [2]]).invoke();
    expect([0, 1, 2].map((i) => h0.outputArray(i))).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    const h1 = unpack(TensorType.INT32, [3, 2], iota(6, 1), -1, [[3], [3]]).invoke();
    expect([h1.outputArray(0), h1.outputArray(1)]).toEqual([
      [1, 3, 5],
      [2, 4, 6],
    ]);
  });

  it('3-D int16 along the middle axis; uint8; a single output', () => {
    const h = unpack(TensorType.INT16, [2, 2, 2], iota(8), 1, [
      [2, 2],
      [2, 2],
    ]).invoke();
    expect([h.outputArray(0), h.outputArray(1)]).toEqual([
      [0, 1, 4, 5],
      [2, 3, 6, 7],
    ]);
    const u = unpack(TensorType.UINT8, [1, 2], [250, 251], 0, [[2]]).invoke();
    expect(u.outputArray(0)).toEqual([250, 251]);
  });

  it('refuses int64 (as TFLM), num that differs from the outputs, an axis size that differs, a wrong output', () => {
    expect(
      prepareError(
        harness(UNPACK, [spec(TensorType.INT64, [2], [1n, 2n]), spec(TensorType.INT64, []), spec(TensorType.INT64, [])], 1, {
          num: 2,
          axis: 0,
        }),
      ).message,
    ).toMatch(/int64/);
    expect(prepareError(unpack(TensorType.FLOAT32, [2], [1, 2], 0, [[], []], 3)).message).toMatch(/num is 3 but the node has 2 outputs/);
    expect(prepareError(unpack(TensorType.FLOAT32, [3], [1, 2, 3], 0, [[], []])).message).toMatch(
      /axis 0 has size 3, expected one per output \(2\)/,
    );
    expect(preparedShape(unpack(TensorType.FLOAT32, [2, 2], iota(4), 0, [[2], [1]]), 1)).toEqual([2]);
  });
});
