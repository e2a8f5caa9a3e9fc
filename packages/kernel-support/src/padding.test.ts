import { describe, expect, it } from 'vitest';
import { KernelError, Padding, Tensor, TensorType, type Node } from '@micrort/core';
import { TensorShapeError } from './checks.js';
import { computeOutSize, computePadding, computePaddingHeightWidth, convWindow, expectWindowOutput, poolingPadding } from './padding.js';

const node = { index: 7 } as Node;
const tensor = (index: number, shape: number[]) => new Tensor(index, `t${index}`, TensorType.FLOAT32, Int32Array.from(shape), null, false);

describe('padding (TFLite padding.h)', () => {
  it('computes SAME and VALID output sizes with C truncation', () => {
    expect(computeOutSize(Padding.SAME, 5, 3, 2)).toBe(3);
    expect(computeOutSize(Padding.VALID, 5, 3, 2)).toBe(2);
    expect(computeOutSize(Padding.VALID, 7, 3, 1, 2)).toBe(3); // effective filter 5
    expect(computeOutSize(Padding.VALID, 2, 5, 1)).toBe(-2); // (2 + 1 - 5) / 1
    expect(computeOutSize(Padding.VALID, 2, 5, 2)).toBe(0); // -1 / 2 truncates to 0
    expect(computeOutSize(Padding.SAME, 5, 3, 0)).toBe(0);
  });

  it('splits odd total padding with the extra pixel in the offset', () => {
    // 224 -> 112 with a 3x3 filter, stride 2: total padding (111*2 + 3 - 224) = 1
    const p = computePaddingHeightWidth(2, 2, 1, 1, 224, 224, 3, 3, Padding.SAME);
    expect(p).toEqual({ height: 0, heightOffset: 1, width: 0, widthOffset: 1, outHeight: 112, outWidth: 112 });
    // 5x5 input, 3x3 filter, stride 1 SAME: total 2 -> 1 each side
    const q = computePaddingHeightWidth(1, 1, 1, 1, 5, 6, 3, 3, Padding.SAME);
    expect(q).toMatchObject({ height: 1, heightOffset: 0, width: 1, widthOffset: 0, outHeight: 5, outWidth: 6 });
    // dilation 2 makes the 3x3 filter 5x5: total 4 -> 2
    const d = computePaddingHeightWidth(1, 1, 2, 2, 5, 5, 3, 3, Padding.SAME);
    expect(d).toMatchObject({ height: 2, width: 2, outHeight: 5, outWidth: 5 });
    // VALID never pads
    expect(computePaddingHeightWidth(2, 2, 1, 1, 9, 9, 3, 3, Padding.VALID)).toMatchObject({
      height: 0,
      width: 0,
      outHeight: 4,
      outWidth: 4,
    });
    // the leading padding alone; never negative
    expect(computePadding(2, 1, 224, 3, 112)).toBe(0);
    expect(computePadding(1, 1, 5, 3, 5)).toBe(1);
    expect(computePadding(1, 1, 9, 3, 2)).toBe(0);
  });

  it('checks the output against the options, naming every number, and refuses unknown padding', () => {
    const input = tensor(0, [1, 5, 5, 2]);
    const filter = tensor(1, [4, 3, 3, 2]);
    const o = { strideH: 2, strideW: 2, dilationHFactor: 1, dilationWFactor: 1 };
    expect(expectWindowOutput('CONV_2D', node, convWindow(input, filter, o), Padding.SAME, tensor(2, [1, 3, 3, 4]))).toMatchObject({
      outHeight: 3,
      height: 1,
      width: 1,
    });
    let e: unknown;
    try {
      expectWindowOutput('CONV_2D', node, convWindow(input, filter, o), Padding.VALID, tensor(2, [1, 3, 3, 4]));
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(TensorShapeError);
    expect((e as TensorShapeError).tensor).toBe(2);
    expect((e as TensorShapeError).dims).toEqual([1, 3, 3, 4]);
    expect((e as TensorShapeError).message).toBe(
      'CONV_2D (node 7): output (tensor 2) spatial size 3x3 does not match 2x2 computed from input 5x5, filter 3x3, stride 2x2, dilation 1x1, padding VALID',
    );
    expect(() => expectWindowOutput('CONV_2D', node, convWindow(input, filter, o), 7 as Padding, tensor(2, [1, 3, 3, 4]))).toThrow(
      /unsupported padding 7/,
    );
  });

  it('pooling keeps the output size of the output tensor but refuses a window entirely outside the input', () => {
    const w = { inHeight: 4, inWidth: 4, filterHeight: 2, filterWidth: 2, strideHeight: 2, strideWidth: 2 };
    expect(poolingPadding('MAX_POOL_2D', node, w, Padding.VALID, 2, 2)).toMatchObject({ height: 0, width: 0, outHeight: 2 });
    expect(() => poolingPadding('MAX_POOL_2D', node, w, Padding.VALID, 3, 2)).toThrow(KernelError);
    expect(() => poolingPadding('MAX_POOL_2D', node, w, Padding.VALID, 3, 2)).toThrow(
      /output 3x2 with filter 2x2, stride 2x2 and padding 0x0 has a window entirely outside the 4x4 input \(the options give a 2x2 output\)/,
    );
  });
});
