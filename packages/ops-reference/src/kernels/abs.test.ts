import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { ABS } from './abs.js';

function abs(input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: ABS, tensors: [input, output], inputs: [0], outputs: [1] });
}

describe('ABS', () => {
  it('float32', () => {
    const h = abs(
      { type: TensorType.FLOAT32, shape: [4], data: [-1.5, 0, 2, -Infinity] },
      { type: TensorType.FLOAT32, shape: [4] },
    ).invoke();
    expect(h.outputArray()).toEqual([1.5, 0, 2, Infinity]);
  });

  it('int8 with equal scales: |x - zp_in| + zp_out, saturated', () => {
    const h = abs(
      { type: TensorType.INT8, shape: [4], data: [-128, 5, 10, 127], scale: 0.1, zeroPoint: 5 },
      { type: TensorType.INT8, shape: [4], scale: 0.1, zeroPoint: -20 },
    ).invoke();
    // |-133| - 20 = 113, 0 - 20, 5 - 20, 122 - 20
    expect(h.outputArray()).toEqual([113, -20, -15, 102]);
    const sat = abs(
      { type: TensorType.INT8, shape: [1], data: [-128], scale: 1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [1], scale: 1, zeroPoint: 0 },
    ).invoke();
    expect(sat.outputArray()).toEqual([127]);
  });

  it('int8 rescales when the scales differ', () => {
    const h = abs(
      { type: TensorType.INT8, shape: [4], data: [-100, -3, 3, 100], scale: 0.5, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [4], scale: 1, zeroPoint: -128 },
    ).invoke();
    // |x| / 2 rounded (1.5 -> 2), then - 128
    expect(h.outputArray()).toEqual([-78, -126, -126, -78]);
  });

  it('int16 quantized needs zero points 0; unquantized int16 wraps |-32768| like static_cast', () => {
    const q = abs(
      { type: TensorType.INT16, shape: [3], data: [-32768, -7, 7], scale: 0.01, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [3], scale: 0.01, zeroPoint: 0 },
    ).invoke();
    expect(q.outputArray()).toEqual([32767, 7, 7]);
    const raw = abs({ type: TensorType.INT16, shape: [3], data: [-32768, -7, 7] }, { type: TensorType.INT16, shape: [3] }).invoke();
    expect(raw.outputArray()).toEqual([-32768, 7, 7]);
    expect(() =>
      abs(
        { type: TensorType.INT16, shape: [1], data: [0], scale: 1, zeroPoint: 1 },
        { type: TensorType.INT16, shape: [1], scale: 1, zeroPoint: 0 },
      ).prepare(),
    ).toThrow(/ABS \(node 0\): input \(tensor 0\) zero point must be 0, got 1/);
  });

  it('rejects uint8, takes int32 (TFLite, wrapping as C), and keeps TFLM OpDataAbsRsqrt (28 bytes)', () => {
    expect(() => abs({ type: TensorType.UINT8, shape: [1], data: [0] }, { type: TensorType.UINT8, shape: [1] }).prepare()).toThrow(
      /unsupported input type uint8/,
    );
    expect(
      abs({ type: TensorType.INT32, shape: [3], data: [-5, 7, -2147483648] }, { type: TensorType.INT32, shape: [3] })
        .prepare()
        .invoke()
        .outputArray(),
    ).toEqual([5, 7, -2147483648]);
    expect(
      abs({ type: TensorType.FLOAT32, shape: [1], data: [0] }, { type: TensorType.FLOAT32, shape: [1] }).prepare().persistentBytes,
    ).toBe(32);
  });
});
