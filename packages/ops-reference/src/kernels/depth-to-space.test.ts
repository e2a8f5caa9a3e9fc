import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { DEPTH_TO_SPACE } from './depth-to-space.js';
import { harness, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function d2s(type: TensorType, inShape: number[], data: number[], blockSize: number, outShape: number[]) {
  return harness(DEPTH_TO_SPACE, [spec(type, inShape, data), spec(type, outShape)], 1, { blockSize });
}

describe('DEPTH_TO_SPACE', () => {
  it('TFLM SimpleFloat32 and a 2x2 image of 4 channels', () => {
    expect(d2s(TensorType.FLOAT32, [1, 1, 1, 4], [1.5, 2.5, 3.5, 4.5], 2, [1, 2, 2, 1]).invoke().outputArray()).toEqual([
      1.5, 2.5, 3.5, 4.5,
    ]);
    const input = [1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16];
    expect(d2s(TensorType.INT8, [1, 2, 2, 4], input, 2, [1, 4, 4, 1]).invoke().outputArray()).toEqual(iota(16, 1));
  });

  it('keeps output channels together (depth 8, block 2 -> depth 2), across batches', () => {
    // Input pixel channels c = ((dy * 2 + dx) * 2 + k): output (dy, dx) gets channels [2(2dy+dx), +1].
    const h = d2s(TensorType.FLOAT32, [2, 1, 1, 8], [...iota(8), ...iota(8, 100)], 2, [2, 2, 2, 2]).invoke();
    expect(h.outputArray()).toEqual([...iota(8), ...iota(8, 100)]);
  });

  it('uint8 as a byte copy', () => {
    expect(d2s(TensorType.UINT8, [1, 1, 1, 4], [200, 201, 202, 203], 2, [1, 2, 2, 1]).invoke().outputArray()).toEqual([200, 201, 202, 203]);
  });

  it('refuses int16 (as TFLM), a bad block size, depth not divisible and a wrong output', () => {
    expect(prepareError(d2s(TensorType.INT16, [1, 1, 1, 4], iota(4), 2, [1, 2, 2, 1])).message).toMatch(
      /type int16 \(tensor \d+\); supported:/,
    );
    expect(prepareError(d2s(TensorType.FLOAT32, [1, 1, 1, 4], iota(4), 0, [1, 2, 2, 1])).message).toMatch(/block_size must be > 0, got 0/);
    expect(prepareError(d2s(TensorType.FLOAT32, [1, 1, 1, 6], iota(6), 2, [1, 2, 2, 1])).message).toMatch(
      /depth 6 is not a multiple of block_size\^2 = 4/,
    );
    expect(prepareError(d2s(TensorType.FLOAT32, [1, 1, 1, 4], iota(4), 2, [1, 1, 4, 1])).message).toMatch(/expected \[1, 2, 2, 1\]/);
    expect(prepareError(d2s(TensorType.FLOAT32, [1, 1, 4], iota(4), 2, [1, 2, 2])).message).toMatch(/4-D/);
  });
});
