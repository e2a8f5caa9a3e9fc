import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { dequantize, expectWithinSteps, f32, harness, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { PRELU } from './prelu.js';

const I8 = TensorType.INT8;
const I16 = TensorType.INT16;
const U8 = TensorType.UINT8;

describe('PRELU', () => {
  it('float32 with a per-channel alpha broadcast over [1, 2, 2, 3] (TFLM prelu_test FloatPreluActivationsOpTest)', () => {
    const input = [0, 0, 0, 1, 1, 1, -1, -1, -1, -2, -2, -2];
    const out = run(PRELU, [f32([1, 2, 2, 3], input), f32([1, 1, 3], [0, 1, 2], true), f32([1, 2, 2, 3])], [0, 1], [2]);
    expect(out).toEqual([0, 0, 0, 1, 1, 1, -0, -1, -2, -0, -2, -4]);
  });

  it('int8: positive inputs rescaled, negative ones times alpha; within one step of the real result', () => {
    const input = [-128, -60, -1, 0, 1, 60, 127, -100, 30, 5, -5, 90];
    const alpha = [10, -30, 127];
    const [si, zi, sa, za, so, zo] = [0.05, 0, 0.003, -20, 0.04, 3];
    const out = run(
      PRELU,
      [q(I8, [1, 2, 2, 3], si, zi, input), q(I8, [1, 1, 3], sa, za, alpha, true), q(I8, [1, 2, 2, 3], so, zo)],
      [0, 1],
      [2],
    );
    const rx = dequantize(input, si, zi);
    const ra = dequantize(alpha, sa, za);
    expectWithinSteps(
      out,
      quantize(
        rx.map((x, i) => (x >= 0 ? x : x * ra[i % 3]!)),
        so,
        zo,
      ),
    );
  });

  it('int16 takes an int8 alpha (TFLM) or an int16 one (TFLite); uint8 a uint8 one; an int16 input refuses a uint8 alpha', () => {
    const input = [-32768, -1000, 0, 1000, 32767];
    const want = quantize(
      input.map((v) => v / 2048).map((x) => (x >= 0 ? x : x * 0.2)),
      1 / 1024,
      0,
      I16,
    );
    const out = run(PRELU, [q(I16, [5], 1 / 2048, 0, input), q(I8, [1], 0.004, 0, [50], true), q(I16, [5], 1 / 1024, 0)], [0, 1], [2]);
    expectWithinSteps(out, want);
    // An int16 alpha holds values past int8's range: 2000 × 1e-4 = 0.2; negatives become
    // x / 2048 × 0.2 × 1024 = x / 10 rounded, positives x / 2 (32767 → 16383.5, rounded away from 0).
    const out16 = run(PRELU, [q(I16, [5], 1 / 2048, 0, input), q(I16, [1], 1e-4, 0, [2000], true), q(I16, [5], 1 / 1024, 0)], [0, 1], [2]);
    expectWithinSteps(out16, want);
    expect(out16).toEqual([-3277, -100, 0, 500, 16384]);
    // uint8 with zero points: (x − 128) × 0.02 ≥ 0 kept, else × (alpha − 100) × 0.01.
    const u = [0, 64, 127, 128, 129, 200, 255];
    const outU = run(PRELU, [q(U8, [7], 0.02, 128, u), q(U8, [1], 0.01, 100, [150], true), q(U8, [7], 0.02, 128)], [0, 1], [2]);
    expect(outU).toEqual([64, 96, 127, 128, 129, 200, 255]); // 127: −1 × 50 × 0.01 = −0.5, rounded away from 0
    expect(
      kernelError(() => harness(PRELU, [q(I16, [1], 0.1, 0, [1]), q(U8, [1], 0.1, 0, [1]), q(I16, [1], 0.1, 0)], [0, 1], [2]).prepare())
        .message,
    ).toMatch(/alpha \(tensor 1\) has type uint8; a int16 input needs a int8 or int16 alpha/);
  });

  it('refuses other types, non-broadcastable alphas and more than 4 dimensions; keeps PreluParams (28 bytes)', () => {
    const h = harness(
      PRELU,
      [
        { type: TensorType.INT32, shape: [1], data: [1] },
        { type: TensorType.INT32, shape: [1], data: [1] },
        { type: TensorType.INT32, shape: [1] },
      ],
      [0, 1],
      [2],
    );
    expect(h.supportsAnswer()).toBe('int32 input (handles float32, int8, int16, uint8)');
    expect(() => h.prepare()).toThrow(/type int32 \(tensor \d+\); supported:/);
    expect(
      kernelError(() => harness(PRELU, [f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([2], [1, 2]), f32([2, 3])], [0, 1], [2]).prepare()).message,
    ).toMatch(/cannot be broadcast/);
    expect(
      kernelError(() => harness(PRELU, [f32([1, 1, 1, 1, 2], [1, 2]), f32([1], [1]), f32([1, 1, 1, 1, 2])], [0, 1], [2]).prepare()).message,
    ).toMatch(/at most 4 dimensions/);
    expect(harness(PRELU, [f32([1], [1]), f32([1], [1]), f32([1])], [0, 1], [2]).prepare().persistentBytes).toBe(32);
  });
});
