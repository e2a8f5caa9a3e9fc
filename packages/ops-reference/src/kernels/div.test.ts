import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { DIV } from './div.js';
import { roundingDivideByPOTWide } from './activation-common.js';

function div(a: HarnessTensorSpec, b: HarnessTensorSpec, out: HarnessTensorSpec, activation = ActivationFunctionType.NONE): KernelHarness {
  return new KernelHarness({
    registration: DIV,
    tensors: [a, b, out],
    inputs: [0, 1],
    outputs: [2],
    builtinData: { fusedActivationFunction: activation },
  });
}

describe('DIV float32', () => {
  it('divides with broadcasting and rounds to float32', () => {
    const h = div(
      { type: TensorType.FLOAT32, shape: [2, 2], data: [1, 2, 3, -4] },
      { type: TensorType.FLOAT32, shape: [2], data: [2, 3] },
      { type: TensorType.FLOAT32, shape: [2, 2] },
    ).invoke();
    expect(h.outputArray()).toEqual([0.5, Math.fround(2 / 3), 1.5, Math.fround(-4 / 3)]);
  });

  it('clamps x/0 = inf to the float range and RELU clamps negatives', () => {
    const h = div(
      { type: TensorType.FLOAT32, shape: [2], data: [1, -1] },
      { type: TensorType.FLOAT32, shape: [2], data: [0, 2] },
      { type: TensorType.FLOAT32, shape: [2] },
      ActivationFunctionType.RELU,
    ).invoke();
    expect(h.outputArray()).toEqual([Math.fround(3.4028234663852886e38), 0]);
  });
});

describe('DIV int32', () => {
  it('truncates toward zero like C integer division (TruncateDiv)', () => {
    const h = div(
      { type: TensorType.INT32, shape: [6], data: [7, -7, 7, -7, 0, 100] },
      { type: TensorType.INT32, shape: [6], data: [2, 2, -2, -2, 5, 7] },
      { type: TensorType.INT32, shape: [6] },
    ).invoke();
    expect(h.outputArray()).toEqual([3, -3, -3, 3, 0, 14]);
  });

  it('broadcasts a scalar divisor', () => {
    const h = div(
      { type: TensorType.INT32, shape: [4], data: [40, 41, -41, 9] },
      { type: TensorType.INT32, shape: [], data: [10], constant: true },
      { type: TensorType.INT32, shape: [4] },
    ).invoke();
    expect(h.outputArray()).toEqual([4, 4, -4, 0]);
  });
});

describe('DIV int8', () => {
  it('matches TFLM DivElementwise (reciprocal + requantization)', () => {
    // Expected values from TFLM's reference algorithm.
    const h = div(
      { type: TensorType.INT8, shape: [10], data: [127, -32, 68, 69, 26, 81, -80, 12, -54, -66], scale: 0.05, zeroPoint: 3 },
      { type: TensorType.INT8, shape: [10], data: [-6, 15, 3, 35, -34, -54, -10, 96, -87, -127], scale: 0.02, zeroPoint: -7 },
      { type: TensorType.INT8, shape: [10], scale: 0.07, zeroPoint: 1 },
    ).invoke();
    expect(h.outputArray()).toEqual([127, -56, 127, 57, -29, -58, 127, 4, 26, 22]);
  });

  it('gives exact quotients when scales cancel', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = div(
      { type: TensorType.INT8, shape: [4], data: [100, -100, 9, 7], ...q },
      { type: TensorType.INT8, shape: [4], data: [4, 4, -3, 2], ...q },
      { type: TensorType.INT8, shape: [4], ...q },
    ).invoke();
    // 7 / 2 = 3.5 rounds half away from zero.
    expect(h.outputArray()).toEqual([25, -25, -3, 4]);
  });

  it('int16 (TFLite after 2.9): the same DivElementwise, quotients past int8 and zero points', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = div(
      { type: TensorType.INT16, shape: [5], data: [30000, -30000, 7, 32767, -32768], ...q },
      { type: TensorType.INT16, shape: [5], data: [3, 7, 2, 1, -2], ...q },
      { type: TensorType.INT16, shape: [5], ...q },
    ).invoke();
    // −30000 / 7 = −4285.71 → −4286; 7 / 2 = 3.5 → 4; −32768 / −2 = 16384.
    expect(h.outputArray()).toEqual([10000, -4286, 4, 32767, 16384]);
    const z = div(
      { type: TensorType.INT16, shape: [2], data: [110, 90], scale: 0.5, zeroPoint: 10 },
      { type: TensorType.INT16, shape: [2], data: [14, 6], scale: 1, zeroPoint: 4 },
      { type: TensorType.INT16, shape: [2], scale: 0.25, zeroPoint: -100 },
    ).invoke();
    // (100 × 0.5) / 10 = 5 → 20 steps − 100; (80 × 0.5) / 2 = 20 → 80 − 100.
    expect(z.outputArray()).toEqual([-80, -20]);
  });

  it('rejects int64', () => {
    const i64 = { type: TensorType.INT64, shape: [1], data: [1n] };
    expect(() => div(i64, i64, i64).prepare()).toThrow(/DIV \(node 0\): unsupported .*type int64/);
  });

  it('rejects broadcasting beyond 5 dimensions', () => {
    const f = (shape: number[]) => ({ type: TensorType.FLOAT32, shape, data: new Array(shape.reduce((a, b) => a * b, 1)).fill(1) });
    expect(() => div(f([2, 1, 1, 1, 1, 1]), f([1]), f([2, 1, 1, 1, 1, 1])).prepare()).toThrow(/at most 5 dimensions/);
  });
});

describe('roundingDivideByPOTWide', () => {
  it('is gemmlowp RoundingDivideByPOT for exponents 0..31', () => {
    expect(roundingDivideByPOTWide(5, 1)).toBe(3);
    expect(roundingDivideByPOTWide(-5, 1)).toBe(-3);
    expect(roundingDivideByPOTWide(-6, 2)).toBe(-2);
    expect(roundingDivideByPOTWide(1 << 30, 31)).toBe(1);
    expect(roundingDivideByPOTWide(123, 0)).toBe(123);
  });

  it('follows x86 for out-of-range exponents (mask of all ones, shift modulo 32)', () => {
    expect(roundingDivideByPOTWide(-1000, 32)).toBe(-1000);
    expect(roundingDivideByPOTWide(1000, 33)).toBe(501);
    expect(roundingDivideByPOTWide(0, 32)).toBe(1);
  });
});
