import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { BROADCAST_ARGS } from './broadcast-args.js';
import { harness, invokeError, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

function args(type: TensorType, a: number[], b: number[], outLen = Math.max(a.length, b.length)) {
  const v = (x: number[]) => (type === TensorType.INT64 ? x.map((n) => BigInt(n)) : x);
  return harness(BROADCAST_ARGS, [spec(type, [a.length], v(a)), spec(type, [b.length], v(b)), spec(type, [outLen])], 2);
}

describe('BROADCAST_ARGS', () => {
  it('TFLM tests: [8,1,6,1] with [7,1,5] -> [8,7,6,5]; [2,3,4] with [] -> [2,3,4]', () => {
    expect(args(TensorType.INT32, [8, 1, 6, 1], [7, 1, 5]).invoke().outputArray()).toEqual([8, 7, 6, 5]);
    expect(args(TensorType.INT32, [2, 3, 4], []).invoke().outputArray()).toEqual([2, 3, 4]);
  });

  it('int64 shapes (read as int, written sign-extended), no BigInt in the loop', () => {
    const h = args(TensorType.INT64, [1, 4], [3, 1, 1]).invoke();
    expect(Array.from(h.output<BigInt64Array>())).toEqual([3n, 1n, 4n]);
  });

  it('incompatible shapes fail the invoke with the dimension named', () => {
    expect(invokeError(args(TensorType.INT32, [2, 3], [4, 3])).message).toMatch(
      /not broadcastable: dimension 1 from the end is 2 in shape 1 and 4 in shape 2/,
    );
  });

  it('checks types, ranks and the output length', () => {
    expect(prepareError(args(TensorType.INT16, [2], [2])).message).toMatch(/int16/);
    expect(preparedShape(args(TensorType.INT32, [2, 3], [3], 3))).toEqual([2]);
    const mixed = harness(
      BROADCAST_ARGS,
      [spec(TensorType.INT32, [1], [1]), spec(TensorType.INT64, [1], [1n]), spec(TensorType.INT32, [1])],
      2,
    );
    expect(prepareError(mixed).message).toMatch(/shape 2 type int64 .* differs from shape 1 type int32/);
    const twoD = harness(
      BROADCAST_ARGS,
      [spec(TensorType.INT32, [1, 2], [1, 2]), spec(TensorType.INT32, [2], [1, 2]), spec(TensorType.INT32, [2])],
      2,
    );
    expect(prepareError(twoD).message).toMatch(/shape 1 \(tensor 0\) must be 1-D/);
  });
});
