import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { BATCH_TO_SPACE_ND } from './batch-to-space-nd.js';
import { constI32, constI64, harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function b2s(type: TensorType, inShape: number[], data: number[], block: number[], crops: number[], outShape: number[]) {
  return harness(
    BATCH_TO_SPACE_ND,
    [spec(type, inShape, data), constI32(block), constI32(crops, [block.length, 2]), spec(type, outShape)],
    3,
  );
}

describe('BATCH_TO_SPACE_ND', () => {
  it('TFLite SimpleConstTest: [4,2,2,1] block [2,2] -> [1,4,4,1]', () => {
    const h = b2s(TensorType.FLOAT32, [4, 2, 2, 1], iota(16, 1), [2, 2], [0, 0, 0, 0], [1, 4, 4, 1]).invoke();
    expect(h.outputArray()).toEqual([1, 5, 2, 6, 9, 13, 10, 14, 3, 7, 4, 8, 11, 15, 12, 16]);
  });

  it('crops the top/left and bottom/right', () => {
    // Same interleaving as above, then rows 1..3 and columns 0..2.
    const h = b2s(TensorType.INT8, [4, 2, 2, 1], iota(16, 1), [2, 2], [1, 0, 0, 1], [1, 3, 3, 1]).invoke();
    expect(h.outputArray()).toEqual([9, 13, 10, 3, 7, 4, 11, 15, 12]);
  });

  it('3-D NHC input (width 1) keeps the depth together', () => {
    // [4, 1, 2]: block [2] -> [2, 2, 2]; input batch b goes to out batch b % 2, row b >> 1.
    const h = b2s(TensorType.FLOAT32, [4, 1, 2], [1, 2, 3, 4, 5, 6, 7, 8], [2], [0, 0], [2, 2, 2]).invoke();
    expect(h.outputArray()).toEqual([1, 2, 5, 6, 3, 4, 7, 8]);
  });

  it('moves uint8 bytes like int8 (TFLite reference accepts uint8)', () => {
    const h = b2s(TensorType.UINT8, [4, 1, 1, 2], [0, 255, 1, 254, 2, 253, 3, 252], [2, 2], [0, 0, 0, 0], [1, 2, 2, 2]).invoke();
    expect(h.outputArray()).toEqual([0, 255, 1, 254, 2, 253, 3, 252]);
  });

  it('moves int16 (TFLite), refuses complex128 naming the handled types', () => {
    expect(b2s(TensorType.INT16, [4, 1, 1, 1], [1, 2, 3, 4], [2, 2], [0, 0, 0, 0], [1, 2, 2, 1]).prepare().invoke().outputArray()).toEqual([
      1, 2, 3, 4,
    ]);
    const h = b2s(TensorType.COMPLEX128, [4, 1, 1, 1], [1, 0, 2, 0, 3, 0, 4, 0], [2, 2], [0, 0, 0, 0], [1, 2, 2, 1]);
    expect(h.supportsAnswer()).toMatch(/^complex128 input \(handles float32, float16, float64, int8, uint8/);
    expect(prepareError(h).message).toMatch(/type complex128 \(tensor \d+\); supported: float32, float16/);
  });

  it('checks rank, block, crops and the output shape', () => {
    expect(prepareError(b2s(TensorType.FLOAT32, [4, 2], iota(8), [2], [0, 0], [2, 4])).message).toMatch(/3-D or 4-D/);
    expect(prepareError(b2s(TensorType.FLOAT32, [3, 2, 2, 1], iota(12), [2, 2], [0, 0, 0, 0], [1, 4, 4, 1])).message).toMatch(
      /batch 3 is not a multiple of the block size product 4/,
    );
    expect(prepareError(b2s(TensorType.FLOAT32, [4, 2, 2, 1], iota(16), [0, 2], [0, 0, 0, 0], [1, 4, 4, 1])).message).toMatch(
      /block_shape\[0\] is 0/,
    );
    expect(prepareError(b2s(TensorType.FLOAT32, [4, 2, 2, 1], iota(16), [2, 2], [0, 0, 0, 0], [1, 4, 3, 1])).message).toMatch(
      /expected \[1, 4, 4, 1\]/,
    );
    const i64 = harness(
      BATCH_TO_SPACE_ND,
      [
        spec(TensorType.FLOAT32, [4, 1, 1, 1], [1, 2, 3, 4]),
        constI64([2, 2]),
        constI32([0, 0, 0, 0], [2, 2]),
        spec(TensorType.FLOAT32, [1, 2, 2, 1]),
      ],
      3,
    );
    expect(prepareError(i64).message).toMatch(/block_shape .* int64/);
  });
});
