import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { GATHER } from './gather.js';
import { harness, invokeError, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function gather(
  type: TensorType,
  shape: number[],
  params: number[],
  idxShape: number[],
  idx: number[],
  outShape: number[],
  axis = 0,
  batchDims = 0,
  idxType = TensorType.INT32,
) {
  const indices = idxType === TensorType.INT64 ? idx.map((v) => BigInt(v)) : idx;
  return harness(GATHER, [spec(type, shape, params), spec(idxType, idxShape, indices), spec(type, outShape)], 2, { axis, batchDims });
}

describe('GATHER', () => {
  it('TFLM GatherOp_Shuffle: [2,2] params, positions [1, 0]', () => {
    expect(gather(TensorType.FLOAT32, [2, 2], [-2, 0.5, 0.75, 0.875], [2], [1, 0], [2, 2]).invoke().outputArray()).toEqual([
      0.75, 0.875, -2, 0.5,
    ]);
  });

  it('axis 1 with 2-D indices, and the same axis written -1', () => {
    // params [2, 3]: gather columns [[2, 0], [1, 1]] -> [2, 2, 2]
    const out = [2, 0, 1, 1, 5, 3, 4, 4];
    expect(gather(TensorType.INT8, [2, 3], iota(6), [2, 2], [2, 0, 1, 1], [2, 2, 2], 1).invoke().outputArray()).toEqual(out);
    expect(gather(TensorType.INT8, [2, 3], iota(6), [2, 2], [2, 0, 1, 1], [2, 2, 2], -1).invoke().outputArray()).toEqual(out);
  });

  it('batch_dims 1: each batch row uses its own indices', () => {
    // params [2, 3, 2], indices [2, 2], axis 1 -> [2, 2, 2]
    const h = gather(TensorType.FLOAT32, [2, 3, 2], iota(12), [2, 2], [2, 0, 1, 1], [2, 2, 2], 1, 1).invoke();
    expect(h.outputArray()).toEqual([4, 5, 0, 1, 8, 9, 8, 9]);
    const neg = gather(TensorType.FLOAT32, [2, 3, 2], iota(12), [2, 2], [2, 0, 1, 1], [2, 2, 2], 1, -1).invoke();
    expect(neg.outputArray()).toEqual([4, 5, 0, 1, 8, 9, 8, 9]);
  });

  it('uint8 params (TFLite reference), scalar indices drop the axis', () => {
    expect(gather(TensorType.UINT8, [3, 2], [1, 2, 3, 4, 250, 251], [], [2], [2]).invoke().outputArray()).toEqual([250, 251]);
  });

  it('an index out of range fails the invoke, naming its position and the axis size', () => {
    const h = gather(TensorType.FLOAT32, [3], [1, 2, 3], [2], [0, 3], [2]);
    expect(invokeError(h).message).toMatch(/indices\[1\] = 3 is out of range: the gathered axis has size 3/);
    h.setInput(1, [-1, 0]);
    expect(() => h.invoke()).toThrow(/indices\[0\] = -1/);
    // The node stays usable: valid indices run again.
    h.setInput(1, [2, 0]);
    expect(h.invoke().outputArray()).toEqual([3, 1]);
  });

  it("gathers TFLite's int16 params with int64 positions; refuses complex128 params, bad batch_dims and a wrong output", () => {
    expect(gather(TensorType.INT16, [2], [1, -2], [1], [1], [1]).prepare().invoke().outputArray()).toEqual([-2]);
    expect(gather(TensorType.FLOAT32, [2], [1, 2], [1], [1], [1], 0, 0, TensorType.INT64).prepare().invoke().outputArray()).toEqual([2]);
    const c = gather(TensorType.COMPLEX128, [1], [1, 2], [1], [0], [1]);
    expect(c.supportsAnswer()).toMatch(/^complex128 input \(handles float32/);
    expect(prepareError(c).message).toMatch(/unsupported params type complex128 \(tensor 0\)/);
    expect(prepareError(gather(TensorType.FLOAT32, [2, 2], iota(4), [2], [0, 1], [2, 2], 0, 1)).message).toMatch(
      /batch_dims 1 must not exceed axis 0/,
    );
    expect(prepareError(gather(TensorType.FLOAT32, [2, 2], iota(4), [3], [0, 1, 0], [2, 2], 0)).message).toMatch(/expected \[3, 2\]/);
    expect(prepareError(gather(TensorType.FLOAT32, [2, 2], iota(4), [1], [0], [2, 1], 2)).message).toMatch(/axis 2 is out of range/);
  });
});
