import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MAX_POOLING_WITH_ARGMAX_2D } from './max-pooling-with-argmax-2d.js';
import { poolOptions } from './pooling-common.js';

const F = TensorType.FLOAT32;
const fr = Math.fround;

function harness(input: number[], shape: number[], outShape: number[], options: Uint8Array | null) {
  return new KernelHarness({
    registration: MAX_POOLING_WITH_ARGMAX_2D,
    tensors: [
      { type: F, shape, data: input },
      { type: F, shape: outShape },
      { type: F, shape: outShape },
    ],
    inputs: [0],
    outputs: [1, 2],
    customInitialData: options,
  });
}

// 4x4, one channel
const IMAGE = [1, 5, 2, 0, 3, 4, 8, 1, 0, 0, -1, -2, 0, 7, -3, -4];

describe('MaxPoolingWithArgmax2D', () => {
  it('2x2 windows, stride 2, VALID: maxima and their in-window positions + 0.1 (hand-computed)', () => {
    const h = harness(
      IMAGE,
      [1, 4, 4, 1],
      [1, 2, 2, 1],
      poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 }),
    ).invoke();
    expect(h.outputArray(0)).toEqual([5, 8, 7, -1]);
    // 5 at (y 0, x 1) → 1; 8 at (1, 0) → 2; 7 at (1, 1) → 3; -1 at (0, 0) → 0
    expect(h.outputArray(1)).toEqual([fr(1.1), fr(2.1), fr(3.1), fr(0.1)]);
    expect(h.persistentBytes).toBe(16); // MediaPipe's op data: TfLitePaddingValues
  });

  it('SAME padding: indices count from the padded window corner; ties keep the first maximum', () => {
    // 3x3 filter, stride 1, SAME on 3x3: padding 1, so the window of output (0, 0) starts at input (-1, -1)
    const input = [9, 0, 0, 0, 0, 0, 0, 0, 9];
    const h = harness(
      input,
      [1, 3, 3, 1],
      [1, 3, 3, 1],
      poolOptions({ padding: 'SAME', strideWidth: 1, strideHeight: 1, filterWidth: 3, filterHeight: 3 }),
    ).invoke();
    expect(h.outputArray(0)).toEqual([9, 9, 0, 9, 9, 9, 0, 9, 9]);
    // (0,0): 9 at input (0,0) = window (1,1) → 4. (0,1): window from (-1,0): input (0,0) is window (1,0) → 3.
    // (0,2): all zeros, the first cell wins: input (0,1) = window (1,0) → 3. (1,0): input (0,0) = window (0,1) → 1.
    // (1,1): both 9s, the first is input (0,0) = window (0,0) → 0. (1,2): input (2,2) = window (2,1) → 7.
    // (2,0): zeros, first input (1,0) = window (0,1) → 1. (2,1): input (2,2) = window (1,2) → 5. (2,2): window (1,1) → 4.
    expect(h.outputArray(1)).toEqual([4, 3, 3, 1, 0, 7, 1, 5, 4].map((k) => fr(k + fr(0.1))));
  });

  it('keeps channels apart and handles batches', () => {
    // [2, 2, 2, 2]: batch 0 channel values c0 = 1..4, c1 = -1..-4; batch 1 doubled
    const b0 = [1, -1, 2, -2, 3, -3, 4, -4];
    const input = [...b0, ...b0.map((v) => 2 * v)];
    const h = harness(
      input,
      [2, 2, 2, 2],
      [2, 1, 1, 2],
      poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 }),
    ).invoke();
    expect(h.outputArray(0)).toEqual([4, -1, 8, -2]);
    expect(h.outputArray(1)).toEqual([fr(3.1), fr(0.1), fr(3.1), fr(0.1)]);
  });

  it('clamps the pooled value to the fused activation (RELU6; RELU_N1_TO_1), not the index', () => {
    const relu6 = harness(
      IMAGE.map((v) => v * 2),
      [1, 4, 4, 1],
      [1, 2, 2, 1],
      poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: 3 }),
    ).invoke();
    expect(relu6.outputArray(0)).toEqual([6, 6, 6, 0]);
    expect(relu6.outputArray(1)).toEqual([fr(1.1), fr(2.1), fr(3.1), fr(0.1)]);
    const n1to1 = harness(
      IMAGE,
      [1, 4, 4, 1],
      [1, 2, 2, 1],
      poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: 2 }),
    ).invoke();
    expect(n1to1.outputArray(0)).toEqual([1, 1, 1, -1]);
  });

  it('prepare validates options and output shapes; supports() declines other types', () => {
    const opts = poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 });
    expect(() => harness(IMAGE, [1, 4, 4, 1], [1, 3, 2, 1], opts).prepare()).toThrow(
      /output \(tensor 1\) has shape \[1, 3, 2, 1\], expected \[1, 2, 2, 1\]/,
    );
    expect(() => harness(IMAGE, [1, 4, 4, 1], [1, 2, 2, 1], opts.slice(0, 20)).prepare()).toThrow(
      /20 bytes; a TfLitePoolParams needs at least 24/,
    );
    expect(() =>
      harness(
        IMAGE,
        [1, 4, 4, 1],
        [1, 2, 2, 1],
        poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 0, filterHeight: 2 }),
      ).prepare(),
    ).toThrow(/option filter_width is 0, must be at least 1/);
    expect(() =>
      harness(
        IMAGE,
        [1, 4, 4, 1],
        [1, 2, 2, 1],
        poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: 9 }),
      ).prepare(),
    ).toThrow(/option activation is 9/);
    expect(() => harness(IMAGE, [16], [1, 2, 2, 1], opts).prepare()).toThrow(/input \(tensor 0\) must have rank 4/);
    const int8 = new KernelHarness({
      registration: MAX_POOLING_WITH_ARGMAX_2D,
      tensors: [
        { type: F, shape: [1, 2, 2, 1] },
        { type: F, shape: [1, 1, 1, 1] },
        { type: TensorType.INT32, shape: [1, 1, 1, 1] },
      ],
      inputs: [0],
      outputs: [1, 2],
    });
    expect(int8.supportsAnswer()).toBe('int32 output 1 (handles float32)');
  });
});
