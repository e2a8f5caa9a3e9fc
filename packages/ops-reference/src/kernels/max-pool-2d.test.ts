import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MAX_POOL_2D } from './max-pool-2d.js';

function run(
  type: TensorType,
  input: number[],
  outShape: number[],
  opts: {
    stride?: [number, number];
    padding?: Padding;
    act?: ActivationFunctionType;
    scale?: number;
    zeroPoint?: number;
    inShape?: number[];
  } = {},
): number[] {
  const q = type === TensorType.FLOAT32 ? {} : { scale: opts.scale ?? 1, zeroPoint: opts.zeroPoint ?? 0 };
  const stride = opts.stride ?? [2, 2];
  const h = new KernelHarness({
    registration: MAX_POOL_2D,
    tensors: [
      { type, shape: opts.inShape ?? [1, 2, 4, 1], data: input, ...q },
      { type, shape: outShape, ...q },
    ],
    inputs: [0],
    outputs: [1],
    builtinData: {
      padding: opts.padding ?? Padding.VALID,
      filterHeight: 2,
      filterWidth: 2,
      strideH: stride[0],
      strideW: stride[1],
      fusedActivationFunction: opts.act ?? ActivationFunctionType.NONE,
    },
  });
  return h.invoke().outputArray();
}

describe('MAX_POOL_2D', () => {
  describe('float32 (TFLM pooling_test goldens)', () => {
    it('VALID stride 2', () => {
      expect(run(TensorType.FLOAT32, [0, 6, 2, 4, 3, 2, 10, 7], [1, 1, 2, 1])).toEqual([6, 10]);
    });
    it('RELU', () => {
      expect(run(TensorType.FLOAT32, [-1, -6, 2, 4, -3, -2, 10.5, 7], [1, 1, 2, 1], { act: ActivationFunctionType.RELU })).toEqual([
        0, 10.5,
      ]);
    });
    it('RELU_N1_TO_1', () => {
      const act = ActivationFunctionType.RELU_N1_TO_1;
      expect(run(TensorType.FLOAT32, [-2.75, -6, 0.2, 0.4, -3, -2, -0.3, 0.7], [1, 1, 2, 1], { act })).toEqual([-1, Math.fround(0.7)]);
      expect(run(TensorType.FLOAT32, [-2.75, -6, -2, -4, -3, -2, 10, -7], [1, 1, 2, 1], { act })).toEqual([-1, 1]);
    });
    it('RELU6', () => {
      const act = ActivationFunctionType.RELU6;
      expect(run(TensorType.FLOAT32, [-1.5, -6, 12, 4, -3, -2, 10, 7], [1, 1, 2, 1], { act })).toEqual([0, 6]);
      expect(run(TensorType.FLOAT32, [0, 4.5, 12, 4, 3, 2, 10, 7], [1, 1, 2, 1], { act })).toEqual([4.5, 6]);
    });
    it('SAME stride 1: right and bottom windows are clipped', () => {
      expect(run(TensorType.FLOAT32, [0, 6, 2, 4, 3, 2, 10, 7], [1, 2, 4, 1], { stride: [1, 1], padding: Padding.SAME })).toEqual([
        6, 10, 10, 7, 3, 10, 10, 7,
      ]);
    });
    it('VALID stride 1', () => {
      expect(run(TensorType.FLOAT32, [0, 6, 2, 4, 3, 2, 10, 7], [1, 1, 3, 1], { stride: [1, 1] })).toEqual([6, 10, 10]);
    });
    it('all-negative windows keep the negative maximum', () => {
      expect(run(TensorType.FLOAT32, [-5, -6, -2, -4, -3, -9, -10, -7], [1, 1, 2, 1])).toEqual([-3, -2]);
    });
  });

  for (const type of [TensorType.INT8, TensorType.INT16]) {
    const name = TensorType[type];
    describe(`${name} (TFLM pooling_test goldens)`, () => {
      it('NONE', () => {
        expect(run(type, [0, 6, 2, 4, 3, 2, 10, 7], [1, 1, 2, 1])).toEqual([6, 10]);
      });
      it('RELU at scale 0.5', () => {
        expect(run(type, [-3, -12, 4, 8, -6, -4, 20, 14], [1, 1, 2, 1], { act: ActivationFunctionType.RELU, scale: 0.5 })).toEqual([0, 20]);
      });
      it('RELU_N1_TO_1', () => {
        expect(run(type, [-2, -6, -2, -4, -3, -2, 10, 7], [1, 1, 2, 1], { act: ActivationFunctionType.RELU_N1_TO_1 })).toEqual([-1, 1]);
      });
      it('RELU6', () => {
        expect(run(type, [0, -6, 12, 4, -3, -2, 10, 7], [1, 1, 2, 1], { act: ActivationFunctionType.RELU6 })).toEqual([0, 6]);
      });
    });
  }

  it('int8 minimum values survive (the start value is the type lowest)', () => {
    expect(run(TensorType.INT8, [-128, -128, -128, -128, -128, -128, -128, -127], [1, 1, 2, 1])).toEqual([-128, -127]);
  });

  it('int8 RELU6 with zero point 5 and scale 0.5 clamps to [5, 17]', () => {
    expect(
      run(TensorType.INT8, [-20, 1, 2, 3, 4, 5, 100, 7], [1, 1, 2, 1], { act: ActivationFunctionType.RELU6, scale: 0.5, zeroPoint: 5 }),
    ).toEqual([5, 17]);
  });

  it('int16 full range', () => {
    expect(run(TensorType.INT16, [-32768, -32768, 32767, 0, -32768, -32768, 1, 2], [1, 1, 2, 1])).toEqual([-32768, 32767]);
  });

  it('rejects mismatched quantization', () => {
    const h = new KernelHarness({
      registration: MAX_POOL_2D,
      tensors: [
        { type: TensorType.INT8, shape: [1, 2, 2, 1], data: [1, 2, 3, 4], scale: 1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1, 1, 1, 1], scale: 1, zeroPoint: 1 },
      ],
      inputs: [0],
      outputs: [1],
      builtinData: { padding: Padding.VALID, filterHeight: 2, filterWidth: 2, strideH: 2, strideW: 2, fusedActivationFunction: 0 },
    });
    expect(() => h.prepare()).toThrow(/MAX_POOL_2D \(node 0\): input zero point 0 and output zero point 1 must be equal/);
  });

  it('rejects zero strides', () => {
    expect(() => run(TensorType.FLOAT32, [0, 6, 2, 4, 3, 2, 10, 7], [1, 1, 2, 1], { stride: [0, 2] })).toThrow(/strides must be >= 1/);
  });
});

describe('MAX_POOL_2D uint8 (TFLite reference_ops::MaxPool)', () => {
  it('takes the window maximum (from 0) and clamps to the fused activation', () => {
    const x = [0, 255, 3, 4, 10, 11, 5, 7];
    expect(run(TensorType.UINT8, x, [1, 1, 2, 1], { scale: 0.5, zeroPoint: 10 })).toEqual([255, 7]);
    // RELU6 with scale 0.5, zero point 10: [10, 22]
    expect(run(TensorType.UINT8, x, [1, 1, 2, 1], { scale: 0.5, zeroPoint: 10, act: ActivationFunctionType.RELU6 })).toEqual([22, 10]);
    // SAME stride 1: the right and bottom windows are clipped to the input
    expect(run(TensorType.UINT8, x, [1, 2, 4, 1], { stride: [1, 1], padding: Padding.SAME, scale: 0.5, zeroPoint: 0 })).toEqual([
      255, 255, 7, 7, 11, 11, 7, 7,
    ]);
  });
});
