import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SPACE_TO_DEPTH } from './space-to-depth.js';
import { harness, iota, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

function s2d(type: TensorType, inShape: number[], data: number[], blockSize: number, outShape: number[]) {
  return harness(SPACE_TO_DEPTH, [spec(type, inShape, data), spec(type, outShape)], 1, { blockSize });
}

describe('SPACE_TO_DEPTH', () => {
  it('TFLite tests: [1,2,2,2] -> [1,1,1,8]; [1,4,4,1] -> [1,2,2,4]', () => {
    expect(s2d(TensorType.FLOAT32, [1, 2, 2, 2], iota(8, 1), 2, [1, 1, 1, 8]).invoke().outputArray()).toEqual(iota(8, 1));
    expect(s2d(TensorType.INT8, [1, 4, 4, 1], iota(16, 1), 2, [1, 2, 2, 4]).invoke().outputArray()).toEqual([
      1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16,
    ]);
  });

  it('is the inverse of DEPTH_TO_SPACE on a 2-batch, block-3 tensor (uint8)', () => {
    const input = iota(2 * 3 * 6 * 2).map((v) => v % 256);
    const h = s2d(TensorType.UINT8, [2, 3, 6, 2], input, 3, [2, 1, 2, 18]).invoke();
    const out = h.outputArray();
    // output pixel (b, 0, ow) channel ((dy * 3 + dx) * 2 + c) = input (b, dy, ow * 3 + dx, c)
    for (let b = 0; b < 2; b++)
      for (let ow = 0; ow < 2; ow++)
        for (let dy = 0; dy < 3; dy++)
          for (let dx = 0; dx < 3; dx++)
            for (let c = 0; c < 2; c++)
              expect(out[(b * 2 + ow) * 18 + (dy * 3 + dx) * 2 + c]).toBe(input[((b * 3 + dy) * 6 + ow * 3 + dx) * 2 + c]);
  });

  it('refuses int16, sizes that are not multiples of the block and a wrong output', () => {
    expect(prepareError(s2d(TensorType.INT16, [1, 2, 2, 1], iota(4), 2, [1, 1, 1, 4])).message).toMatch(/int16/);
    expect(prepareError(s2d(TensorType.FLOAT32, [1, 3, 2, 1], iota(6), 2, [1, 1, 1, 4])).message).toMatch(
      /height 3 and width 2 must be multiples of block_size 2/,
    );
    expect(preparedShape(s2d(TensorType.FLOAT32, [1, 2, 2, 1], iota(4), 2, [1, 1, 4]))).toEqual([1, 1, 1, 4]);
  });
});
