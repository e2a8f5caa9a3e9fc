// Regression tests for prepare-time crashes `micrort fuzz --ops simd` found: NaN/infinite softmax beta and
// infinite or NaN quantization scales reached quantizeMultiplier, which threw a RangeError inside prepare.
import { ActivationFunctionType, BuiltinOperator, KernelError, Padding, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { describe, expect, it } from 'vitest';
import { kernelFor } from '../__tests__/harness-cases.js';

function prepareError(
  code: BuiltinOperator,
  tensors: HarnessTensorSpec[],
  inputs: number[],
  outputs: number[],
  builtinData: object,
): Error {
  try {
    new KernelHarness({ registration: kernelFor(code, 'fast').reg, tensors, inputs, outputs, builtinData: builtinData as never }).prepare();
  } catch (e) {
    return e as Error;
  }
  throw new Error('prepare succeeded');
}

describe('ops-simd kernels refuse unusable scales and options with a KernelError', () => {
  it('SOFTMAX with beta NaN or -Infinity', () => {
    const t: HarnessTensorSpec[] = [
      { type: TensorType.INT8, shape: [1, 4], scale: 0.1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [1, 4], scale: 1 / 256, zeroPoint: -128 },
    ];
    for (const beta of [Number.NaN, Number.NEGATIVE_INFINITY]) {
      const e = prepareError(BuiltinOperator.SOFTMAX, t, [0], [1], { beta });
      expect(e).toBeInstanceOf(KernelError);
      expect(e.message).toBe(`SOFTMAX (node 0): beta must be finite, got ${beta}`);
    }
  });

  it('CONV_2D with a -Infinity per-channel filter scale', () => {
    const t: HarnessTensorSpec[] = [
      { type: TensorType.INT8, shape: [1, 2, 2, 1], scale: 0.5, zeroPoint: 0 },
      {
        type: TensorType.INT8,
        shape: [2, 1, 1, 1],
        data: [1, 2],
        constant: true,
        scale: [0.1, Number.NEGATIVE_INFINITY],
        zeroPoint: [0, 0],
        quantizedDimension: 0,
      },
      { type: TensorType.INT32, shape: [2], data: [0, 0], constant: true, scale: [0.05, 0.05], zeroPoint: [0, 0] },
      { type: TensorType.INT8, shape: [1, 2, 2, 2], scale: 0.5, zeroPoint: 0 },
    ];
    const options = {
      padding: Padding.VALID,
      strideW: 1,
      strideH: 1,
      dilationWFactor: 1,
      dilationHFactor: 1,
      fusedActivationFunction: ActivationFunctionType.NONE,
      quantizedBiasType: 0,
    };
    const e = prepareError(BuiltinOperator.CONV_2D, t, [0, 1, 2], [3], options);
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toMatch(/CONV_2D \(node 0\): filter \(tensor 1\) scale 1 must be finite and > 0, got -Infinity/);
  });

  it('MUL with an infinite input scale', () => {
    const t: HarnessTensorSpec[] = [
      { type: TensorType.INT8, shape: [4], scale: Number.POSITIVE_INFINITY, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [4], scale: 0.1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [4], scale: 0.1, zeroPoint: 0 },
    ];
    expect(prepareError(BuiltinOperator.MUL, t, [0, 1], [2], { fusedActivationFunction: 0 }).message).toMatch(
      /input 1 \(tensor 0\) of type int8 needs affine quantization with a positive finite scale \(got Infinity\)/,
    );
  });
});
