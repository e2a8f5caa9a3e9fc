import { describe, expect, it } from 'vitest';
import { TensorType, type CumsumOptions } from '@micrort/core';
import { dequantize, expectWithinSteps, f32, harness, i32, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { CUMSUM } from './cumsum.js';

const I8 = TensorType.INT8;
const opts = (exclusive: boolean, reverse: boolean): CumsumOptions => ({ exclusive, reverse });
const X = [1, 2, 3, 4, 5, 6, 7, 8];

describe('CUMSUM', () => {
  it('float32 along axis 1 of [2, 4] in all four option combinations (TFLM cumsum_test)', () => {
    const cumsum = (o: CumsumOptions) => run(CUMSUM, [f32([2, 4], X), i32([1], [1], true), f32([2, 4])], [0, 1], [2], o);
    expect(cumsum(opts(false, false))).toEqual([1, 3, 6, 10, 5, 11, 18, 26]);
    expect(cumsum(opts(true, false))).toEqual([0, 1, 3, 6, 0, 5, 11, 18]);
    expect(cumsum(opts(false, true))).toEqual([10, 9, 7, 4, 26, 21, 15, 8]);
    expect(cumsum(opts(true, true))).toEqual([9, 7, 4, 0, 21, 15, 8, 0]);
  });

  it('negative and leading axes; no options means inclusive and forward', () => {
    expect(run(CUMSUM, [f32([2, 4], X), i32([], [-2], true), f32([2, 4])], [0, 1], [2])).toEqual([1, 2, 3, 4, 6, 8, 10, 12]);
    expect(run(CUMSUM, [f32([2, 2, 2], X), i32([1], [1], true), f32([2, 2, 2])], [0, 1], [2])).toEqual([1, 2, 4, 6, 5, 6, 12, 14]);
  });

  it('a non-constant axis is read at invoke; an invalid one fails the invoke as in TFLM', () => {
    const h = harness(CUMSUM, [f32([2, 4], X), i32([1], [0]), f32([2, 4])], [0, 1], [2]).prepare();
    expect(h.invoke().outputArray()).toEqual([1, 2, 3, 4, 6, 8, 10, 12]);
    h.setInput(1, [2]);
    expect(kernelError(() => h.invoke()).message).toMatch(/CUMSUM \(node 0\): invalid axis 2 for a 2-D input/);
    expect(kernelError(() => harness(CUMSUM, [f32([2, 4], X), i32([1], [-3], true), f32([2, 4])], [0, 1], [2]).prepare()).message).toMatch(
      /invalid axis -3/,
    );
  });

  it('int8 with zero point 0: within one step of the running sums', () => {
    const data = [10, -20, 30, 127, -128, 5, 6, 7, 8, 9];
    const out = run(CUMSUM, [q(I8, [2, 5], 0.05, 0, data), i32([1], [1], true), q(I8, [2, 5], 0.12, 4)], [0, 1], [2]);
    const real = dequantize(data, 0.05, 0);
    const want = real.map((_, i) => real.slice(i - (i % 5), i + 1).reduce((a, b) => a + b, 0));
    expectWithinSteps(out, quantize(want, 0.12, 4));
  });

  it('int8 with a non-zero zero point: every running sum starts at -zero point (in input scale), as TFLM', () => {
    const [s, z, so, zo] = [0.05, -10, 0.15, 0];
    const data = [-10, -10, -10, 30, 50, -128];
    const out = run(CUMSUM, [q(I8, [6], s, z, data), i32([1], [0], true), q(I8, [6], so, zo)], [0, 1], [2], opts(false, true));
    const real = dequantize(data, s, z);
    const want = real.map((_, i) => real.slice(i).reduce((a, b) => a + b, 0) - z * s);
    expectWithinSteps(out, quantize(want, so, zo));
    // Exclusive: the first output of the (reversed) run is the start value alone, -zp = 10 input steps = 0.5.
    const ex = run(CUMSUM, [q(I8, [6], s, z, data), i32([1], [0], true), q(I8, [6], so, zo)], [0, 1], [2], opts(true, true));
    expect(ex[5]).toBe(quantize([-z * s], so, zo)[0]);
  });

  it('sums int32 (TFLite), refuses int16, axis tensors that are not one int32 value, and shape mismatches; int8 keeps its 36-byte OpData', () => {
    expect(
      harness(CUMSUM, [i32([3], [1, 2, 2147483647]), i32([1], [0], true), i32([3])], [0, 1], [2])
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([1, 3, -2147483646]);
    const h = harness(
      CUMSUM,
      [{ type: TensorType.INT16, shape: [2], data: [1, 2] }, i32([1], [0], true), { type: TensorType.INT16, shape: [2] }],
      [0, 1],
      [2],
    );
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8, int32, int64)');
    expect(kernelError(() => h.prepare()).message).toMatch(
      /unsupported input type int16 \(tensor 0\); supported: float32, int8, int32, int64/,
    );
    expect(kernelError(() => harness(CUMSUM, [f32([2], [1, 2]), i32([2], [0, 0], true), f32([2])], [0, 1], [2]).prepare()).message).toMatch(
      /must hold one element, it holds 2/,
    );
    expect(
      kernelError(() =>
        harness(
          CUMSUM,
          [f32([2], [1, 2]), { type: TensorType.INT64, shape: [1], data: [0n], constant: true }, f32([2])],
          [0, 1],
          [2],
        ).prepare(),
      ).message,
    ).toMatch(/expected int32/);
    expect(kernelError(() => harness(CUMSUM, [f32([2], [1, 2]), i32([1], [0], true), f32([1, 2])], [0, 1], [2]).prepare()).message).toMatch(
      /differs from the input shape/,
    );
    expect(harness(CUMSUM, [f32([2], [1, 2]), i32([1], [0], true), f32([2])], [0, 1], [2]).prepare().persistentBytes).toBe(0);
    expect(
      harness(CUMSUM, [q(I8, [2], 0.1, 0, [1, 2]), i32([1], [0], true), q(I8, [2], 0.1, 0)], [0, 1], [2]).prepare().persistentBytes,
    ).toBe(48);
  });
});
