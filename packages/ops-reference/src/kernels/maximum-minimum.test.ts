import { describe, expect, it } from 'vitest';
import { TensorType, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { MAXIMUM, MINIMUM } from './maximum-minimum.js';

function run(reg: Registration, a: HarnessTensorSpec, b: HarnessTensorSpec, out: HarnessTensorSpec): KernelHarness {
  return new KernelHarness({ registration: reg, tensors: [a, b, out], inputs: [0, 1], outputs: [2] }).invoke();
}

describe('MAXIMUM / MINIMUM', () => {
  it('take the elementwise max and min of float32 tensors', () => {
    const a = { type: TensorType.FLOAT32, shape: [4], data: [1, -2, 3.5, 0] };
    const b = { type: TensorType.FLOAT32, shape: [4], data: [0.5, -1, 4, -0.25] };
    const out = { type: TensorType.FLOAT32, shape: [4] };
    expect(run(MAXIMUM, a, b, out).outputArray()).toEqual([1, -1, 4, 0]);
    expect(run(MINIMUM, a, b, out).outputArray()).toEqual([0.5, -2, 3.5, -0.25]);
  });

  it('follow TFLM for NaN in the first input (the comparison is false, so the second input wins)', () => {
    const a = { type: TensorType.FLOAT32, shape: [2], data: [NaN, 1] };
    const b = { type: TensorType.FLOAT32, shape: [2], data: [2, NaN] };
    const out = { type: TensorType.FLOAT32, shape: [2] };
    const max = run(MAXIMUM, a, b, out).outputArray();
    expect(max[0]).toBe(2);
    expect(max[1]).toBeNaN();
  });

  it('clip int32 values against scalar bounds (clip_by_value in the audio preprocessor)', () => {
    const x = { type: TensorType.INT32, shape: [5], data: [-300, -128, 0, 127, 1000] };
    const hi = { type: TensorType.INT32, shape: [], data: [127], constant: true };
    const lo = { type: TensorType.INT32, shape: [], data: [-128], constant: true };
    const out = { type: TensorType.INT32, shape: [5] };
    const clippedHigh = run(MINIMUM, x, hi, out).outputArray();
    expect(clippedHigh).toEqual([-300, -128, 0, 127, 127]);
    expect(run(MAXIMUM, { ...x, data: clippedHigh }, lo, out).outputArray()).toEqual([-128, -128, 0, 127, 127]);
  });

  it('broadcast int8 and int16 over 3-D shapes', () => {
    const q = { scale: 0.1, zeroPoint: 0 };
    const a = { type: TensorType.INT8, shape: [2, 1, 2], data: [-128, 127, 5, -5], ...q };
    const b = { type: TensorType.INT8, shape: [3, 1], data: [0, 10, -10], ...q };
    const out = { type: TensorType.INT8, shape: [2, 3, 2], ...q };
    expect(run(MAXIMUM, a, b, out).outputArray()).toEqual([0, 127, 10, 127, -10, 127, 5, 0, 10, 10, 5, -5]);
    const a16 = { type: TensorType.INT16, shape: [2], data: [-32768, 32767], ...q };
    const b16 = { type: TensorType.INT16, shape: [1], data: [0], ...q };
    expect(run(MINIMUM, a16, b16, { type: TensorType.INT16, shape: [2], ...q }).outputArray()).toEqual([-32768, 0]);
  });

  it('reject unsupported types and mismatched inputs', () => {
    const b = { type: TensorType.BOOL, shape: [1], data: [1] };
    expect(() => new KernelHarness({ registration: MAXIMUM, tensors: [b, b, b], inputs: [0, 1], outputs: [2] }).prepare()).toThrow(
      /MAXIMUM \(node 0\): unsupported output type bool/,
    );
    // uint8 (TFLite) compares the raw values
    const u8 = (data?: number[]) => ({ type: TensorType.UINT8, shape: [3], data, scale: 0.5, zeroPoint: 128 });
    expect(run(MAXIMUM, u8([0, 200, 128]), u8([255, 100, 128]), u8()).outputArray()).toEqual([255, 200, 128]);
    expect(run(MINIMUM, u8([0, 200, 128]), u8([255, 100, 128]), u8()).outputArray()).toEqual([0, 100, 128]);
    const f = { type: TensorType.FLOAT32, shape: [1], data: [1] };
    const i = { type: TensorType.INT32, shape: [1], data: [1] };
    expect(() => new KernelHarness({ registration: MINIMUM, tensors: [f, i, f], inputs: [0, 1], outputs: [2] }).prepare()).toThrow(
      /MINIMUM \(node 0\): inputs: types differ/,
    );
  });

  it('need no persistent memory (TFLM registers them without init)', () => {
    const f = { type: TensorType.FLOAT32, shape: [1], data: [1] };
    expect(new KernelHarness({ registration: MAXIMUM, tensors: [f, f, f], inputs: [0, 1], outputs: [2] }).prepare().persistentBytes).toBe(
      0,
    );
  });
});
