import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { DYNAMIC_UPDATE_SLICE } from './dynamic-update-slice.js';
import { declaredInPlace, harness, invokeAliased, iota, prepareError, spec } from './__fixtures__/data-testing.js';

function dus(
  type: TensorType,
  shape: number[],
  operand: number[],
  updShape: number[],
  update: number[],
  start: number[],
  indexType = TensorType.INT32,
) {
  const idx = indexType === TensorType.INT64 ? start.map((v) => BigInt(v)) : start;
  return harness(
    DYNAMIC_UPDATE_SLICE,
    [spec(type, shape, operand), spec(type, updShape, update), spec(indexType, [start.length], idx), spec(type, shape)],
    3,
  );
}

describe('DYNAMIC_UPDATE_SLICE', () => {
  it('TFLite SimpleTestF32: 3x3 operand, 2x1 update at [1, 1]', () => {
    const h = dus(TensorType.FLOAT32, [3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9], [2, 1], [-1, -2], [1, 1]).invoke();
    expect(h.outputArray()).toEqual([1, 2, 3, 4, -1, 6, 7, -2, 9]);
  });

  it('clamps start indices into [0, dim - update_dim] (int64 indices, negative and too large)', () => {
    const h = dus(TensorType.INT8, [2, 4], iota(8), [1, 2], [-5, -6], [-3, 9], TensorType.INT64).invoke();
    expect(h.outputArray()).toEqual([0, 1, -5, -6, 4, 5, 6, 7]);
    const big = dus(TensorType.INT16, [5], iota(5), [2], [100, 200], [4]).invoke();
    expect(big.outputArray()).toEqual([0, 1, 2, 100, 200]);
  });

  it('an update as large as the operand replaces it; an empty update leaves the copy', () => {
    expect(dus(TensorType.INT32, [2, 2], [1, 2, 3, 4], [2, 2], [5, 6, 7, 8], [1, 1]).invoke().outputArray()).toEqual([5, 6, 7, 8]);
    expect(dus(TensorType.INT32, [2, 2], [1, 2, 3, 4], [0, 2], [], [1, 0]).invoke().outputArray()).toEqual([1, 2, 3, 4]);
  });

  it('6-D operand and uint8 bytes', () => {
    const shape = [1, 2, 1, 2, 1, 3];
    const h = dus(TensorType.UINT8, shape, iota(12), [1, 1, 1, 1, 1, 2], [200, 201], [0, 1, 0, 1, 0, 1]).invoke();
    expect(h.outputArray()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 200, 201]);
  });

  it('declares the operand in place; aliasing it with the output gives the same result', () => {
    const make = () => dus(TensorType.FLOAT32, [3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9], [2, 1], [-1, -2], [1, 1]);
    expect(declaredInPlace(make().prepare(), DYNAMIC_UPDATE_SLICE)).toBe(0);
    expect(invokeAliased(make, 0).outputArray()).toEqual([1, 2, 3, 4, -1, 6, 7, -2, 9]);
  });

  it("updates TFLite's bool; refuses uint32 operands, a wrong index count, an update larger than the operand", () => {
    expect(dus(TensorType.BOOL, [2], [1, 0], [1], [0], [1]).invoke().outputArray()).toEqual([1, 0]);
    expect(prepareError(dus(TensorType.UINT32, [2], [1, 0], [1], [1], [0])).message).toMatch(
      /unsupported operand type uint32 \(tensor 0\)/,
    );
    expect(prepareError(dus(TensorType.FLOAT32, [2, 2], iota(4), [1, 1], [1], [0])).message).toMatch(
      /start_indices has shape \[1\], expected \[2\]/,
    );
    expect(prepareError(dus(TensorType.FLOAT32, [2, 2], iota(4), [3, 1], [1, 2, 3], [0, 0])).message).toMatch(
      /larger than the operand .* in dimension 0/,
    );
    expect(prepareError(dus(TensorType.FLOAT32, [2, 2], iota(4), [2], [1, 2], [0, 0])).message).toMatch(
      /expected 2 dimensions like the operand/,
    );
  });
});
