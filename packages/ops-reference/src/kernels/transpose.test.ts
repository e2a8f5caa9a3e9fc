import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessTensorSpec } from '@micrort/core/testing';
import { TRANSPOSE } from './transpose.js';

function transpose(
  type: TensorType,
  inShape: number[],
  input: number[] | bigint[],
  perm: number[],
  outShape: number[],
  permSpec: Partial<HarnessTensorSpec> = {},
): KernelHarness {
  return new KernelHarness({
    registration: TRANSPOSE,
    tensors: [
      { type, shape: inShape, data: input },
      { type: TensorType.INT32, shape: [perm.length], data: perm, constant: true, ...permSpec },
      { type, shape: outShape },
    ],
    inputs: [0, 1],
    outputs: [2],
  });
}

/** Straightforward transpose by multi-index, to check the kernel's strided loops against. */
function naiveTranspose(values: number[], shape: number[], perm: number[]): number[] {
  const outShape = perm.map((p) => shape[p]!);
  const n = values.length;
  const out = new Array<number>(n);
  const inStrides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  for (let o = 0; o < n; o++) {
    let rem = o;
    let src = 0;
    for (let k = outShape.length - 1; k >= 0; k--) {
      const idx = rem % outShape[k]!;
      rem = Math.floor(rem / outShape[k]!);
      src += idx * inStrides[perm[k]!]!;
    }
    out[o] = values[src]!;
  }
  return out;
}

const iota = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('TRANSPOSE', () => {
  it('2-D float32 matrix transpose', () => {
    expect(transpose(TensorType.FLOAT32, [2, 3], [1, 2, 3, 4, 5, 6], [1, 0], [3, 2]).invoke().outputArray()).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it('int8 NCHW -> NHWC (perm 0,2,3,1, as mobilenet_v2 does)', () => {
    // C=3 planes of 2x2: plane c holds 10c + (0..3)
    const input = [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23];
    const out = transpose(TensorType.INT8, [1, 3, 2, 2], input, [0, 2, 3, 1], [1, 2, 2, 3]).invoke().outputArray();
    expect(out).toEqual([0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23]);
  });

  it('3-D int16, every permutation matches a naive multi-index transpose', () => {
    const shape = [2, 3, 4];
    const values = iota(24).map((v) => v * 1000 - 12000);
    for (const perm of [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ]) {
      const outShape = perm.map((p) => shape[p]!);
      expect(transpose(TensorType.INT16, shape, values, perm, outShape).invoke().outputArray()).toEqual(
        naiveTranspose(values, shape, perm),
      );
    }
  });

  it('6-D reversal', () => {
    const shape = [1, 2, 1, 2, 3, 2];
    const perm = [5, 4, 3, 2, 1, 0];
    const values = iota(24);
    const out = transpose(TensorType.INT32, shape, values, perm, [2, 3, 2, 1, 2, 1]).invoke().outputArray();
    expect(out).toEqual(naiveTranspose(values, shape, perm));
  });

  it('int64 elements move as 8-byte units', () => {
    const input = [1n, -2n, 9007199254740993n, -9223372036854775808n, 5n, 6n];
    const h = transpose(TensorType.INT64, [3, 2], input, [1, 0], [2, 3]).invoke();
    expect(Array.from(h.output<BigInt64Array>())).toEqual([1n, 9007199254740993n, 5n, -2n, -9223372036854775808n, 6n]);
  });

  it('bool tensors', () => {
    expect(transpose(TensorType.BOOL, [2, 2], [1, 0, 0, 1], [1, 0], [2, 2]).invoke().outputArray()).toEqual([1, 0, 0, 1]);
    expect(transpose(TensorType.BOOL, [1, 2], [1, 0], [1, 0], [2, 1]).invoke().outputArray()).toEqual([1, 0]);
  });

  it('int64 perm tensor', () => {
    const h = transpose(TensorType.FLOAT32, [2, 1], [7, 8], [], [1, 2], { type: TensorType.INT64, shape: [2], data: [1n, 0n] });
    expect(h.invoke().outputArray()).toEqual([7, 8]);
  });

  describe('prepare rejects', () => {
    it('a repeated axis', () => {
      expect(() => transpose(TensorType.FLOAT32, [2, 2], [1, 2, 3, 4], [1, 1], [2, 2]).prepare()).toThrow(
        /not a permutation \(axis 1 repeated\)/,
      );
    });
    it('an axis out of range', () => {
      expect(() => transpose(TensorType.FLOAT32, [2, 2], [1, 2, 3, 4], [0, 2], [2, 2]).prepare()).toThrow(/perm\[1\] = 2 is out of range/);
    });
    it('a perm of the wrong length', () => {
      expect(() => transpose(TensorType.FLOAT32, [2, 2], [1, 2, 3, 4], [0, 1, 2], [2, 2]).prepare()).toThrow(/1-D tensor of 2 elements/);
    });
    it('an output shape that is not the permuted input shape', () => {
      expect(() => transpose(TensorType.FLOAT32, [2, 3], iota(6), [1, 0], [2, 3]).prepare()).toThrow(
        /does not match the permuted input shape \[3, 2\]/,
      );
    });
    it('7-D inputs', () => {
      expect(() => transpose(TensorType.FLOAT32, [1, 1, 1, 1, 1, 1, 1], [1], iota(7), [1, 1, 1, 1, 1, 1, 1]).prepare()).toThrow(
        /at most 6/,
      );
    });
    it('a non-constant perm', () => {
      expect(() => transpose(TensorType.FLOAT32, [2, 2], [1, 2, 3, 4], [1, 0], [2, 2], { constant: false }).prepare()).toThrow(
        /must be constant/,
      );
    });
    it('a different output type', () => {
      const h = new KernelHarness({
        registration: TRANSPOSE,
        tensors: [
          { type: TensorType.INT8, shape: [2], data: [1, 2] },
          { type: TensorType.INT32, shape: [1], data: [0], constant: true },
          { type: TensorType.INT16, shape: [2] },
        ],
        inputs: [0, 1],
        outputs: [2],
      });
      expect(() => h.prepare()).toThrow(/output type int16 differs from input type int8/);
    });
  });
});
