import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { PACK } from './pack.js';
import { harness, prepareError, spec } from './__fixtures__/data-testing.js';

function pack(type: TensorType, shape: number[], inputs: (number[] | bigint[])[], axis: number, outShape: number[]) {
  return harness(PACK, [...inputs.map((d) => spec(type, shape, d)), spec(type, outShape)], inputs.length, {
    valuesCount: inputs.length,
    axis,
  });
}

describe('PACK', () => {
  it('TFLite PackFloatThreeInputs: axis 0, axis 1 and axis -1', () => {
    const inputs = [
      [1, 4],
      [2, 5],
      [3, 6],
    ];
    expect(pack(TensorType.FLOAT32, [2], inputs, 0, [3, 2]).invoke().outputArray()).toEqual([1, 4, 2, 5, 3, 6]);
    expect(pack(TensorType.FLOAT32, [2], inputs, 1, [2, 3]).invoke().outputArray()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pack(TensorType.FLOAT32, [2], inputs, -1, [2, 3]).invoke().outputArray()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('middle axis of 2-D inputs (int16), int64 and uint8 elements', () => {
    const h = pack(
      TensorType.INT16,
      [2, 2],
      [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
      ],
      1,
      [2, 2, 2],
    ).invoke();
    expect(h.outputArray()).toEqual([1, 2, 5, 6, 3, 4, 7, 8]);
    const i64 = pack(TensorType.INT64, [1], [[-(2n ** 60n)], [2n ** 60n]], 0, [2, 1]).invoke();
    expect(Array.from(i64.output<BigInt64Array>())).toEqual([-(2n ** 60n), 2n ** 60n]);
    expect(
      pack(TensorType.UINT8, [], [[200], [201]], 0, [2])
        .invoke()
        .outputArray(),
    ).toEqual([200, 201]);
  });

  it('refuses bool (as TFLM), mismatched inputs, values_count and output shape', () => {
    expect(prepareError(pack(TensorType.BOOL, [1], [[1], [0]], 0, [2, 1])).message).toMatch(/type bool \(tensor \d+\); supported:/);
    const mismatched = harness(
      PACK,
      [spec(TensorType.FLOAT32, [2], [1, 2]), spec(TensorType.FLOAT32, [3], [1, 2, 3]), spec(TensorType.FLOAT32, [2, 2])],
      2,
      { valuesCount: 2, axis: 0 },
    );
    expect(prepareError(mismatched).message).toMatch(/input 1 \(tensor 1\) has shape \[3\], expected \[2\]/);
    const count = harness(PACK, [spec(TensorType.FLOAT32, [1], [1]), spec(TensorType.FLOAT32, [1, 1])], 1, { valuesCount: 2, axis: 0 });
    expect(prepareError(count).message).toMatch(/values_count is 2 but the node has 1 inputs/);
    expect(
      prepareError(
        pack(
          TensorType.FLOAT32,
          [2],
          [
            [1, 2],
            [3, 4],
          ],
          0,
          [2, 2, 1],
        ),
      ).message,
    ).toMatch(/expected \[2, 2\]/);
    expect(
      prepareError(
        pack(
          TensorType.FLOAT32,
          [2],
          [
            [1, 2],
            [3, 4],
          ],
          3,
          [2, 2],
        ),
      ).message,
    ).toMatch(/axis 3 is out of range for a 2-D tensor/);
  });
});
