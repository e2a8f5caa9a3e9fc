import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, KernelError, Tensor, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import {
  OptionError,
  QuantizationError,
  TensorShapeError,
  TensorTypeError,
  expectBias,
  expectPositive,
  expectQuantized,
  expectRank,
  expectSameElementCount,
  expectSameType,
  expectType,
  expectZeroPoint,
} from './checks.js';
import {
  FLOAT32_ONLY,
  INT8_ONLY,
  declineActivation,
  declineArity,
  declineAsymmetric,
  declineQuantizationRange,
  declineTensorTypes,
  declineTypes,
  supportsInputTypes,
  typeReason,
} from './decline.js';

const node = (inputs: number[], outputs: number[]) =>
  ({ index: 4, inputs: Int32Array.from(inputs), outputs: Int32Array.from(outputs) }) as Node;
const t = (index: number, type: TensorType, shape: number[], scale?: number, zeroPoint = 0) =>
  new Tensor(
    index,
    `t${index}`,
    type,
    Int32Array.from(shape),
    scale === undefined ? null : { scale: Float32Array.of(scale), zeroPoint: Int32Array.of(zeroPoint), quantizedDimension: 0 },
    false,
  );
const contextOf = (tensors: Tensor[]) => ({ getTensor: (i: number) => tensors[i]! }) as unknown as TfLiteContext;

function thrown(f: () => void): KernelError {
  try {
    f();
  } catch (e) {
    if (e instanceof KernelError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('prepare checks: typed KernelErrors carrying the numbers, one wording', () => {
  const n = node([0, 1], [2]);
  it('types', () => {
    const e = thrown(() => expectType('ADD', n, 'input 1', t(0, TensorType.INT16, [2]), [TensorType.FLOAT32, TensorType.INT8]));
    expect(e).toBeInstanceOf(TensorTypeError);
    expect(e.message).toBe('ADD (node 4): unsupported input 1 type int16 (tensor 0); supported: float32, int8');
    expect((e as TensorTypeError).actual).toBe(TensorType.INT16);
    expect((e as TensorTypeError).expected).toEqual([TensorType.FLOAT32, TensorType.INT8]);
    expect(() => expectType('ADD', n, 'input 1', t(0, TensorType.INT8, [2]), TensorType.INT8)).not.toThrow();
    expect(
      thrown(() => expectSameType('ADD', n, 'input 1 and output', t(0, TensorType.INT8, [2]), t(2, TensorType.INT16, [2]))).detail,
    ).toBe('input 1 and output: types differ (tensor 0 is int8, tensor 2 is int16)');
  });

  it('shapes and options', () => {
    const e = thrown(() => expectRank('CONV_2D', n, 'filter', t(1, TensorType.INT8, [3, 3]), 4));
    expect(e).toBeInstanceOf(TensorShapeError);
    expect((e as TensorShapeError).dims).toEqual([3, 3]);
    expect(e.detail).toBe('filter (tensor 1) must have rank 4, got shape [3, 3]');
    expect(thrown(() => expectSameElementCount('RELU', n, t(0, TensorType.INT8, [2, 3]), t(2, TensorType.INT8, [5]))).detail).toMatch(
      /differ in element count: 6 vs 5/,
    );
    const o = thrown(() => expectPositive('CONV_2D', n, 'stride_h', 0));
    expect(o).toBeInstanceOf(OptionError);
    expect([(o as OptionError).option, (o as OptionError).value]).toEqual(['stride_h', 0]);
  });

  it('quantization and bias', () => {
    const q = thrown(() => expectQuantized('MUL', n, 'input 1', t(0, TensorType.INT8, [2], Infinity)));
    expect(q).toBeInstanceOf(QuantizationError);
    expect(q.detail).toBe('input 1 (tensor 0) of type int8 needs affine quantization with a positive finite scale (got Infinity)');
    expect(thrown(() => expectQuantized('MUL', n, 'input 1', t(0, TensorType.INT8, [2]))).detail).toMatch(/\(got none\)$/);
    expect(thrown(() => expectZeroPoint('MUL', n, 'output', t(2, TensorType.INT16, [2], 1, 3), 0)).detail).toBe(
      'output (tensor 2) zero point must be 0, got 3',
    );
    expect(expectBias('FC', n, null, [TensorType.INT32], 4, TensorType.INT8)).toBeNull();
    expect(thrown(() => expectBias('FC', n, t(2, TensorType.INT32, [3]), [TensorType.INT32], 4, TensorType.INT8)).detail).toBe(
      'bias (tensor 2) has 3 elements, expected 4 (one per output channel)',
    );
  });
});

describe('supports() decline reasons: one wording, null when the node passes', () => {
  it('arity', () => {
    expect(declineArity(node([0, 1], [2]), 2, 1)).toBeNull();
    expect(declineArity(node([0, 1, 3], [2]), 2, 1)).toBe('3 inputs, 1 output (handles 2 inputs, 1 output)');
    expect(declineArity(node([0], [2]), [2, 3], 1)).toBe('1 input, 1 output (handles 2-3 inputs, 1 output)');
    expect(declineArity(node([], [2]), [1, Infinity], 1)).toBe('0 inputs, 1 output (handles at least 1 input, 1 output)');
  });

  it('types, activations, weights', () => {
    const tensors = [t(0, TensorType.INT8, [2]), t(1, TensorType.UINT8, [2]), t(2, TensorType.INT8, [2])];
    expect(typeReason('input', TensorType.UINT8, INT8_ONLY)).toBe('uint8 input (handles int8)');
    expect(declineTypes(contextOf(tensors), node([0, 1], [2]), [0, 1], INT8_ONLY)).toBe('uint8 input 2 (handles int8)');
    expect(declineTypes(contextOf(tensors), node([0, -1], [2]), [0, 1], INT8_ONLY)).toBeNull();
    expect(supportsInputTypes(contextOf(tensors), node([1], [2]), [TensorType.FLOAT32, TensorType.INT8])).toBe(
      'uint8 input (handles float32, int8)',
    );
    expect(declineTensorTypes([tensors[0]!, null], FLOAT32_ONLY)).toBe('int8 tensor 0 (handles float32)');
    expect(declineActivation(ActivationFunctionType.RELU6)).toBeNull();
    expect(declineActivation(ActivationFunctionType.TANH)).toBe('fused activation TANH (handles NONE, RELU, RELU6, RELU_N1_TO_1)');
    expect(declineAsymmetric('filter', t(1, TensorType.INT8, [2], 0.5, 3))).toBe('filter zero point 3 (handles symmetric weights)');
    expect(declineAsymmetric('filter', t(1, TensorType.INT8, [2], 0.5, 0))).toBeNull();
  });

  it('zero points outside the type and empty fused-activation ranges', () => {
    const relu = (inputs: number[], outputs: number[], activation = ActivationFunctionType.RELU) =>
      ({ ...node(inputs, outputs), builtinData: { fusedActivationFunction: activation } }) as unknown as Node;
    const tensors = [
      t(0, TensorType.INT8, [2], 0.5, -3),
      t(1, TensorType.INT8, [2], 0.5, 255),
      t(2, TensorType.UINT8, [2], 0.5, 255),
      t(3, TensorType.INT16, [2], 0.5, -32769),
      t(4, TensorType.INT32, [2], 0.5, 1 << 20),
      t(5, TensorType.INT8, [2], -0.1, 0),
      t(6, TensorType.FLOAT32, [2]),
    ];
    const c = contextOf(tensors);
    expect(declineQuantizationRange(c, relu([0, 2], [4]))).toBeNull(); // uint8 255 and an int32 zero point are fine
    expect(declineQuantizationRange(c, relu([0], [1]))).toBe('output (tensor 1) zero point 255 outside int8 [-128, 127]');
    expect(declineQuantizationRange(c, relu([0, 3], [6]))).toBe('input 2 (tensor 3) zero point -32769 outside int16 [-32768, 32767]');
    expect(declineQuantizationRange(c, relu([0, -1], [6]))).toBeNull();
    // a negative output scale turns RELU6's range [zp, zp + round(6 / scale)] upside down
    expect(declineQuantizationRange(c, relu([0], [5], ActivationFunctionType.RELU6))).toBe(
      'fused RELU6 range [0, -60] at output (tensor 5) scale -0.10000000149011612, zero point 0 is empty',
    );
    expect(declineQuantizationRange(c, relu([0], [5], ActivationFunctionType.NONE))).toBeNull();
    const perChannel = new Tensor(
      7,
      't7',
      TensorType.INT8,
      Int32Array.of(2),
      { scale: Float32Array.of(1, 1), zeroPoint: Int32Array.of(0, -200), quantizedDimension: 0 },
      true,
    );
    expect(declineQuantizationRange(contextOf([...tensors, perChannel]), node([0, 7], [6]))).toBe(
      'input 2 (tensor 7) zero point -200 outside int8 [-128, 127]',
    );
  });
});
