import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { COMPLEX_ABS } from './complex-abs.js';

function harness(inType: TensorType, outType: TensorType, shape: number[], pairs: number[], outShape = shape) {
  return new KernelHarness({
    registration: COMPLEX_ABS,
    tensors: [
      { type: inType, shape, data: pairs },
      { type: outType, shape: outShape },
    ],
    inputs: [0],
    outputs: [1],
  });
}

describe('COMPLEX_ABS', () => {
  it('complex64 → float32: |re + i·im| (hand-computed, TFLite complex_support_test values)', () => {
    const h = harness(TensorType.COMPLEX64, TensorType.FLOAT32, [2, 3], [3, 4, 0, -2, -5, 12, 0, 0, 1, 1, -8, -6]).invoke();
    expect(h.outputArray()).toEqual([5, 2, 13, 0, Math.fround(Math.SQRT2), 10]);
  });

  it('complex64 extremes: the squares are formed in double (no float32 overflow or underflow)', () => {
    const big = Math.fround(1e20); // squared in float32 it would overflow
    const tiny = Math.fround(1e-30); // squared in float32 it would underflow to 0
    const h = harness(TensorType.COMPLEX64, TensorType.FLOAT32, [4], [big, big, tiny, -tiny, 3e38, 3e38, Number.NaN, 1]).invoke();
    const [a, b, c, d] = h.outputArray();
    expect(Math.abs(a! / (big * Math.SQRT2) - 1)).toBeLessThan(1e-7);
    expect(Math.abs(b! / (tiny * Math.SQRT2) - 1)).toBeLessThan(1e-7);
    expect(c).toBe(Infinity); // 4.2e38 is beyond float32, as hypotf gives
    expect(d).toBeNaN();
  });

  it('complex128 → float64 with hypot', () => {
    const h = harness(TensorType.COMPLEX128, TensorType.FLOAT64, [2], [1e300, 1e300, 6, -8]).invoke();
    expect(h.outputArray()).toEqual([Math.hypot(1e300, 1e300), 10]);
  });

  it('prepare checks the output type and shape; supports() names what it handles', () => {
    expect(() => harness(TensorType.COMPLEX64, TensorType.FLOAT32, [2], [1, 2, 3, 4], [1, 2]).prepare()).toThrow(
      /output \(tensor 1\) has shape \[1, 2\], expected the input's \[2\]/,
    );
    expect(harness(TensorType.COMPLEX64, TensorType.FLOAT64, [1], [1, 2]).supportsAnswer()).toBe(
      'float64 output for complex64 input (needs float32)',
    );
    expect(harness(TensorType.FLOAT32, TensorType.FLOAT32, [1], [1]).supportsAnswer()).toBe(
      'float32 input (handles complex64, complex128)',
    );
  });
});
