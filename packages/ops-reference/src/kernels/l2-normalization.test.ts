import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, TensorType } from '@micrort/core';
import { dequantize, expectFloatClose, expectWithinSteps, f32, harness, kernelError, q, run } from './__fixtures__/math-testing.js';
import { L2_NORMALIZATION } from './l2-normalization.js';

const I8 = TensorType.INT8;
const none = { fusedActivationFunction: ActivationFunctionType.NONE };

describe('L2_NORMALIZATION', () => {
  it('float32: each row divided by its L2 norm (TFLM l2norm_test SimpleFloatTest), epsilon for zero rows', () => {
    const x = [-1.1, 0.6, 0.7, 1.2, -0.7, 0.1];
    const out = run(L2_NORMALIZATION, [f32([1, 1, 1, 6], x), f32([1, 1, 1, 6])], [0], [1], none);
    expectFloatClose(out, [-0.55, 0.3, 0.35, 0.6, -0.35, 0.05]);
    expect(run(L2_NORMALIZATION, [f32([2, 2], [0, 0, 3, 4]), f32([2, 2])], [0], [1], none)).toEqual([
      0, 0, 0.6000000238418579, 0.800000011920929,
    ]);
  });

  it('int8: value * 128 of the normalised row whatever the output quantization says, within one step', () => {
    const x = [-128, -60, 3, 4, 100, 127, 10, 3];
    const zp = 3;
    const out = run(L2_NORMALIZATION, [q(I8, [2, 4], 0.02, zp, x), q(I8, [2, 4], 0.5, 7)], [0], [1], none);
    const real = dequantize(x, 0.02, zp);
    const want: number[] = [];
    for (let r = 0; r < 2; r++) {
      const row = real.slice(r * 4, r * 4 + 4);
      const norm = Math.hypot(...row);
      for (const v of row) want.push(Math.max(-128, Math.min(127, Math.round((v / norm) * 128))));
    }
    expectWithinSteps(out, want);
    // A row equal to the zero point (norm 0) gives zeros.
    expect(run(L2_NORMALIZATION, [q(I8, [3], 0.1, -5, [-5, -5, -5]), q(I8, [3], 1 / 128, 0)], [0], [1], none)).toEqual([0, 0, 0]);
  });

  it('refuses a fused activation, more than 4 dimensions, and int16 (TFLM refuses it)', () => {
    expect(
      kernelError(() =>
        harness(L2_NORMALIZATION, [f32([2], [1, 2]), f32([2])], [0], [1], {
          fusedActivationFunction: ActivationFunctionType.RELU,
        }).prepare(),
      ).message,
    ).toMatch(/fused activation RELU is not supported \(TFLM accepts NONE only\)/);
    expect(
      kernelError(() => harness(L2_NORMALIZATION, [f32([1, 1, 1, 1, 2], [1, 2]), f32([1, 1, 1, 1, 2])], [0], [1], none).prepare()).message,
    ).toMatch(/5 dimensions, at most 4/);
    const h = harness(L2_NORMALIZATION, [q(TensorType.INT16, [2], 0.1, 0, [1, 2]), q(TensorType.INT16, [2], 0.1, 0)], [0], [1], none);
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8, uint8)');
    expect(() => h.prepare()).toThrow(/unsupported input type int16/);
    expect(harness(L2_NORMALIZATION, [f32([2], [1, 2]), f32([2])], [0], [1], null).prepare().persistentBytes).toBe(16);
  });
});
