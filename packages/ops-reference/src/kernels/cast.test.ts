import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { CAST, floatToInt32X86, floatToUint32X86 } from './cast.js';

function cast(from: TensorType, to: TensorType, data: number[]): number[] {
  return new KernelHarness({
    registration: CAST,
    tensors: [
      { type: from, shape: [data.length], data },
      { type: to, shape: [data.length] },
    ],
    inputs: [0],
    outputs: [1],
  })
    .invoke()
    .outputArray();
}

describe('CAST', () => {
  it('uint32 <-> int32 reinterprets the bits (audio preprocessor Cast / Cast_1)', () => {
    expect(cast(TensorType.UINT32, TensorType.INT32, [0, 5, 2147483647, 2147483648, 4294967295])).toEqual([
      0, 5, 2147483647, -2147483648, -1,
    ]);
    expect(cast(TensorType.INT32, TensorType.UINT32, [0, 5, -1, -2147483648])).toEqual([0, 5, 4294967295, 2147483648]);
  });

  it('int16 -> int32 sign-extends and int32 -> int8 wraps (Cast_2 and the final cast)', () => {
    expect(cast(TensorType.INT16, TensorType.INT32, [-32768, -1, 0, 32767])).toEqual([-32768, -1, 0, 32767]);
    expect(cast(TensorType.INT32, TensorType.INT8, [127, 128, -129, 300, -300, 255])).toEqual([127, -128, 127, 44, -44, -1]);
  });

  it('float32 -> integers truncates toward zero', () => {
    expect(cast(TensorType.FLOAT32, TensorType.INT32, [1.9, -1.9, 0.5, -0.5, 1e9])).toEqual([1, -1, 0, 0, 1000000000]);
    expect(cast(TensorType.FLOAT32, TensorType.INT8, [127.5, 128, 300.7, -300.7])).toEqual([127, -128, 44, -44]);
    expect(cast(TensorType.FLOAT32, TensorType.UINT8, [300.7, -300.7, -1])).toEqual([44, 212, 255]);
    expect(cast(TensorType.FLOAT32, TensorType.INT16, [65535.9, -1.9])).toEqual([-1, -1]);
  });

  it('float32 out of range and NaN follow the x86 conversion instructions', () => {
    expect(cast(TensorType.FLOAT32, TensorType.INT32, [2147483648, -2147483648, NaN, Infinity])).toEqual([
      -2147483648, -2147483648, -2147483648, -2147483648,
    ]);
    expect(cast(TensorType.FLOAT32, TensorType.INT8, [2147483520, 2147483648, NaN])).toEqual([-128, 0, 0]);
    expect(cast(TensorType.FLOAT32, TensorType.UINT32, [-1.9, 4294967040, 4294967296, -2147483904, 1e20, NaN])).toEqual([
      4294967295, 4294967040, 0, 2147483392, 0, 0,
    ]);
  });

  it('integers -> float32 round to nearest even', () => {
    expect(cast(TensorType.INT32, TensorType.FLOAT32, [16777217, -16777219, 7])).toEqual([16777216, -16777220, 7]);
    expect(cast(TensorType.UINT32, TensorType.FLOAT32, [4294967295])).toEqual([4294967296]);
    expect(cast(TensorType.INT8, TensorType.FLOAT32, [-128, 127])).toEqual([-128, 127]);
  });

  it('bool: any value != 0 is true, and true/false cast back to 1/0', () => {
    expect(cast(TensorType.FLOAT32, TensorType.BOOL, [0, -0, 0.1, NaN])).toEqual([0, 0, 1, 1]);
    expect(cast(TensorType.INT32, TensorType.BOOL, [0, 256, -1])).toEqual([0, 1, 1]);
    expect(cast(TensorType.BOOL, TensorType.FLOAT32, [1, 0])).toEqual([1, 0]);
  });

  it('rejects unsupported types and element-count mismatches', () => {
    const bad = new KernelHarness({
      registration: CAST,
      tensors: [
        { type: TensorType.UINT64, shape: [1], data: [1n] },
        { type: TensorType.FLOAT32, shape: [1] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => bad.prepare()).toThrow(/CAST \(node 0\): unsupported input type uint64/);
    const count = new KernelHarness({
      registration: CAST,
      tensors: [
        { type: TensorType.INT32, shape: [2], data: [1, 2] },
        { type: TensorType.INT8, shape: [1] },
      ],
      inputs: [0],
      outputs: [1],
    });
    expect(() => count.prepare()).toThrow(/differ in element count: 2 vs 1/);
  });

  it('exposes the x86 conversions', () => {
    expect(floatToInt32X86(-2147483648.5)).toBe(-2147483648);
    expect(floatToInt32X86(-2147483649)).toBe(-2147483648);
    expect(floatToUint32X86(-1) >>> 0).toBe(4294967295);
  });
});
