import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { HarnessTensorSpec } from '@micrort/core/testing';
import { CONCATENATION } from './concatenation.js';

function concat(inputs: HarnessTensorSpec[], output: HarnessTensorSpec, axis: number, act = ActivationFunctionType.NONE): KernelHarness {
  return new KernelHarness({
    registration: CONCATENATION,
    tensors: [...inputs, output],
    inputs: inputs.map((_, i) => i),
    outputs: [inputs.length],
    builtinData: { axis, fusedActivationFunction: act },
  });
}

const f32 = (shape: number[], data?: number[]): HarnessTensorSpec => ({ type: TensorType.FLOAT32, shape, data });

describe('CONCATENATION', () => {
  // TFLM concatenation_test: two [2, 3] inputs
  const a = [1, 2, 3, 4, 5, 6];
  const b = [7, 8, 9, 10, 11, 12];

  it('axis 0 appends rows', () => {
    expect(
      concat([f32([2, 3], a), f32([2, 3], b)], f32([4, 3]), 0)
        .invoke()
        .outputArray(),
    ).toEqual([...a, ...b]);
  });
  it('axis 1 interleaves rows', () => {
    expect(
      concat([f32([2, 3], a), f32([2, 3], b)], f32([2, 6]), 1)
        .invoke()
        .outputArray(),
    ).toEqual([1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12]);
  });
  it('negative axis -1 equals the last axis', () => {
    expect(
      concat([f32([2, 3], a), f32([2, 3], b)], f32([2, 6]), -1)
        .invoke()
        .outputArray(),
    ).toEqual([1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12]);
  });
  it('three inputs of different axis sizes, 3-D, middle axis', () => {
    const x = [1, 2, 3, 4]; // [2, 1, 2]
    const y = [5, 6, 7, 8, 9, 10, 11, 12]; // [2, 2, 2]
    const z = [13, 14, 15, 16]; // [2, 1, 2]
    const out = concat([f32([2, 1, 2], x), f32([2, 2, 2], y), f32([2, 1, 2], z)], f32([2, 4, 2]), 1)
      .invoke()
      .outputArray();
    expect(out).toEqual([1, 2, 5, 6, 7, 8, 13, 14, 3, 4, 9, 10, 11, 12, 15, 16]);
  });
  it('a single input is copied', () => {
    expect(
      concat([f32([3], [1, 2, 3])], f32([3]), 0)
        .invoke()
        .outputArray(),
    ).toEqual([1, 2, 3]);
  });
  it('an input with a zero-sized axis contributes nothing', () => {
    expect(
      concat([f32([1, 0], []), f32([1, 2], [4, 5])], f32([1, 2]), 1)
        .invoke()
        .outputArray(),
    ).toEqual([4, 5]);
  });

  it('int8 with shared quantization copies values unchanged', () => {
    const q = { scale: 0.1, zeroPoint: -3 };
    const out = concat(
      [
        { type: TensorType.INT8, shape: [1, 2], data: [-128, 1], ...q },
        { type: TensorType.INT8, shape: [1, 1], data: [127], ...q },
      ],
      { type: TensorType.INT8, shape: [1, 3], ...q },
      1,
    )
      .invoke()
      .outputArray();
    expect(out).toEqual([-128, 1, 127]);
  });
  it('int16 (zero point 0), int32 and bool', () => {
    const q16 = { scale: 0.5, zeroPoint: 0 };
    expect(
      concat(
        [
          { type: TensorType.INT16, shape: [1], data: [-32768], ...q16 },
          { type: TensorType.INT16, shape: [1], data: [32767], ...q16 },
        ],
        {
          type: TensorType.INT16,
          shape: [2],
          ...q16,
        },
        0,
      )
        .invoke()
        .outputArray(),
    ).toEqual([-32768, 32767]);
    expect(
      concat(
        [
          { type: TensorType.INT32, shape: [1, 1], data: [2147483647] },
          { type: TensorType.INT32, shape: [1, 1], data: [-2147483648] },
        ],
        {
          type: TensorType.INT32,
          shape: [1, 2],
        },
        1,
      )
        .invoke()
        .outputArray(),
    ).toEqual([2147483647, -2147483648]);
    expect(
      concat(
        [
          { type: TensorType.BOOL, shape: [2], data: [1, 0] },
          { type: TensorType.BOOL, shape: [1], data: [1] },
        ],
        { type: TensorType.BOOL, shape: [3] },
        0,
      )
        .invoke()
        .outputArray(),
    ).toEqual([1, 0, 1]);
  });
  it('int64 values keep all 64 bits', () => {
    const h = concat(
      [
        { type: TensorType.INT64, shape: [2, 1], data: [9007199254740993n, -1n] },
        { type: TensorType.INT64, shape: [2, 1], data: [-9223372036854775808n, 42n] },
      ],
      { type: TensorType.INT64, shape: [2, 2] },
      1,
    );
    expect(Array.from(h.invoke().output<BigInt64Array>())).toEqual([9007199254740993n, -9223372036854775808n, -1n, 42n]);
  });

  describe('prepare rejects', () => {
    it('int8 inputs with a different scale than the output', () => {
      const h = concat(
        [
          { type: TensorType.INT8, shape: [1], data: [1], scale: 0.1, zeroPoint: 0 },
          { type: TensorType.INT8, shape: [1], data: [1], scale: 0.2, zeroPoint: 0 },
        ],
        { type: TensorType.INT8, shape: [2], scale: 0.1, zeroPoint: 0 },
        0,
      );
      expect(() => h.prepare()).toThrow(/int8 input 1 quantization \(scale 0\.2.*must equal the output's/);
    });
    it('int8 inputs with a different zero point', () => {
      const h = concat(
        [{ type: TensorType.INT8, shape: [1], data: [1], scale: 0.1, zeroPoint: 1 }],
        { type: TensorType.INT8, shape: [1], scale: 0.1, zeroPoint: 0 },
        0,
      );
      expect(() => h.prepare()).toThrow(/zero point 1/);
    });
    it('int16 with a non-zero zero point', () => {
      const h = concat(
        [{ type: TensorType.INT16, shape: [1], data: [1], scale: 1, zeroPoint: 2 }],
        { type: TensorType.INT16, shape: [1], scale: 1, zeroPoint: 2 },
        0,
      );
      expect(() => h.prepare()).toThrow(/zero point must be 0/);
    });
    it('an axis out of range', () => {
      expect(() => concat([f32([2], [1, 2])], f32([2]), 1).prepare()).toThrow(/axis 1 is out of range/);
      expect(() => concat([f32([2], [1, 2])], f32([2]), -2).prepare()).toThrow(/axis -2 is out of range/);
    });
    it('mismatched non-axis dims', () => {
      expect(() => concat([f32([2, 3], a), f32([1, 3], [1, 2, 3])], f32([2, 6]), 1).prepare()).toThrow(/input 1 shape \[1, 3\] differs/);
    });
    it('axis sizes that do not add up', () => {
      expect(() => concat([f32([2, 3], a), f32([2, 3], b)], f32([2, 5]), 1).prepare()).toThrow(
        /add up to 6 along axis 1, the output has 5/,
      );
    });
    it('a fused activation', () => {
      expect(() => concat([f32([1], [1])], f32([1]), 0, ActivationFunctionType.RELU).prepare()).toThrow(/RELU is not supported/);
    });
    it('mixed types', () => {
      expect(() => concat([f32([1], [1]), { type: TensorType.INT32, shape: [1], data: [1] }], f32([2]), 0).prepare()).toThrow(
        /input 1 has type int32/,
      );
    });
    it('7-D tensors', () => {
      const s = [1, 1, 1, 1, 1, 1, 1];
      expect(() => concat([f32(s, [1])], f32(s), 0).prepare()).toThrow(/at most 6/);
    });
    it('uint16', () => {
      expect(() =>
        concat([{ type: TensorType.UINT16, shape: [1], data: [1] }], { type: TensorType.UINT16, shape: [1] }, 0).prepare(),
      ).toThrow(/unsupported type uint16/);
    });
  });
});

describe('CONCATENATION uint8 (TFLite ConcatenationWithScaling)', () => {
  it('copies an input quantized like the output and requantizes another in float32 with roundf', () => {
    const q = { scale: 0.5, zeroPoint: 100 };
    const a = { type: TensorType.UINT8, shape: [1, 2], data: [0, 255], ...q };
    // scale 0.25 / 0.5 = 0.5, bias -20 * 0.5 = -10: x * 0.5 - 10 rounded half away from zero, + 100, clamped
    const b = { type: TensorType.UINT8, shape: [1, 3], data: [0, 21, 255], scale: 0.25, zeroPoint: 20 };
    const h = concat([a, b], { type: TensorType.UINT8, shape: [1, 5], ...q }, 1).invoke();
    expect(h.outputArray()).toEqual([0, 255, 90, 101, 218]);
    expect(h.persistentBytes).toBe(48 + 16); // TFLM's 40-byte OpData, then 2 x (scale, bias)
  });
});
