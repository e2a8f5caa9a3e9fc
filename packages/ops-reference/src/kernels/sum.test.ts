import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { dequantize, expectWithinSteps, f32, harness, i32, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { SUM } from './sum.js';

const I8 = TensorType.INT8;
const X = Array.from({ length: 24 }, (_, i) => i + 1);

describe('SUM', () => {
  it('float32 over one axis, several axes with keep_dims, negative and duplicate axes (TFLM reduce_test SumFloat)', () => {
    expect(run(SUM, [f32([2, 3, 4], X), i32([1], [1], true), f32([2, 4])], [0, 1], [2], { keepDims: false })).toEqual([
      15, 18, 21, 24, 51, 54, 57, 60,
    ]);
    expect(run(SUM, [f32([2, 3, 4], X), i32([3], [0, -1, 2], true), f32([1, 3, 1])], [0, 1], [2], { keepDims: true })).toEqual([
      68, 100, 132,
    ]);
    expect(run(SUM, [f32([2, 3], [1, 2, 3, 4, 5, 6]), i32([0], [], true), f32([2, 3])], [0, 1], [2], { keepDims: false })).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });

  it('float32 sums in input order in float32', () => {
    const f = Math.fround;
    const x = [1e8, 1, -1e8, 1];
    expect(run(SUM, [f32([4], x), i32([1], [0], true), f32([])], [0, 1], [2])).toEqual([f(f(f(f(1e8) + 1) - 1e8) + 1)]);
  });

  it('int8 and int16: within one step of the real sum, with the input zero point removed', () => {
    const x = [-128, -10, 0, 7, 127, 100, -50, 3, 9, -1];
    const out = run(SUM, [q(I8, [2, 5], 0.02, -10, x), i32([1], [-1], true), q(I8, [2], 0.06, 0)], [0, 1], [2]);
    const real = dequantize(x, 0.02, -10);
    expectWithinSteps(
      out,
      quantize(
        [real.slice(0, 5), real.slice(5)].map((r) => r.reduce((a, b) => a + b, 0)),
        0.06,
        0,
      ),
    );
    const y = [32767, -32768, 1000, 20000, 20000, 20000];
    const out16 = run(
      SUM,
      [q(TensorType.INT16, [2, 3], 0.001, 0, y), i32([1], [1], true), q(TensorType.INT16, [2], 0.005, 0)],
      [0, 1],
      [2],
    );
    expectWithinSteps(out16, quantize([(32767 - 32768 + 1000) * 0.001, 60000 * 0.001], 0.005, 0, TensorType.INT16));
  });

  it('int8 saturates; an empty input gives raw zeros as TFLM', () => {
    expect(run(SUM, [q(I8, [4], 1, 0, [100, 100, 100, 100]), i32([1], [0], true), q(I8, [], 1, 0)], [0, 1], [2])).toEqual([127]);
    expect(run(SUM, [q(I8, [0, 2], 1, 0, []), i32([1], [0], true), q(I8, [2], 1, 5)], [0, 1], [2])).toEqual([0, 0]);
  });

  it('checks axes and the output shape; requests one int32 of scratch per output for integer sums only', () => {
    expect(
      kernelError(() => harness(SUM, [f32([2, 3], X.slice(0, 6)), i32([1], [2], true), f32([2])], [0, 1], [2]).prepare()).message,
    ).toMatch(/axis\[0\] = 2 is out of range for a 2-D input/);
    expect(
      kernelError(() => harness(SUM, [f32([2, 3], X.slice(0, 6)), i32([1], [1], true), f32([3])], [0, 1], [2]).prepare()).message,
    ).toMatch(/output shape \[3\] has 3 elements, reducing \[2, 3\] over axes \[1\] gives 2/);
    expect(kernelError(() => harness(SUM, [f32([2, 3], X.slice(0, 6)), i32([1], [1]), f32([2])], [0, 1], [2]).prepare()).message).toMatch(
      /axis tensor 1 must be constant/,
    );
    expect(
      kernelError(() =>
        harness(SUM, [f32([2, 3], X.slice(0, 6)), i32([1], [1], true), f32([2])], [0, 1], [2], { keepDims: true }).prepare(),
      ).message,
    ).toMatch(/keep_dims is set/);
    const h = harness(
      SUM,
      [{ type: TensorType.UINT32, shape: [2], data: [1, 2] }, i32([1], [0], true), { type: TensorType.UINT32, shape: [] }],
      [0, 1],
      [2],
    );
    expect(h.supportsAnswer()).toBe('uint32 input (handles float32, int8, int16, int32, int64, uint8)');
    expect(harness(SUM, [f32([2, 3], X.slice(0, 6)), i32([1], [1], true), f32([2])], [0, 1], [2]).prepare().scratchSizes).toEqual([]);
    const hq = harness(SUM, [q(I8, [2, 3], 0.1, 0, [1, 2, 3, 4, 5, 6]), i32([1], [1], true), q(I8, [2], 0.1, 0)], [0, 1], [2]).prepare();
    expect(hq.scratchSizes).toEqual([8]);
    expect(hq.persistentBytes).toBe(48);
  });
});
