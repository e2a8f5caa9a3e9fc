import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { SPACE_TO_BATCH_ND, OP_DATA_SPACE_TO_BATCH_ND_BYTES } from './space-to-batch-nd.js';
import { constI32, harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function s2b(type: TensorType, inShape: number[], data: number[], block: number[], pads: number[], outShape: number[], q = {}) {
  return harness(
    SPACE_TO_BATCH_ND,
    [spec(type, inShape, data, q), constI32(block), constI32(pads, [block.length, 2]), spec(type, outShape, undefined, q)],
    3,
  );
}

describe('SPACE_TO_BATCH_ND', () => {
  it('TFLite SimpleConstTest: [1,4,4,1] block [2,2] -> [4,2,2,1] (inverse of BATCH_TO_SPACE_ND)', () => {
    const input = [1, 5, 2, 6, 9, 13, 10, 14, 3, 7, 4, 8, 11, 15, 12, 16];
    const h = s2b(TensorType.FLOAT32, [1, 4, 4, 1], input, [2, 2], [0, 0, 0, 0], [4, 2, 2, 1]).invoke();
    expect(h.outputArray()).toEqual(iota(16, 1));
    expect(h.persistentBytes).toBe(16); // SpaceToBatchParams (4 bytes), 16-aligned
    expect(OP_DATA_SPACE_TO_BATCH_ND_BYTES).toBe(4);
  });

  it('TFLite SimplePaddingConstTest: [1,5,2,1] block [3,2] paddings [[1,0],[2,0]] -> [6,2,2,1]', () => {
    const h = s2b(TensorType.FLOAT32, [1, 5, 2, 1], iota(10, 1), [3, 2], [1, 0, 2, 0], [6, 2, 2, 1]).invoke();
    expect(h.outputArray()).toEqual([0, 0, 0, 5, 0, 0, 0, 6, 0, 1, 0, 7, 0, 2, 0, 8, 0, 3, 0, 9, 0, 4, 0, 10]);
  });

  it('int8 pads with raw 0, not the zero point (TFLM never sets output_offset)', () => {
    const q = { scale: 0.5, zeroPoint: -7 };
    const h = s2b(TensorType.INT8, [1, 2, 1, 1], [3, 4], [2, 1], [1, 1], [2, 2, 1, 1], q).invoke();
    // padded column: [pad, 3, 4, pad] -> batch 0 takes rows 0, 2; batch 1 rows 1, 3
    expect(h.outputArray()).toEqual([0, 4, 3, 0]);
  });

  it('uint8 pads with the zero point, as TFLite does', () => {
    const q = { scale: 0.5, zeroPoint: 128 };
    const h = s2b(TensorType.UINT8, [1, 2, 1, 1], [3, 4], [2, 1], [1, 1], [2, 2, 1, 1], q).invoke();
    expect(h.outputArray()).toEqual([128, 4, 3, 128]);
  });

  it('3-D input', () => {
    const h = s2b(TensorType.FLOAT32, [1, 4, 2], iota(8), [2], [0, 0], [2, 2, 2]).invoke();
    expect(h.outputArray()).toEqual([0, 1, 4, 5, 2, 3, 6, 7]);
  });

  it('checks paddings and output shape, refuses complex128', () => {
    expect(prepareError(s2b(TensorType.FLOAT32, [1, 5, 2, 1], iota(10), [2, 2], [0, 0, 0, 0], [4, 3, 1, 1])).message).toMatch(
      /padded spatial dimension 0 \(5\) is not a multiple of block_shape\[0\] = 2/,
    );
    expect(prepareError(s2b(TensorType.FLOAT32, [1, 4, 2, 1], iota(8), [2, 2], [0, -1, 0, 0], [4, 2, 1, 1])).message).toMatch(
      /must be non-negative/,
    );
    expect(prepareError(s2b(TensorType.COMPLEX128, [1, 2, 2, 1], iota(8), [2, 2], [0, 0, 0, 0], [4, 1, 1, 1])).message).toMatch(
      /complex128/,
    );
  });
});
