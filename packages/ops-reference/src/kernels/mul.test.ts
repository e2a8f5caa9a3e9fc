import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { MUL } from './mul.js';

function mul(a: HarnessTensorSpec, b: HarnessTensorSpec, out: HarnessTensorSpec, activation = ActivationFunctionType.NONE): KernelHarness {
  return new KernelHarness({
    registration: MUL,
    tensors: [a, b, out],
    inputs: [0, 1],
    outputs: [2],
    builtinData: { fusedActivationFunction: activation },
  });
}

describe('MUL float32', () => {
  it('broadcasts a column against a row and clamps with RELU_N1_TO_1', () => {
    const h = mul(
      { type: TensorType.FLOAT32, shape: [2, 1], data: [0.5, -2] },
      { type: TensorType.FLOAT32, shape: [1, 3], data: [1, 0.25, 3] },
      { type: TensorType.FLOAT32, shape: [2, 3] },
      ActivationFunctionType.RELU_N1_TO_1,
    ).invoke();
    expect(h.outputArray()).toEqual([0.5, 0.125, 1, -1, -0.5, -1]);
  });

  it('rounds the product to float32', () => {
    const h = mul(
      { type: TensorType.FLOAT32, shape: [1], data: [1.1] },
      { type: TensorType.FLOAT32, shape: [1], data: [1.3] },
      { type: TensorType.FLOAT32, shape: [1] },
    ).invoke();
    expect(h.outputArray()[0]).toBe(Math.fround(Math.fround(1.1) * Math.fround(1.3)));
  });
});

describe('MUL int32', () => {
  it('wraps the 32-bit product like C and applies RELU6 as [0, 6]', () => {
    const h = mul(
      { type: TensorType.INT32, shape: [3], data: [65536, -7, 3] },
      { type: TensorType.INT32, shape: [3], data: [65536, 3, 5] },
      { type: TensorType.INT32, shape: [3] },
    ).invoke();
    expect(h.outputArray()).toEqual([0, -21, 15]);
    const r = mul(
      { type: TensorType.INT32, shape: [3], data: [2, -7, 3] },
      { type: TensorType.INT32, shape: [1], data: [3] },
      { type: TensorType.INT32, shape: [3] },
      ActivationFunctionType.RELU6,
    ).invoke();
    expect(r.outputArray()).toEqual([6, 0, 6]);
  });

  it('handles the audio-preprocessor shape: [40] times a scalar constant', () => {
    const data = Array.from({ length: 40 }, (_, i) => i - 20);
    const h = mul(
      { type: TensorType.INT32, shape: [40], data },
      { type: TensorType.INT32, shape: [], data: [-3], constant: true },
      { type: TensorType.INT32, shape: [40] },
    ).invoke();
    expect(h.outputArray()).toEqual(data.map((v) => v * -3 + 0));
  });
});

describe('MUL int8', () => {
  it('requantizes exactly when s1 * s2 / s_out is 1', () => {
    const h = mul(
      { type: TensorType.INT8, shape: [4], data: [2, -3, 100, -128], scale: 0.5, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [4], data: [5, 5, 5, -128], scale: 0.5, zeroPoint: 1 },
      { type: TensorType.INT8, shape: [4], scale: 0.25, zeroPoint: -1 },
    ).invoke();
    // a * (b - 1) - 1, saturated
    expect(h.outputArray()).toEqual([7, -13, 127, 127]);
  });

  it('matches TFLM (MulElementwise) with arbitrary scales and zero points', () => {
    // Expected values from TFLM's reference algorithm.
    const h = mul(
      { type: TensorType.INT8, shape: [10], data: [127, -128, -93, -39, 72, -128, 24, -9, -56, 57], scale: 0.1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [10], data: [127, -128, 35, 78, 98, -117, -101, 36, -86, 25], scale: 0.1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [10], scale: 0.5, zeroPoint: -20 },
    ).invoke();
    expect(h.outputArray()).toEqual([127, 127, -85, -81, 121, 127, -68, -26, 76, 9]);
  });

  it('broadcasts over 4-D shapes', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = mul(
      { type: TensorType.INT8, shape: [1, 2, 1, 2], data: [1, 2, 3, 4], ...q },
      { type: TensorType.INT8, shape: [2, 1, 2, 1], data: [1, -1, 10, -10], ...q },
      { type: TensorType.INT8, shape: [2, 2, 2, 2], ...q },
    ).invoke();
    // out[n][h][w][c] = a[0][h][0][c] * b[n][0][w][0]
    expect(h.outputArray()).toEqual([1, 2, -1, -2, 3, 4, -3, -4, 10, 20, -10, -20, 30, 40, -30, -40]);
  });
});

describe('MUL int16', () => {
  it('matches TFLM for power-of-two and tiny output scales', () => {
    const pot = mul(
      { type: TensorType.INT16, shape: [5], data: [32767, -32768, 14952, 16204, 9366], scale: 1 / 32768, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [5], data: [32767, -32768, 21660, -9688, 19012], scale: 1 / 16384, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [5], scale: 1 / 8192, zeroPoint: 0 },
    ).invoke();
    expect(pot.outputArray()).toEqual([16383, 16384, 4942, -2395, 2717]);
    const sat = mul(
      { type: TensorType.INT16, shape: [3], data: [17610, 6822, -20343], scale: 0.001, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [3], data: [7979, 6739, 1068], scale: 0.0007, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [3], scale: 0.0000021, zeroPoint: 0 },
    ).invoke();
    expect(sat.outputArray()).toEqual([32767, 32767, -32768]);
  });

  it('requires zero points of 0', () => {
    const h = mul(
      { type: TensorType.INT16, shape: [1], data: [1], scale: 1, zeroPoint: 3 },
      { type: TensorType.INT16, shape: [1], data: [1], scale: 1, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [1], scale: 1, zeroPoint: 0 },
    );
    expect(() => h.prepare()).toThrow(/MUL \(node 0\): input 1 \(tensor 0\) zero point must be 0, got 3/);
  });
});

describe('MUL prepare validation', () => {
  it('rejects an output type different from the inputs', () => {
    const h = mul(
      { type: TensorType.FLOAT32, shape: [1], data: [1] },
      { type: TensorType.FLOAT32, shape: [1], data: [1] },
      { type: TensorType.INT32, shape: [1] },
    );
    expect(() => h.prepare()).toThrow(/input 1 and output: types differ/);
  });

  it('keeps TFLM OpDataMul (36 bytes) in a persistent buffer', () => {
    const f = { type: TensorType.FLOAT32, shape: [1], data: [1] };
    expect(mul(f, f, { type: TensorType.FLOAT32, shape: [1] }).prepare().persistentBytes).toBe(48);
  });
});
