import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { EMBEDDING_LOOKUP } from './embedding-lookup.js';
import { harness, invokeError, prepareError, spec } from './__fixtures__/data-testing.js';

describe('EMBEDDING_LOOKUP', () => {
  it('TFLM SimpleTest: rows of a [3,2,4] float table', () => {
    const table = [
      0, 0.01, 0.02, 0.03, 0.1, 0.11, 0.12, 0.13, 1, 1.01, 1.02, 1.03, 1.1, 1.11, 1.12, 1.13, 2, 2.01, 2.02, 2.03, 2.1, 2.11, 2.12, 2.13,
    ];
    const h = harness(
      EMBEDDING_LOOKUP,
      [spec(TensorType.INT32, [3], [1, 0, 2]), spec(TensorType.FLOAT32, [3, 2, 4], table), spec(TensorType.FLOAT32, [3, 2, 4])],
      2,
    ).invoke();
    expect(h.outputArray()).toEqual([...table.slice(8, 16), ...table.slice(0, 8), ...table.slice(16)].map(Math.fround));
    expect(h.persistentBytes).toBe(16); // TFLM's OpData {float scale; size_t num_columns}
  });

  it('int8 table to int8 output copies rows; to float32 dequantizes with the table scale (zero point 0)', () => {
    const copy = harness(
      EMBEDDING_LOOKUP,
      [
        spec(TensorType.INT32, [2], [1, 1]),
        spec(TensorType.INT8, [2, 2], [1, -2, 3, -4], { scale: 0.5, zeroPoint: 3 }),
        spec(TensorType.INT8, [2, 2], undefined, { scale: 0.5, zeroPoint: 3 }),
      ],
      2,
    ).invoke();
    expect(copy.outputArray()).toEqual([3, -4, 3, -4]);
    const hybrid = harness(
      EMBEDDING_LOOKUP,
      [
        spec(TensorType.INT32, [2], [0, 1]),
        spec(TensorType.INT8, [2, 2], [1, -2, 127, -128], { scale: 0.25, zeroPoint: 0 }),
        spec(TensorType.FLOAT32, [2, 2]),
      ],
      2,
    ).invoke();
    expect(hybrid.outputArray()).toEqual([0.25, -0.5, 31.75, -32]);
  });

  it('uint8 tables are copied (TFLite reference)', () => {
    const h = harness(
      EMBEDDING_LOOKUP,
      [spec(TensorType.INT32, [1], [1]), spec(TensorType.UINT8, [2, 3], [1, 2, 3, 250, 251, 252]), spec(TensorType.UINT8, [1, 3])],
      2,
    ).invoke();
    expect(h.outputArray()).toEqual([250, 251, 252]);
  });

  it('an id out of range fails the invoke, naming it and the bounds', () => {
    const h = harness(
      EMBEDDING_LOOKUP,
      [spec(TensorType.INT32, [2], [0, 3]), spec(TensorType.FLOAT32, [3, 1], [1, 2, 3]), spec(TensorType.FLOAT32, [2, 1])],
      2,
    );
    expect(invokeError(h).message).toMatch(/ids\[1\] = 3 is out of bounds: the table has rows \[0, 2\]/);
    h.setInput(0, [-1, 0]);
    expect(() => h.invoke()).toThrow(/ids\[0\] = -1/);
  });

  it('copies int16 rows (TFLite), refuses complex128 tables, int64 ids, a zero point in the hybrid case and a wrong output', () => {
    const t16 = harness(
      EMBEDDING_LOOKUP,
      [spec(TensorType.INT32, [1], [0]), spec(TensorType.INT16, [1, 2], [1, -2]), spec(TensorType.INT16, [1, 2])],
      2,
    );
    expect(t16.prepare().invoke().outputArray()).toEqual([1, -2]);
    const c128 = harness(
      EMBEDDING_LOOKUP,
      [spec(TensorType.INT32, [1], [0]), spec(TensorType.COMPLEX128, [1, 1], [1, 2]), spec(TensorType.COMPLEX128, [1, 1])],
      2,
    );
    expect(c128.supportsAnswer()).toMatch(/^complex128 input \(handles float32/);
    expect(prepareError(c128).message).toMatch(/unsupported table type complex128 \(tensor 1\)/);
    expect(
      prepareError(
        harness(
          EMBEDDING_LOOKUP,
          [spec(TensorType.INT64, [1], [0n]), spec(TensorType.FLOAT32, [1, 2], [1, 2]), spec(TensorType.FLOAT32, [1, 2])],
          2,
        ),
      ).message,
    ).toMatch(/ids .* int64/);
    expect(
      prepareError(
        harness(
          EMBEDDING_LOOKUP,
          [
            spec(TensorType.INT32, [1], [0]),
            spec(TensorType.INT8, [1, 2], [1, 2], { scale: 1, zeroPoint: 1 }),
            spec(TensorType.FLOAT32, [1, 2]),
          ],
          2,
        ),
      ).message,
    ).toMatch(/zero point 0, got 1/);
    expect(
      prepareError(
        harness(
          EMBEDDING_LOOKUP,
          [spec(TensorType.INT32, [2], [0, 0]), spec(TensorType.FLOAT32, [1, 2], [1, 2]), spec(TensorType.FLOAT32, [1, 2])],
          2,
        ),
      ).message,
    ).toMatch(/expected \[2, 2\]/);
    expect(
      prepareError(
        harness(
          EMBEDDING_LOOKUP,
          [spec(TensorType.INT32, [1], [0]), spec(TensorType.FLOAT32, [2], [1, 2]), spec(TensorType.FLOAT32, [1])],
          2,
        ),
      ).message,
    ).toMatch(/at least 2 dimensions/);
  });
});
