import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { LOGISTIC } from './logistic.js';

function logistic(input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: LOGISTIC, tensors: [input, output], inputs: [0], outputs: [1] });
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b);

describe('LOGISTIC float32', () => {
  it('computes 1 / (1 + exp(-x)) with TFLM cut-offs', () => {
    const x = [0, 1, -1, 4, -8.5, 20, -10, -100];
    const h = logistic({ type: TensorType.FLOAT32, shape: [8], data: x }, { type: TensorType.FLOAT32, shape: [8] }).invoke();
    const y = h.outputArray();
    const expected = [
      0.5,
      1 / (1 + Math.exp(-1)),
      1 / (1 + Math.exp(1)),
      1 / (1 + Math.exp(-4)),
      1 / (1 + Math.exp(8.5)),
      1,
      Math.exp(-10),
      Math.exp(-100),
    ];
    y.forEach((v, i) => expect(near(v, expected[i]!), `x=${x[i]}: ${v} vs ${expected[i]}`).toBe(true));
    expect(y[5]).toBe(1);
  });
});

describe('LOGISTIC int8', () => {
  const out = { type: TensorType.INT8, shape: [17], scale: 1 / 256, zeroPoint: -128 };
  const inputs = [-128, -112, -96, -80, -64, -48, -32, -16, 0, 16, 32, 48, 64, 80, 96, 112, 127];

  it('matches TFLM gemmlowp fixed-point logistic over the input range (dtln scale)', () => {
    // Expected values from TFLM's reference_integer_ops::Logistic (checked against the dtln model).
    const h = logistic({ type: TensorType.INT8, shape: [17], data: inputs, scale: 0.0387752913, zeroPoint: -2 }, out).invoke();
    expect(h.outputArray()).toEqual([-126, -124, -121, -116, -107, -91, -67, -34, 5, 43, 74, 96, 110, 118, 122, 125, 126]);
  });

  it('gives 0.5 (raw 0) at the zero point and saturates beyond the input radius', () => {
    // scale 0.1: frexp(0.1 * 2^27) has exponent 24, radius = 15 * 2^27 / 2^24 = 120.
    const h = logistic(
      { type: TensorType.INT8, shape: [5], data: [0, -128, -120, 127, 120], scale: 0.1, zeroPoint: 0 },
      { ...out, shape: [5] },
    ).invoke();
    expect(h.outputArray()).toEqual([0, -128, -128, 127, 127]);
  });

  it('requires the output zero point -128 and scale 1/256', () => {
    const input = { type: TensorType.INT8, shape: [1], data: [0], scale: 0.1, zeroPoint: 0 };
    expect(() => logistic(input, { ...out, shape: [1], zeroPoint: 0 }).prepare()).toThrow(
      /LOGISTIC \(node 0\): output \(tensor 1\) zero point must be -128, got 0/,
    );
    expect(() => logistic(input, { ...out, shape: [1], scale: 0.01 }).prepare()).toThrow(/scale must be 1\/256/);
  });

  it('stores TFLM OpDataLogistic (16 bytes) in a persistent buffer', () => {
    const h = logistic({ type: TensorType.INT8, shape: [1], data: [0], scale: 0.1, zeroPoint: 0 }, { ...out, shape: [1] }).prepare();
    expect(h.persistentBytes).toBe(16);
  });
});

describe('LOGISTIC int16', () => {
  const out = (n: number) => ({ type: TensorType.INT16, shape: [n], scale: 1 / 32768, zeroPoint: 0 });

  it('uses the sigmoid LUT for the power-of-two scale 2^-12', () => {
    const data = [0, 8721, 13422, 7834, 11542, -32318, 22087, -32768, 32767];
    const h = logistic({ type: TensorType.INT16, shape: [9], data, scale: 1 / 4096, zeroPoint: 0 }, out(9)).invoke();
    expect(h.outputArray()).toEqual([16384, 29285, 31576, 28551, 30921, 12, 32619, 11, 32757]);
  });

  it('rescales a general input scale with the 3 * 4096 multiplier', () => {
    const data = [5066, 29416, -7014, -6138, -18115, 2998, -32768, 32767];
    const h = logistic({ type: TensorType.INT16, shape: [8], data, scale: 0.0003, zeroPoint: 0 }, out(8)).invoke();
    expect(h.outputArray()).toEqual([26886, 32763, 3562, 4486, 142, 23292, 2, 32766]);
  });

  it('requires zero points of 0 and an output scale of 2^-15', () => {
    expect(() => logistic({ type: TensorType.INT16, shape: [1], data: [0], scale: 1 / 4096, zeroPoint: 1 }, out(1)).prepare()).toThrow(
      /input \(tensor 0\) zero point must be 0/,
    );
    expect(() =>
      logistic({ type: TensorType.INT16, shape: [1], data: [0], scale: 1 / 4096, zeroPoint: 0 }, { ...out(1), scale: 1 / 16384 }).prepare(),
    ).toThrow(/scale must be 2\^-15/);
  });
});

describe('LOGISTIC validation', () => {
  it('rejects int32 and mismatched element counts', () => {
    expect(() => logistic({ type: TensorType.INT32, shape: [1], data: [0] }, { type: TensorType.INT32, shape: [1] }).prepare()).toThrow(
      /unsupported input type int32/,
    );
    expect(() =>
      logistic({ type: TensorType.FLOAT32, shape: [2], data: [0, 0] }, { type: TensorType.FLOAT32, shape: [3] }).prepare(),
    ).toThrow(/differ in element count: 2 vs 3/);
  });
});
