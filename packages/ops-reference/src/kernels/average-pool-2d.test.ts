import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, KernelError, Padding, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { Pool2DOptions } from '@micrort/core';
import { AVERAGE_POOL_2D } from './average-pool-2d.js';
import { computePaddingHeightWidth } from '@micrort/kernel-support';

interface Case {
  type: TensorType;
  inShape: number[];
  input: number[];
  outShape: number[];
  filter: [number, number];
  stride: [number, number];
  padding?: Padding;
  act?: ActivationFunctionType;
  scale?: number;
  zeroPoint?: number;
  outScale?: number;
  outZeroPoint?: number;
}

function run(c: Case): number[] {
  const q = c.type === TensorType.FLOAT32 ? {} : { scale: c.scale ?? 0.25, zeroPoint: c.zeroPoint ?? 0 };
  const qo = c.type === TensorType.FLOAT32 ? {} : { scale: c.outScale ?? c.scale ?? 0.25, zeroPoint: c.outZeroPoint ?? c.zeroPoint ?? 0 };
  const options: Pool2DOptions = {
    padding: c.padding ?? Padding.VALID,
    filterHeight: c.filter[0],
    filterWidth: c.filter[1],
    strideH: c.stride[0],
    strideW: c.stride[1],
    fusedActivationFunction: c.act ?? ActivationFunctionType.NONE,
  };
  const h = new KernelHarness({
    registration: AVERAGE_POOL_2D,
    tensors: [
      { type: c.type, shape: c.inShape, data: c.input, ...q },
      { type: c.type, shape: c.outShape, ...qo },
    ],
    inputs: [0],
    outputs: [1],
    builtinData: options,
  });
  return h.invoke().outputArray();
}

const TFLM_INPUT = [0, -24, 8, 16, 12, 8, -40, 28];

describe('computePaddingHeightWidth (TFLM padding.h)', () => {
  it('SAME: output ceil(in/stride), leading padding half the total, odd remainder as offset', () => {
    expect(computePaddingHeightWidth(2, 2, 1, 1, 3, 4, 2, 3, Padding.SAME)).toEqual({
      height: 0,
      heightOffset: 1,
      outHeight: 2,
      width: 0,
      widthOffset: 1,
      outWidth: 2,
    });
    expect(computePaddingHeightWidth(1, 1, 1, 1, 5, 5, 3, 3, Padding.SAME)).toMatchObject({
      height: 1,
      width: 1,
      outHeight: 5,
      outWidth: 5,
    });
  });
  it('VALID: no padding, output (in - filter + stride) / stride', () => {
    expect(computePaddingHeightWidth(2, 1, 1, 1, 7, 7, 3, 7, Padding.VALID)).toMatchObject({
      height: 0,
      width: 0,
      outHeight: 3,
      outWidth: 1,
    });
  });
});

describe('AVERAGE_POOL_2D', () => {
  it('float32, VALID, stride 2 (TFLM SimpleAveragePoolTestFloat)', () => {
    const out = run({
      type: TensorType.FLOAT32,
      inShape: [1, 2, 4, 1],
      input: [0, 6, 2, 4, 3, 2, 10, 7],
      outShape: [1, 1, 2, 1],
      filter: [2, 2],
      stride: [2, 2],
    });
    expect(out).toEqual([2.75, 5.75]);
  });

  it('float32 RELU6 clamps the average', () => {
    const out = run({
      type: TensorType.FLOAT32,
      inShape: [1, 2, 4, 1],
      input: [-8, -6, 20, 4, -3, -2, 10, 7],
      outShape: [1, 1, 2, 1],
      filter: [2, 2],
      stride: [2, 2],
      act: ActivationFunctionType.RELU6,
    });
    expect(out).toEqual([0, 6]);
  });

  it('float32 without activation clamps an infinite average to the float limits, as TFLM', () => {
    const out = run({
      type: TensorType.FLOAT32,
      inShape: [1, 1, 2, 1],
      input: [Infinity, 1],
      outShape: [1, 1, 1, 1],
      filter: [1, 2],
      stride: [1, 2],
    });
    expect(out).toEqual([3.4028234663852886e38]);
  });

  for (const type of [TensorType.INT8, TensorType.INT16]) {
    const name = TensorType[type];
    it(`${name}: VALID stride 2, sums -4 and 12 over 4 round to -1 and 3 (TFLM test)`, () => {
      expect(run({ type, inShape: [1, 2, 4, 1], input: TFLM_INPUT, outShape: [1, 1, 2, 1], filter: [2, 2], stride: [2, 2] })).toEqual([
        -1, 3,
      ]);
    });
    it(`${name}: stride h2 w1 with RELU (TFLM test)`, () => {
      const out = run({
        type,
        inShape: [1, 2, 4, 1],
        input: TFLM_INPUT,
        outShape: [1, 1, 3, 1],
        filter: [2, 2],
        stride: [2, 1],
        act: ActivationFunctionType.RELU,
      });
      expect(out).toEqual([0, 0, 3]);
    });
    it(`${name}: RELU6 at scale 0.25 clamps to 24 (TFLM test)`, () => {
      const out = run({
        type,
        inShape: [1, 2, 4, 1],
        input: [12, -24, 32, 16, 12, 8, 40, 28],
        outShape: [1, 1, 2, 1],
        filter: [2, 2],
        stride: [2, 2],
        act: ActivationFunctionType.RELU6,
      });
      expect(out).toEqual([2, 24]);
    });
    it(`${name}: output larger than VALID gives clipped windows, as TFLM (TFLM PaddingSameStride1 test)`, () => {
      const out = run({
        type,
        inShape: [1, 2, 4, 1],
        input: [12, -24, 32, 16, 12, 8, 40, 28],
        outShape: [1, 2, 4, 1],
        filter: [2, 2],
        stride: [1, 1],
      });
      expect(out).toEqual([2, 14, 29, 22, 10, 24, 34, 28]);
    });
  }

  it('int8 SAME stride 2: partial windows, ties round away from zero (4.5 -> 5, -2.5 -> -3)', () => {
    // 3x3 input, 2x2 filter, stride 2, SAME: out 2x2, padding 0 (offset 1) so right/bottom windows are clipped.
    const out = run({
      type: TensorType.INT8,
      inShape: [1, 3, 3, 1],
      input: [1, 2, 3, 4, 5, 6, 7, -12, -9],
      outShape: [1, 2, 2, 1],
      filter: [2, 2],
      stride: [2, 2],
      padding: Padding.SAME,
      scale: 1,
    });
    // (1+2+4+5)/4 = 3; (3+6)/2 = 4.5 -> 5; (7-12)/2 = -2.5 -> -3; -9/1 = -9
    expect(out).toEqual([3, 5, -3, -9]);
  });

  it('int8 with two channels and a batch of 2 keeps NHWC order', () => {
    // batch 0: channel 0 = [1,2,3,4], channel 1 = [10,20,30,40]; batch 1: negated
    const b0 = [1, 10, 2, 20, 3, 30, 4, 40];
    const input = [...b0, ...b0.map((v) => -v)];
    const out = run({
      type: TensorType.INT8,
      inShape: [2, 2, 2, 2],
      input,
      outShape: [2, 1, 1, 2],
      filter: [2, 2],
      stride: [2, 2],
      scale: 1,
    });
    // 10/4 = 2.5 -> 3, 100/4 = 25; negated: -3, -25
    expect(out).toEqual([3, 25, -3, -25]);
  });

  it('int8 RELU with a non-zero zero point clamps at the zero point', () => {
    const out = run({
      type: TensorType.INT8,
      inShape: [1, 1, 4, 1],
      input: [-30, -20, 5, 9],
      outShape: [1, 1, 2, 1],
      filter: [1, 2],
      stride: [1, 2],
      act: ActivationFunctionType.RELU,
      scale: 0.5,
      zeroPoint: -10,
    });
    // averages -25 and 7; RELU lower bound is the zero point -10
    expect(out).toEqual([-10, 7]);
  });

  it('int16 keeps values beyond the int8 range', () => {
    const out = run({
      type: TensorType.INT16,
      inShape: [1, 1, 2, 1],
      input: [30000, 20001],
      outShape: [1, 1, 1, 1],
      filter: [1, 2],
      stride: [1, 2],
      scale: 1,
    });
    expect(out).toEqual([25001]);
  });

  it('invoking twice gives the same result', () => {
    const h = new KernelHarness({
      registration: AVERAGE_POOL_2D,
      tensors: [
        { type: TensorType.INT8, shape: [1, 2, 2, 1], data: [1, 2, 3, 5], scale: 1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1, 1, 1, 1], scale: 1, zeroPoint: 0 },
      ],
      inputs: [0],
      outputs: [1],
      builtinData: { padding: Padding.VALID, filterHeight: 2, filterWidth: 2, strideH: 2, strideW: 2, fusedActivationFunction: 0 },
    });
    expect(h.invoke().outputArray()).toEqual([3]);
    h.setInput(0, [-1, -2, -3, -5]);
    expect(h.invoke().outputArray()).toEqual([-3]);
  });

  describe('prepare rejects', () => {
    const base: Case = {
      type: TensorType.INT8,
      inShape: [1, 2, 4, 1],
      input: TFLM_INPUT,
      outShape: [1, 1, 2, 1],
      filter: [2, 2],
      stride: [2, 2],
    };
    it('different input and output scales', () => {
      expect(() => run({ ...base, scale: 0.25, outScale: 0.5 })).toThrow(/scale/);
    });
    it('different zero points', () => {
      expect(() => run({ ...base, zeroPoint: 0, outZeroPoint: 3 })).toThrow(/zero point/);
    });
    it('a non-4-D input', () => {
      expect(() => run({ ...base, inShape: [2, 4, 1] })).toThrow(KernelError);
    });
    it('an output with a window entirely outside the input', () => {
      expect(() => run({ ...base, outShape: [1, 1, 3, 1] })).toThrow(/window/);
    });
    it('a different output depth', () => {
      expect(() => run({ ...base, outShape: [1, 1, 2, 2] })).toThrow(/depth/);
    });
    it('int32 input', () => {
      expect(() => run({ ...base, type: TensorType.INT32 })).toThrow(/unsupported input type int32/);
    });
    it('a TANH fused activation', () => {
      expect(() => run({ ...base, act: ActivationFunctionType.TANH })).toThrow(/TANH/);
    });
  });
});

describe('AVERAGE_POOL_2D uint8 (TFLite reference_ops::AveragePool)', () => {
  it('rounds (sum + count/2) / count, averages only the part of a window inside the input, clamps to the activation', () => {
    // 2x2 windows, stride 2 over [1, 2, 4, 1]: sums 0+255+10+11 = 276 → 69; 3+4+5+7 = 19 → 4.75 → 5
    const base: Case = {
      type: TensorType.UINT8,
      inShape: [1, 2, 4, 1],
      input: [0, 255, 3, 4, 10, 11, 5, 7],
      outShape: [1, 1, 2, 1],
      filter: [2, 2],
      stride: [2, 2],
      scale: 0.5,
      zeroPoint: 10,
    };
    expect(run(base)).toEqual([69, 5]);
    // 0.5 rounds up: 1+2 = 3 / 2 = 1.5 → 2
    expect(run({ ...base, inShape: [1, 1, 2, 1], input: [1, 2], outShape: [1, 1, 1, 1], filter: [1, 2], stride: [1, 2] })).toEqual([2]);
    // SAME 3x3 at a corner averages the 4 inside taps; RELU6 with scale 0.5, zero point 10 clamps to [10, 22]
    const same = {
      ...base,
      inShape: [1, 2, 2, 1],
      input: [0, 2, 4, 9],
      outShape: [1, 2, 2, 1],
      filter: [3, 3] as [number, number],
      stride: [1, 1] as [number, number],
      padding: Padding.SAME,
    };
    expect(run(same)).toEqual([4, 4, 4, 4]);
    expect(run({ ...same, input: [200, 210, 220, 230], act: ActivationFunctionType.RELU6 })).toEqual([22, 22, 22, 22]);
    expect(run({ ...same, act: ActivationFunctionType.RELU })).toEqual([10, 10, 10, 10]);
  });
});
