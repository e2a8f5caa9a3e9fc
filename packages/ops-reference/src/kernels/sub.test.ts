import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, KernelError, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { SUB } from './sub.js';

function sub(a: HarnessTensorSpec, b: HarnessTensorSpec, out: HarnessTensorSpec, activation = ActivationFunctionType.NONE): KernelHarness {
  return new KernelHarness({
    registration: SUB,
    tensors: [a, b, out],
    inputs: [0, 1],
    outputs: [2],
    builtinData: { fusedActivationFunction: activation, potScaleInt16: true },
  });
}

describe('SUB float32', () => {
  it('broadcasts a row over a matrix', () => {
    const h = sub(
      { type: TensorType.FLOAT32, shape: [2, 3], data: [1, 2, 3, 4, 5, 6] },
      { type: TensorType.FLOAT32, shape: [3], data: [0.5, 1, -1] },
      { type: TensorType.FLOAT32, shape: [2, 3] },
    ).invoke();
    expect(h.outputArray()).toEqual([0.5, 1, 4, 3.5, 4, 7]);
  });

  it('clamps to the fused RELU6 range and maps infinities to the float range', () => {
    const h = sub(
      { type: TensorType.FLOAT32, shape: [4], data: [10, -3, 2.5, Infinity] },
      { type: TensorType.FLOAT32, shape: [4], data: [1, 1, 0.5, 0] },
      { type: TensorType.FLOAT32, shape: [4] },
      ActivationFunctionType.RELU6,
    ).invoke();
    expect(h.outputArray()).toEqual([6, 0, 2, 6]);
    const none = sub(
      { type: TensorType.FLOAT32, shape: [2], data: [Infinity, -Infinity] },
      { type: TensorType.FLOAT32, shape: [1], data: [0] },
      { type: TensorType.FLOAT32, shape: [2] },
    ).invoke();
    // TFLM clamps with numeric_limits<float>::lowest()/max(), not infinities.
    expect(none.outputArray()).toEqual([Math.fround(3.4028234663852886e38), -Math.fround(3.4028234663852886e38)]);
  });
});

describe('SUB int32', () => {
  it('wraps like C and broadcasts [2,1,3] against [1,2,1]', () => {
    const h = sub(
      { type: TensorType.INT32, shape: [2, 1, 3], data: [1, 2, 3, 4, 5, 6] },
      { type: TensorType.INT32, shape: [1, 2, 1], data: [10, 20] },
      { type: TensorType.INT32, shape: [2, 2, 3] },
    ).invoke();
    expect(h.outputArray()).toEqual([-9, -8, -7, -19, -18, -17, -6, -5, -4, -16, -15, -14]);
    const w = sub(
      { type: TensorType.INT32, shape: [2], data: [-2147483648, 2147483647] },
      { type: TensorType.INT32, shape: [2], data: [1, -1] },
      { type: TensorType.INT32, shape: [2] },
    ).invoke();
    expect(w.outputArray()).toEqual([2147483647, -2147483648]);
  });

  it('applies RELU as [0, INT32_MAX]', () => {
    const h = sub(
      { type: TensorType.INT32, shape: [3], data: [5, -5, 0] },
      { type: TensorType.INT32, shape: [], data: [1] },
      { type: TensorType.INT32, shape: [3] },
      ActivationFunctionType.RELU,
    ).invoke();
    expect(h.outputArray()).toEqual([4, 0, 0]);
  });
});

describe('SUB int8', () => {
  it('gives the exact difference when all scales are equal, saturating at the type range', () => {
    const q = { scale: 0.5, zeroPoint: 10 };
    const h = sub(
      { type: TensorType.INT8, shape: [5], data: [20, 10, 127, -128, 0], ...q },
      { type: TensorType.INT8, shape: [5], data: [15, 30, -128, 127, 0], ...q },
      { type: TensorType.INT8, shape: [5], scale: 0.5, zeroPoint: -5 },
    ).invoke();
    // (a - 10) - (b - 10) - 5
    expect(h.outputArray()).toEqual([0, -25, 127, -128, -5]);
  });

  it('matches TFLM general rescaling with different scales and zero points', () => {
    // Expected values from TFLM's reference algorithm (SubElementwise, left_shift 20).
    const h = sub(
      { type: TensorType.INT8, shape: [10], data: [127, -128, 102, 1, -4, 22, -109, -96, -116, 102], scale: 0.05, zeroPoint: 3 },
      { type: TensorType.INT8, shape: [10], data: [-128, 127, 76, 78, 91, 102, -38, 36, -63, -117], scale: 0.02, zeroPoint: -7 },
      { type: TensorType.INT8, shape: [10], scale: 0.07, zeroPoint: 1 },
    ).invoke();
    expect(h.outputArray()).toEqual([124, -128, 48, -25, -32, -17, -70, -82, -68, 103]);
  });

  it('broadcasts a scalar and honours a fused RELU in the quantized domain', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = sub(
      { type: TensorType.INT8, shape: [2, 2], data: [1, 2, 3, 4], ...q },
      { type: TensorType.INT8, shape: [1], data: [3], ...q },
      { type: TensorType.INT8, shape: [2, 2], ...q },
      ActivationFunctionType.RELU,
    ).invoke();
    expect(h.outputArray()).toEqual([0, 0, 0, 1]);
  });

  it('keeps TFLM OpDataSub (52 bytes) in a persistent buffer', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = sub(
      { type: TensorType.INT8, shape: [1], data: [1], ...q },
      { type: TensorType.INT8, shape: [1], data: [1], ...q },
      { type: TensorType.INT8, shape: [1], ...q },
    ).prepare();
    expect(h.persistentBytes).toBe(64);
  });
});

describe('SUB int16', () => {
  it('matches TFLM general rescaling (left_shift 15) for power-of-two and arbitrary scales', () => {
    const pot = sub(
      { type: TensorType.INT16, shape: [6], data: [32767, -32768, -26238, -18009, 6490, -298], scale: 1 / 32768, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [6], data: [-32768, 32767, -29766, -17328, -17908, 21683], scale: 1 / 16384, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [6], scale: 1 / 8192, zeroPoint: 0 },
    ).invoke();
    expect(pot.outputArray()).toEqual([24576, -24576, 8324, 4162, 10577, -10916]);
    const general = sub(
      { type: TensorType.INT16, shape: [6], data: [32767, -32768, 26118, 18825, -8675, 23505], scale: 0.001, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [6], data: [-32768, 32767, 24623, 1506, -30257, 14076], scale: 0.0007, zeroPoint: 0 },
      { type: TensorType.INT16, shape: [6], scale: 0.0021, zeroPoint: 0 },
    ).invoke();
    expect(general.outputArray()).toEqual([26526, -26526, 4229, 8462, 5955, 6501]);
  });
});

describe('SUB prepare validation', () => {
  const f = (shape: number[]): HarnessTensorSpec => ({
    type: TensorType.FLOAT32,
    shape,
    data: new Array(shape.reduce((a, b) => a * b, 1)).fill(0),
  });

  it('rejects mixed input types', () => {
    const h = sub(f([2]), { type: TensorType.INT32, shape: [2], data: [0, 0] }, f([2]));
    expect(() => h.prepare()).toThrow(KernelError);
    expect(() => h.prepare()).toThrow(/SUB \(node 0\).*types differ.*float32.*int32/);
  });

  it('rejects shapes that do not broadcast, naming both shapes', () => {
    expect(() => sub(f([2, 3]), f([4]), f([2, 3])).prepare()).toThrow(/\[2,3\] and \[4\] cannot be broadcast/);
  });

  it('rejects an output of the wrong broadcast shape', () => {
    expect(() => sub(f([2, 1]), f([1, 3]), f([3, 2])).prepare()).toThrow(/expected the broadcast shape \[2,3\]/);
  });

  it('rejects broadcasting beyond 6 dimensions', () => {
    expect(() => sub(f([2, 1, 1, 1, 1, 1, 1]), f([1]), f([2, 1, 1, 1, 1, 1, 1])).prepare()).toThrow(/at most 6 dimensions, got rank 7/);
  });

  it('rejects unsupported types and quantized int32', () => {
    const b = { type: TensorType.BOOL, shape: [1], data: [0] };
    expect(() => sub(b, b, b).prepare()).toThrow(/unsupported output type bool/);
    const qi32 = { type: TensorType.INT32, shape: [1], data: [0], scale: 1, zeroPoint: 0 };
    expect(() => sub(qi32, qi32, qi32).prepare()).toThrow(/must not be quantized/);
  });

  it('rejects int8 tensors without quantization', () => {
    const i8 = { type: TensorType.INT8, shape: [1], data: [0] };
    expect(() => sub(i8, i8, i8).prepare()).toThrow(/needs affine quantization/);
  });
});
