import { describe, expect, it } from 'vitest';
import { KernelError, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MEAN, foldCountIntoMultiplier } from './mean.js';

interface Q {
  scale: number;
  zeroPoint: number;
}

function harness(
  type: TensorType,
  inShape: number[],
  input: number[],
  axes: number[],
  outShape: number[],
  keepDims: boolean,
  qIn?: Q,
  qOut?: Q,
): KernelHarness {
  return new KernelHarness({
    registration: MEAN,
    tensors: [
      { type, shape: inShape, data: input, ...(qIn ?? {}) },
      { type: TensorType.INT32, shape: [axes.length], data: axes, constant: true },
      { type, shape: outShape, ...(qOut ?? qIn ?? {}) },
    ],
    inputs: [0, 1],
    outputs: [2],
    builtinData: { keepDims },
  });
}

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

describe('foldCountIntoMultiplier (QuantizedMeanOrSum rescaling)', () => {
  it('scale ratio 1 and 49 elements (mobilenet_v2 MEAN): 2^35 / 49 truncated, shift 1 - 5', () => {
    // QuantizeMultiplier(1.0) = (2^30, 1); floor(log2 49) = 5
    expect(foldCountIntoMultiplier(2 ** 30, 1, 49)).toEqual({ multiplier: Math.floor(2 ** 35 / 49), shift: -4 });
  });
  it('limits the shift to 31 + shift', () => {
    expect(foldCountIntoMultiplier(2 ** 30, -30, 1024)).toEqual({ multiplier: (2 ** 30 * 2) / 1024, shift: -31 });
  });
  it('count 1 leaves the multiplier unchanged', () => {
    expect(foldCountIntoMultiplier(1234567890, -3, 1)).toEqual({ multiplier: 1234567890, shift: -3 });
  });
});

describe('MEAN float32 (TFLM reduce_test goldens)', () => {
  it('2-D, axis 1, keep_dims', () => {
    expect(harness(TensorType.FLOAT32, [2, 4], range(8), [1], [2, 1], true).invoke().outputArray()).toEqual([2.5, 6.5]);
  });
  it('3-D, axes 1 and 2', () => {
    expect(harness(TensorType.FLOAT32, [2, 2, 2], range(8), [1, 2], [2, 1, 1], true).invoke().outputArray()).toEqual([2.5, 6.5]);
  });
  it('4-D H,W with keep_dims and without', () => {
    expect(harness(TensorType.FLOAT32, [2, 2, 3, 2], range(24), [1, 2], [2, 1, 1, 2], true).invoke().outputArray()).toEqual([6, 7, 18, 19]);
    expect(harness(TensorType.FLOAT32, [2, 2, 3, 2], range(24), [1, 2], [2, 2], false).invoke().outputArray()).toEqual([6, 7, 18, 19]);
  });
  it('negative and repeated axes resolve like TFLite ResolveAxis', () => {
    // [2, 3, 2]: mean over axes {0, 2}
    const out = harness(TensorType.FLOAT32, [2, 3, 2], range(12), [-1, 0, 2], [3], false).invoke().outputArray();
    expect(out).toEqual([(1 + 2 + 7 + 8) / 4, (3 + 4 + 9 + 10) / 4, (5 + 6 + 11 + 12) / 4]);
  });
  it('all axes to a scalar', () => {
    expect(harness(TensorType.FLOAT32, [2, 2], [1, 2, 3, 5], [0, 1], [], false).invoke().outputArray()).toEqual([2.75]);
  });
  it('5-D input, middle axis', () => {
    const out = harness(TensorType.FLOAT32, [1, 2, 2, 1, 2], range(8), [2], [1, 2, 1, 1, 2], true).invoke().outputArray();
    expect(out).toEqual([2, 3, 6, 7]);
  });
});

describe('MEAN integer (values derived with TFLM QuantizedMeanOrSum: int32 sum, folded multiplier, double rounding)', () => {
  it('int8 4-D H,W, scale 0.5 -> 0.25, zero points -3 -> 5; -22.33 becomes -23 through double rounding', () => {
    // channel 0: sum -150, (sum + 3*9) -> MBQM(-123, 954437176, -1) = -28, + 5 = -23; channel 1: sum 280 -> 73
    const input = [-128, 127, 5, -7, 33, 90, -100, -3, 0, 1, 64, -64, 17, 17, -50, 120, 9, -1];
    const h = harness(
      TensorType.INT8,
      [1, 3, 3, 2],
      input,
      [1, 2],
      [1, 1, 1, 2],
      true,
      { scale: 0.5, zeroPoint: -3 },
      { scale: 0.25, zeroPoint: 5 },
    );
    expect(h.invoke().outputArray()).toEqual([-23, 73]);
    expect(h.scratchSizes).toEqual([2 * 4]);
  });

  it('int8 with equal scale and zero point still rescales (rounds, does not truncate)', () => {
    const q = { scale: 0.0705478862, zeroPoint: -9 };
    // 4 outputs of 7 elements; exact means -8.43, -8.43, 127, -126.86
    const groups = [
      [-9, -9, -9, -9, -9, -9, -5],
      [-8, -8, -8, -8, -9, -9, -9],
      [127, 127, 127, 127, 127, 127, 127],
      [-128, -128, -128, -128, -128, -128, -120],
    ];
    // layout [1, 7, 1, 4]: element (h, c) = groups[c][h]
    const input: number[] = [];
    for (let hIdx = 0; hIdx < 7; hIdx++) for (let c = 0; c < 4; c++) input.push(groups[c]![hIdx]!);
    const h = harness(TensorType.INT8, [1, 7, 1, 4], input, [1, 2], [1, 1, 1, 4], true, q);
    expect(h.invoke().outputArray()).toEqual([-8, -8, 127, -127]);
  });

  it('int16, last axis without keep_dims, scale 1 -> 0.75, saturating', () => {
    const input = [1000, -2000, 30001, -32768, -32768, -32767];
    const h = harness(TensorType.INT16, [2, 3], input, [-1], [2], false, { scale: 1, zeroPoint: 0 }, { scale: 0.75, zeroPoint: 0 });
    // 29001 / 3 / 0.75 = 12889.3 -> 12889; the second row saturates
    expect(h.invoke().outputArray()).toEqual([12889, -32768]);
  });

  it('int8 TFLM 4-D test data at scale 0.5 gives the exact means', () => {
    const q = { scale: 0.5, zeroPoint: 0 };
    const input = range(24).map((v) => v * 2);
    expect(harness(TensorType.INT8, [2, 2, 3, 2], input, [1, 2], [2, 2], false, q).invoke().outputArray()).toEqual([12, 14, 36, 38]);
  });

  it('invoke resets the scratch sums between calls', () => {
    const q = { scale: 1, zeroPoint: 0 };
    const h = harness(TensorType.INT8, [1, 4], [4, 4, 4, 4], [1], [1, 1], true, q);
    expect(h.invoke().outputArray()).toEqual([4]);
    expect(h.invoke().outputArray()).toEqual([4]);
  });
});

describe('MEAN prepare rejects', () => {
  it('an axis out of range, naming it', () => {
    expect(() => harness(TensorType.FLOAT32, [2, 4], range(8), [2], [2], false).prepare()).toThrow(/axis\[0\] = 2 is out of range/);
  });
  it('an output with the wrong element count', () => {
    expect(() => harness(TensorType.FLOAT32, [2, 4], range(8), [1], [4], false).prepare()).toThrow(KernelError);
  });
  it('keep_dims with a lower-rank output', () => {
    expect(() => harness(TensorType.FLOAT32, [2, 4], range(8), [1], [2], true).prepare()).toThrow(/keep_dims/);
  });
  it('6-D inputs', () => {
    expect(() => harness(TensorType.FLOAT32, [1, 1, 1, 1, 2, 4], range(8), [5], [1, 1, 1, 1, 2], false).prepare()).toThrow(/at most 5/);
  });
  it('a non-constant axis tensor', () => {
    const h = new KernelHarness({
      registration: MEAN,
      tensors: [
        { type: TensorType.FLOAT32, shape: [2, 2], data: [1, 2, 3, 4] },
        { type: TensorType.INT32, shape: [1], data: [1] },
        { type: TensorType.FLOAT32, shape: [2] },
      ],
      inputs: [0, 1],
      outputs: [2],
      builtinData: { keepDims: false },
    });
    expect(() => h.prepare()).toThrow(/must be constant/);
  });
  it('uint32 input', () => {
    expect(() => harness(TensorType.UINT32, [2, 2], [1, 2, 3, 4], [1], [2], false).prepare()).toThrow(/unsupported input type uint32/);
  });
});

describe('MEAN uint8 (TFLite reference QuantizedMeanOrSum)', () => {
  it('removes zp_in * count from the int32 sum and requantizes with 1/count folded in (double rounding)', () => {
    const q = { scale: 0.5, zeroPoint: 10 };
    // [10..13]: sum - 40 = 6; x (1/4) → SRDHM then a rounding shift: 1.5 → 2; + 10
    expect(harness(TensorType.UINT8, [1, 4], [10, 11, 12, 13], [1], [1, 1], true, q).invoke().outputArray()).toEqual([12]);
    // [10, 10, 10, 11]: 1 x (1/4) rounds up twice (0.5 → 1, then 0.5 → 1): 11, where the float mean 10.25 gives 10
    expect(harness(TensorType.UINT8, [1, 4], [10, 10, 10, 11], [1], [1, 1], true, q).invoke().outputArray()).toEqual([11]);
    // requantized to another scale and zero point, saturating at 0 and 255
    const out = { scale: 0.25, zeroPoint: 200 };
    expect(harness(TensorType.UINT8, [2, 2], [255, 255, 0, 0], [1], [2], false, q, out).invoke().outputArray()).toEqual([255, 180]);
  });
});
