import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { TANH } from './tanh.js';

function tanh(input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: TANH, tensors: [input, output], inputs: [0], outputs: [1] });
}

describe('TANH float32', () => {
  it('computes tanh', () => {
    const x = [0, 0.5, -0.5, 3, -20];
    const h = tanh({ type: TensorType.FLOAT32, shape: [5], data: x }, { type: TensorType.FLOAT32, shape: [5] }).invoke();
    h.outputArray().forEach((v, i) => expect(Math.abs(v - Math.tanh(x[i]!))).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(Math.tanh(x[i]!))));
  });
});

describe('TANH int8', () => {
  const out = (n: number) => ({ type: TensorType.INT8, shape: [n], scale: 1 / 128, zeroPoint: 0 });

  it('matches TFLM gemmlowp fixed-point tanh over the input range', () => {
    // Expected values from TFLM's reference_integer_ops::Tanh.
    const data = [-128, -112, -96, -80, -64, -48, -32, -16, 0, 16, 32, 48, 64, 80, 96, 112, 127];
    const h = tanh({ type: TensorType.INT8, shape: [17], data, scale: 0.0078125, zeroPoint: 5 }, out(17)).invoke();
    expect(h.outputArray()).toEqual([-100, -93, -84, -74, -63, -50, -36, -21, -5, 11, 27, 41, 55, 67, 78, 88, 95]);
  });

  it('is 0 at the zero point and saturates past the radius', () => {
    // scale 0.5: frexp(0.5 * 2^27) has exponent 27, radius = 15; the rest saturates to +-1.
    const h = tanh({ type: TensorType.INT8, shape: [5], data: [3, -12, -13, 18, 19], scale: 0.5, zeroPoint: 3 }, out(5)).invoke();
    expect(h.outputArray()).toEqual([0, -128, -128, 127, 127]);
  });

  it('requires the output scale 1/128 and zero point 0', () => {
    const input = { type: TensorType.INT8, shape: [1], data: [0], scale: 0.1, zeroPoint: 0 };
    expect(() => tanh(input, { ...out(1), zeroPoint: -128 }).prepare()).toThrow(
      /TANH \(node 0\): output \(tensor 1\) zero point must be 0, got -128/,
    );
    expect(() => tanh(input, { ...out(1), scale: 1 / 256 }).prepare()).toThrow(/scale must be 1\/128/);
  });
});

describe('TANH int16', () => {
  const out = (n: number) => ({ type: TensorType.INT16, shape: [n], scale: 1 / 32768, zeroPoint: 0 });

  it('uses the LUT directly for power-of-two scales 2^-12 and 2^-11', () => {
    const a = tanh(
      { type: TensorType.INT16, shape: [6], data: [0, 20525, -8362, 18200, -32768, 32767], scale: 1 / 4096, zeroPoint: 0 },
      out(6),
    ).invoke();
    expect(a.outputArray()).toEqual([0, 32765, -31682, 32759, -32767, 32767]);
    const b = tanh(
      { type: TensorType.INT16, shape: [4], data: [-31118, -3691, 10259, 3732], scale: 1 / 2048, zeroPoint: 0 },
      out(4),
    ).invoke();
    expect(b.outputArray()).toEqual([-32767, -31033, 32765, 31099]);
  });

  it('rescales a general input scale', () => {
    const h = tanh(
      { type: TensorType.INT16, shape: [6], data: [8473, 9733, -7230, 11492, -6482, -32768], scale: 0.0003, zeroPoint: 0 },
      out(6),
    ).invoke();
    expect(h.outputArray()).toEqual([32364, 32578, -31923, 32701, -31454, -32767]);
  });

  it('rejects input scales whose multiplier exceeds 32767', () => {
    expect(() => tanh({ type: TensorType.INT16, shape: [1], data: [0], scale: 4, zeroPoint: 0 }, out(1)).prepare()).toThrow(
      /too large for the int16 lookup/,
    );
  });
});
