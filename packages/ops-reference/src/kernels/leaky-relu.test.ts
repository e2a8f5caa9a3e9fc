import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { LEAKY_RELU } from './leaky-relu.js';

function leaky(input: HarnessTensorSpec, output: HarnessTensorSpec, alpha: number): KernelHarness {
  return new KernelHarness({ registration: LEAKY_RELU, tensors: [input, output], inputs: [0], outputs: [1], builtinData: { alpha } });
}

describe('LEAKY_RELU', () => {
  it('float32: x or alpha * x (alpha may exceed 1 or be negative)', () => {
    const h = leaky(
      { type: TensorType.FLOAT32, shape: [4], data: [2, -2, 0, -0.5] },
      { type: TensorType.FLOAT32, shape: [4] },
      0.25,
    ).invoke();
    expect(h.outputArray()).toEqual([2, -0.5, 0, -0.125]);
    const n = leaky({ type: TensorType.FLOAT32, shape: [2], data: [3, -3] }, { type: TensorType.FLOAT32, shape: [2] }, -2).invoke();
    expect(n.outputArray()).toEqual([3, 6]);
  });

  it('int8: identity multiplier for x >= zero point, alpha multiplier below', () => {
    // Same scales: identity is exact; alpha 0.5 halves negative differences. SaturatingRoundingDoublingHighMul
    // rounds the tie -2.5 up to -2 (its nudge for negative products is 1 - 2^30).
    const q = { scale: 0.1, zeroPoint: 10 };
    const h = leaky(
      { type: TensorType.INT8, shape: [5], data: [10, 50, 0, 5, -128], ...q },
      { type: TensorType.INT8, shape: [5], ...q },
      0.5,
    ).invoke();
    expect(h.outputArray()).toEqual([10, 50, 5, 8, -59]);
  });

  it('int8: matches TFLM with rescaling and a negative alpha', () => {
    // Expected values from TFLM's reference QuantizeLeakyRelu.
    const a = leaky(
      { type: TensorType.INT8, shape: [10], data: [-128, 127, -94, 67, 92, 20, -74, -118, 116, 118], scale: 0.05, zeroPoint: 3 },
      { type: TensorType.INT8, shape: [10], scale: 0.04, zeroPoint: -5 },
      0.2,
    ).invoke();
    expect(a.outputArray()).toEqual([-38, 127, -30, 75, 106, 16, -25, -36, 127, 127]);
    const b = leaky(
      { type: TensorType.INT8, shape: [10], data: [-128, 127, -27, -107, -18, 94, -2, 2, -8, -116], scale: 0.02, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [10], scale: 0.05, zeroPoint: 10 },
      -0.5,
    ).invoke();
    expect(b.outputArray()).toEqual([36, 61, 16, 32, 14, 48, 11, 11, 12, 33]);
  });

  it('int16: matches TFLM', () => {
    const h = leaky(
      { type: TensorType.INT16, shape: [6], data: [-32768, 32767, 24797, -10524, 17105, -9072], scale: 0.001, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [6], scale: 0.0015, zeroPoint: 0 },
      0.3,
    ).invoke();
    expect(h.outputArray()).toEqual([-6554, 21845, 16531, -2105, 11403, -1815]);
  });

  it('rejects mixed types and keeps TFLM LeakyReluOpData (24 bytes)', () => {
    expect(() =>
      leaky(
        { type: TensorType.INT8, shape: [1], data: [0], scale: 1, zeroPoint: 0 },
        { type: TensorType.INT16, shape: [1], scale: 1, zeroPoint: 0 },
        0.1,
      ).prepare(),
    ).toThrow(/LEAKY_RELU \(node 0\): input and output: types differ/);
    expect(
      leaky({ type: TensorType.FLOAT32, shape: [1], data: [0] }, { type: TensorType.FLOAT32, shape: [1] }, 0.1).prepare().persistentBytes,
    ).toBe(32);
  });
});
