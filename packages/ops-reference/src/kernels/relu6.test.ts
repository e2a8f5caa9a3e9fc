import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { RELU6, floatToQuantized } from './relu6.js';

function relu6(input: HarnessTensorSpec, output: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: RELU6, tensors: [input, output], inputs: [0], outputs: [1] });
}

describe('RELU6', () => {
  it('float32: clamps to [0, 6]', () => {
    const h = relu6({ type: TensorType.FLOAT32, shape: [5], data: [-1, 0, 3.25, 6, 7] }, { type: TensorType.FLOAT32, shape: [5] }).invoke();
    expect(h.outputArray()).toEqual([0, 0, 3.25, 6, 6]);
  });

  it('int8: clamps raw values to [zero point, quantized 6]', () => {
    // scale 0.05, zero point -100: six = round(6 / 0.05) - 100 = 20.
    const q = { scale: 0.05, zeroPoint: -100 };
    const h = relu6(
      { type: TensorType.INT8, shape: [6], data: [-128, -100, -99, 19, 20, 127], ...q },
      { type: TensorType.INT8, shape: [6], ...q },
    ).invoke();
    expect(h.outputArray()).toEqual([-100, -100, -99, 19, 20, 20]);
  });

  it('int8: quantized 6 saturates at the type maximum when out of range', () => {
    const q = { scale: 0.01, zeroPoint: 0 };
    const h = relu6(
      { type: TensorType.INT8, shape: [3], data: [-5, 100, 127], ...q },
      { type: TensorType.INT8, shape: [3], ...q },
    ).invoke();
    expect(h.outputArray()).toEqual([0, 100, 127]);
  });

  it('int16: clamps with the int16 six', () => {
    const q = { scale: 1 / 4096, zeroPoint: 0 };
    const h = relu6(
      { type: TensorType.INT16, shape: [4], data: [-32768, 100, 24576, 32767], ...q },
      { type: TensorType.INT16, shape: [4], ...q },
    ).invoke();
    expect(h.outputArray()).toEqual([0, 100, 24576, 24576]);
  });

  it('floatToQuantized rounds half away from zero and clamps', () => {
    expect(floatToQuantized(6, 4, 0, -128, 127)).toBe(2); // 1.5 -> 2
    expect(floatToQuantized(-6, 4, 0, -128, 127)).toBe(-2);
    expect(floatToQuantized(6, 0.001, 0, -128, 127)).toBe(127);
  });
});
