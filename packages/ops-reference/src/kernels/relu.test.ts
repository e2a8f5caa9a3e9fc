import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { RELU } from './relu.js';

function relu(input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: RELU, tensors: [input, output], inputs: [0], outputs: [1] });
}

describe('RELU', () => {
  it('float32: max(x, 0), keeping -0 as TFLM (val < 0 is false for -0)', () => {
    const h = relu(
      { type: TensorType.FLOAT32, shape: [5], data: [-1, 0, 2.5, -0, 1e30] },
      { type: TensorType.FLOAT32, shape: [5] },
    ).invoke();
    expect(h.outputArray()).toEqual([0, 0, 2.5, -0, Math.fround(1e30)]);
  });

  it('int8 with equal quantization clamps at the zero point', () => {
    const q = { scale: 0.1, zeroPoint: -128 };
    const h = relu(
      { type: TensorType.INT8, shape: [4], data: [-128, -45, 90, 127], ...q },
      { type: TensorType.INT8, shape: [4], ...q },
    ).invoke();
    expect(h.outputArray()).toEqual([-128, -45, 90, 127]);
    const z = { scale: 0.1, zeroPoint: 3 };
    const k = relu(
      { type: TensorType.INT8, shape: [4], data: [-128, 2, 3, 127], ...z },
      { type: TensorType.INT8, shape: [4], ...z },
    ).invoke();
    expect(k.outputArray()).toEqual([3, 3, 3, 127]);
  });

  it('int8 requantizes to the output scale as TFLM (expected values from its reference algorithm)', () => {
    const h = relu(
      { type: TensorType.INT8, shape: [10], data: [-128, 127, -115, 31, -9, 110, 100, 91, -28, 6], scale: 0.05, zeroPoint: 3 },
      { type: TensorType.INT8, shape: [10], scale: 0.04, zeroPoint: -5 },
    ).invoke();
    expect(h.outputArray()).toEqual([-5, 127, -5, 30, -5, 127, 116, 105, -5, -1]);
  });

  it('int16 requantizes with zero points 0', () => {
    const h = relu(
      { type: TensorType.INT16, shape: [6], data: [-32768, 32767, 12866, 15081, -7468, 14340], scale: 0.001, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [6], scale: 0.0015, zeroPoint: 0 },
    ).invoke();
    expect(h.outputArray()).toEqual([0, 21845, 8577, 10054, 0, 9560]);
    expect(() =>
      relu(
        { type: TensorType.INT16, shape: [1], data: [0], scale: 1, zeroPoint: 2 },
        { type: TensorType.INT16, shape: [1], scale: 1, zeroPoint: 0 },
      ).prepare(),
    ).toThrow(/RELU \(node 0\): input \(tensor 0\) zero point must be 0, got 2/);
  });

  it('uint8 (TFLite QuantizedReluX): requantizes with the float32 scale quotient, clamps at the output zero point', () => {
    // 0.05 / 0.04 = 1.25: 3 + (x - 128) * 1.25, rounded half away from zero, then clamped to [3, 255]
    const h = relu(
      { type: TensorType.UINT8, shape: [6], data: [0, 127, 128, 130, 131, 255], scale: 0.05, zeroPoint: 128 },
      { type: TensorType.UINT8, shape: [6], scale: 0.04, zeroPoint: 3 },
    ).invoke();
    expect(h.outputArray()).toEqual([3, 3, 3, 6, 7, 162]);
    expect(() => relu({ type: TensorType.UINT8, shape: [1], data: [0] }, { type: TensorType.UINT8, shape: [1] }).prepare()).toThrow(
      /quantiz/,
    );
  });

  it('rejects int32 and keeps TFLM ReluOpData (28 bytes) persistent', () => {
    expect(() => relu({ type: TensorType.INT32, shape: [1], data: [0] }, { type: TensorType.INT32, shape: [1] }).prepare()).toThrow(
      /unsupported input type int32/,
    );
    expect(
      relu({ type: TensorType.FLOAT32, shape: [1], data: [0] }, { type: TensorType.FLOAT32, shape: [1] }).prepare().persistentBytes,
    ).toBe(32);
  });
});
