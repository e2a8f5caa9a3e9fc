import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, Tensor, TensorType, type Node } from '@micrort/core';
import {
  FLT_MAX,
  activationRangeFloat,
  activationRangeQuantized,
  calculateActivationRangeFloat,
  calculateActivationRangeInt32,
  calculateActivationRangeQuantized,
  typeRange,
} from './activation.js';
import { OptionError } from './checks.js';

const node = { index: 3 } as Node;
const out = (type: TensorType, scale: number, zeroPoint: number) =>
  new Tensor(
    5,
    'out',
    type,
    Int32Array.of(4),
    { scale: Float32Array.of(scale), zeroPoint: Int32Array.of(zeroPoint), quantizedDimension: 0 },
    false,
  );

describe('activation ranges (TFLite kernel_util.h)', () => {
  it('float: lowest()/max() for the open ends, as CalculateActivationRange<float>', () => {
    expect(calculateActivationRangeFloat(ActivationFunctionType.NONE)).toEqual([-3.4028234663852886e38, 3.4028234663852886e38]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.RELU)).toEqual([0, FLT_MAX]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.RELU6)).toEqual([0, 6]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.RELU_N1_TO_1)).toEqual([-1, 1]);
    expect(calculateActivationRangeFloat(ActivationFunctionType.TANH)).toEqual([-FLT_MAX, FLT_MAX]);
    expect(calculateActivationRangeInt32(ActivationFunctionType.RELU)).toEqual([0, 2147483647]);
    expect(calculateActivationRangeInt32(ActivationFunctionType.NONE)).toEqual([-2147483648, 2147483647]);
  });

  it('quantized: the activation in the output domain (round half away from zero), within the type', () => {
    // int8, scale 0.1, zero point -10: RELU6 -> [max(-128, -10), min(127, -10 + 60)]
    expect(calculateActivationRangeQuantized(ActivationFunctionType.RELU6, out(TensorType.INT8, 0.1, -10))).toEqual([-10, 50]);
    expect(calculateActivationRangeQuantized(ActivationFunctionType.RELU_N1_TO_1, out(TensorType.INT8, 0.25, 3))).toEqual([-1, 7]);
    // 1 / 0.4 = 2.5 rounds away from zero to 3
    expect(calculateActivationRangeQuantized(ActivationFunctionType.RELU_N1_TO_1, out(TensorType.INT16, 0.4, 0))).toEqual([-3, 3]);
    expect(calculateActivationRangeQuantized(ActivationFunctionType.RELU, out(TensorType.UINT8, 1, 128))).toEqual([128, 255]);
    expect(calculateActivationRangeQuantized(ActivationFunctionType.NONE, out(TensorType.INT16, 1, 0))).toEqual(
      typeRange(TensorType.INT16),
    );
    expect(() => calculateActivationRangeQuantized(ActivationFunctionType.TANH, out(TensorType.INT8, 1, 0))).toThrow(RangeError);
    expect(() => typeRange(TensorType.FLOAT32)).toThrow(RangeError);
  });

  it("a kernel's prepare refuses TANH and SIGN_BIT with an OptionError naming the node", () => {
    for (const a of [ActivationFunctionType.TANH, ActivationFunctionType.SIGN_BIT]) {
      expect(() => activationRangeFloat('ADD', node, a)).toThrow(OptionError);
      expect(() => activationRangeQuantized('ADD', node, a, out(TensorType.INT8, 1, 0))).toThrow(
        `ADD (node 3): unsupported fused activation ${ActivationFunctionType[a]}`,
      );
    }
  });
});
