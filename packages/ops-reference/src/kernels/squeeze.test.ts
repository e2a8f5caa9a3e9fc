import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SQUEEZE } from './squeeze.js';
import { declaredInPlace, harness, invokeAliased, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function squeeze(type: TensorType, shape: number[], data: number[] | bigint[], dims: number[], outShape: number[]) {
  return harness(SQUEEZE, [spec(type, shape, data), spec(type, outShape)], 1, { squeezeDims: Int32Array.from(dims) });
}

describe('SQUEEZE', () => {
  it('TFLM SqueezeAll and SqueezeSelectedAxis / negative axis', () => {
    expect(squeeze(TensorType.FLOAT32, [1, 24, 1], iota(24), [], [24]).invoke().outputArray()).toEqual(iota(24));
    expect(squeeze(TensorType.INT8, [1, 24, 1], iota(24), [2], [1, 24]).invoke().outputArray()).toEqual(iota(24));
    expect(squeeze(TensorType.INT16, [1, 24, 1], iota(24), [-1, 0], [24]).invoke().outputArray()).toEqual(iota(24));
  });

  it('moves any fixed-size type (int64, bool, uint8)', () => {
    const h = squeeze(TensorType.INT64, [1, 2], [5n, -6n], [0], [2]).invoke();
    expect(Array.from(h.output<BigInt64Array>())).toEqual([5n, -6n]);
    expect(squeeze(TensorType.BOOL, [2, 1], [1, 0], [], [2]).invoke().outputArray()).toEqual([1, 0]);
    expect(squeeze(TensorType.UINT8, [1, 1], [200], [], []).invoke().outputArray()).toEqual([200]);
  });

  it('declares input 0 in place, and gives the same output when the output aliases it', () => {
    const make = () => squeeze(TensorType.INT16, [1, 3, 1], [7, -8, 9], [], [3]);
    expect(declaredInPlace(make().prepare(), SQUEEZE)).toBe(0);
    expect(invokeAliased(make, 0).outputArray()).toEqual([7, -8, 9]);
  });

  it('refuses squeezing a dimension that is not 1, an axis out of range and a wrong output shape', () => {
    expect(prepareError(squeeze(TensorType.FLOAT32, [2, 1], [1, 2], [0], [1])).message).toMatch(
      /cannot squeeze dimension 0: it has size 2/,
    );
    expect(prepareError(squeeze(TensorType.FLOAT32, [2, 1], [1, 2], [2], [2])).message).toMatch(/squeeze_dims entry 2 is out of range/);
    expect(prepareError(squeeze(TensorType.FLOAT32, [1, 2, 1], [1, 2], [], [2, 1])).message).toMatch(/the inputs give \[2\]/);
    expect(
      prepareError(
        squeeze(
          TensorType.FLOAT32,
          iota(9).map(() => 1),
          [1],
          [],
          [],
        ),
      ).message,
    ).toMatch(/at most 8/);
  });
});
