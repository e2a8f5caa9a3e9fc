import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import {
  dequantize,
  expectFloatClose,
  expectWithinSteps,
  f32,
  harness,
  i32,
  kernelError,
  q,
  quantize,
  run,
} from './__fixtures__/math-testing.js';
import { SQUARED_DIFFERENCE } from './squared-difference.js';

const I8 = TensorType.INT8;
const I16 = TensorType.INT16;

describe('SQUARED_DIFFERENCE', () => {
  it('float32 with broadcasting (TFLM squared_difference_test FloatBroadcast values)', () => {
    const a = [-0.2, 0.2, -1.2, 0.8, 0.5, -0.5, -0.2, 0.2, -1.2, 0.8, 0.5, -0.5];
    const out = run(SQUARED_DIFFERENCE, [f32([2, 3, 2], a), f32([1], [0.5]), f32([2, 3, 2])], [0, 1], [2]);
    expectFloatClose(
      out,
      a.map((v) => (v - 0.5) ** 2),
    );
  });

  it('int32 wraps like C: (a - b)^2 modulo 2^32', () => {
    expect(run(SQUARED_DIFFERENCE, [i32([3], [-1, 3, 100000]), i32([3], [-4, 3, -100000]), i32([3])], [0, 1], [2])).toEqual([
      9,
      0,
      (200000 * 200000) | 0,
    ]);
  });

  it('int8: within one step of the real squared difference, also broadcasting both ways', () => {
    const a = [-30, -5, 0, 3, 17, 90, -128, 127];
    const b = [12, -40];
    const [sa, za, sb, zb, so, zo] = [0.05, -3, 0.04, 5, 60 / 255, -128];
    const out = run(SQUARED_DIFFERENCE, [q(I8, [4, 1, 2], sa, za, a), q(I8, [1, 2, 1], sb, zb, b), q(I8, [4, 2, 2], so, zo)], [0, 1], [2]);
    const ra = dequantize(a, sa, za);
    const rb = dequantize(b, sb, zb);
    const want: number[] = [];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 2; j++) for (let k = 0; k < 2; k++) want.push((ra[i * 2 + k]! - rb[j]!) ** 2);
    expectWithinSteps(out, quantize(want, so, zo));
  });

  it('int16 (zero points 0): within one step; other zero points are refused', () => {
    const a = [1000, -20000, 32767, 5];
    const b = [-1000, 10000, 32767, -5];
    const out = run(SQUARED_DIFFERENCE, [q(I16, [4], 1 / 1024, 0, a), q(I16, [4], 1 / 2048, 0, b), q(I16, [4], 0.25, 0)], [0, 1], [2]);
    const want = a.map((v, i) => (v / 1024 - b[i]! / 2048) ** 2);
    expectWithinSteps(out, quantize(want, 0.25, 0, I16));
    expect(
      kernelError(() =>
        harness(SQUARED_DIFFERENCE, [q(I16, [1], 0.1, 1, [1]), q(I16, [1], 0.1, 0, [1]), q(I16, [1], 0.1, 0)], [0, 1], [2]).prepare(),
      ).message,
    ).toMatch(/input 1 \(tensor 0\) zero point must be 0, got 1/);
  });

  it('refuses other types and mixed types; keeps TFLM OpData (bool + ArithmeticParams, 112 bytes)', () => {
    const h = harness(
      SQUARED_DIFFERENCE,
      [
        { type: TensorType.INT64, shape: [1], data: [1n] },
        { type: TensorType.INT64, shape: [1], data: [1n] },
        { type: TensorType.INT64, shape: [1] },
      ],
      [0, 1],
      [2],
    );
    expect(h.supportsAnswer()).toBe('int64 input (handles float32, int32, int8, int16)');
    expect(kernelError(() => h.prepare()).message).toMatch(/type int64 \(tensor \d+\); supported:/);
    expect(kernelError(() => harness(SQUARED_DIFFERENCE, [f32([1], [1]), i32([1], [1]), f32([1])], [0, 1], [2]).prepare()).message).toMatch(
      /types differ/,
    );
    expect(harness(SQUARED_DIFFERENCE, [f32([1], [1]), f32([1], [1]), f32([1])], [0, 1], [2]).prepare().persistentBytes).toBe(112);
  });
});
