// Regression tests for prepare-time crashes the fuzzer (packages/cli/src/fuzz) found: zero, missing,
// infinite or NaN quantization scales (and NaN/infinite options) reached quantizeMultiplier, which threw a
// RangeError from inside prepare. Each kernel now refuses the node with a KernelError naming the tensor.
import { ActivationFunctionType, KernelError, TensorType, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { describe, expect, it } from 'vitest';
import { FULLY_CONNECTED } from './fully-connected.js';
import { LEAKY_RELU } from './leaky-relu.js';
import { RELU } from './relu.js';
import { SVDF } from './svdf.js';
import { UNIDIRECTIONAL_SEQUENCE_LSTM } from './unidirectional-sequence-lstm.js';

function prepareError(
  registration: Registration,
  tensors: HarnessTensorSpec[],
  inputs: number[],
  outputs: number[],
  builtinData: object | null,
): Error {
  try {
    new KernelHarness({ registration, tensors, inputs, outputs, builtinData: builtinData as never }).prepare();
  } catch (e) {
    return e as Error;
  }
  throw new Error('prepare succeeded');
}

/** A 1-unit int8 LSTM (batch 1, 1 step, input 1): 24 inputs with -1 for the optional ones. */
function lstmTensors(
  patch: { input?: Partial<HarnessTensorSpec>; hidden?: Partial<HarnessTensorSpec>; cell?: Partial<HarnessTensorSpec> } = {},
) {
  const tensors: HarnessTensorSpec[] = [];
  const inputs = new Array<number>(24).fill(-1);
  const add = (slot: number, spec: HarnessTensorSpec) => {
    inputs[slot] = tensors.length;
    tensors.push(spec);
  };
  add(0, { type: TensorType.INT8, shape: [1, 1, 1], scale: 0.01, zeroPoint: 0, ...patch.input });
  for (const slot of [1, 2, 3, 4, 5, 6, 7, 8])
    add(slot, { type: TensorType.INT8, shape: [1, 1], data: [10], constant: true, scale: 0.01, zeroPoint: 0 });
  for (const slot of [12, 13, 14, 15])
    add(slot, { type: TensorType.INT32, shape: [1], data: [0], constant: true, scale: 0.0001, zeroPoint: 0 });
  add(18, { type: TensorType.INT8, shape: [1, 1], variable: true, scale: 1 / 128, zeroPoint: 0, ...patch.hidden });
  add(19, { type: TensorType.INT16, shape: [1, 1], variable: true, scale: 1 / 2048, zeroPoint: 0, ...patch.cell });
  const output = tensors.length;
  tensors.push({ type: TensorType.INT8, shape: [1, 1, 1], scale: 1 / 128, zeroPoint: 0, ...patch.hidden });
  const options = {
    fusedActivationFunction: ActivationFunctionType.TANH,
    cellClip: 0,
    projClip: 0,
    timeMajor: false,
    asymmetricQuantizeInputs: false,
    diagonalRecurrentTensors: false,
  };
  return { tensors, inputs, outputs: [output], options };
}

describe('UNIDIRECTIONAL_SEQUENCE_LSTM int8 refuses unusable scales', () => {
  const run = (patch: Parameters<typeof lstmTensors>[0]) => {
    const m = lstmTensors(patch);
    return () =>
      new KernelHarness({
        registration: UNIDIRECTIONAL_SEQUENCE_LSTM as Registration,
        tensors: m.tensors,
        inputs: m.inputs,
        outputs: m.outputs,
        builtinData: m.options,
      }).prepare();
  };
  it('prepares with valid scales', () => {
    expect(run({})).not.toThrow();
  });
  it('hidden state scale 0 (was: RangeError multiplier Infinity)', () => {
    expect(run({ hidden: { scale: 0 } })).toThrow(/hidden state \(tensor 13\) needs a positive finite quantization scale, got 0/);
  });
  it('cell state scale NaN or Infinity', () => {
    expect(run({ cell: { scale: Number.NaN } })).toThrow(/cell state \(tensor 14\) needs a positive finite quantization scale/);
    expect(run({ cell: { scale: Number.POSITIVE_INFINITY } })).toThrow(KernelError);
  });
  it('input without quantization', () => {
    expect(run({ input: { scale: undefined, zeroPoint: undefined } })).toThrow(
      /input \(tensor 0\) needs a positive finite quantization scale, got none/,
    );
  });
});

describe('SVDF int8 refuses unusable scales', () => {
  const tensors = (outputScale: number): HarnessTensorSpec[] => [
    { type: TensorType.INT8, shape: [1, 1], scale: 1, zeroPoint: 0 },
    { type: TensorType.INT8, shape: [1, 1], data: [1], constant: true, scale: 1, zeroPoint: 0 },
    { type: TensorType.INT16, shape: [1, 2], data: [1, 1], constant: true, scale: 1, zeroPoint: 0 },
    { type: TensorType.INT32, shape: [1], data: [0], constant: true, scale: 1, zeroPoint: 0 },
    { type: TensorType.INT16, shape: [1, 2], variable: true, scale: 1, zeroPoint: 0 },
    { type: TensorType.INT8, shape: [1, 1], scale: outputScale, zeroPoint: 0 },
  ];
  const options = { rank: 1, fusedActivationFunction: ActivationFunctionType.NONE, asymmetricQuantizeInputs: false };
  it('output scale 0 (was: RangeError multiplier Infinity)', () => {
    const e = prepareError(SVDF as Registration, tensors(0), [0, 1, 2, 3, 4], [5], options);
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toMatch(/SVDF \(node 0\): effective scale activation state x weights_time \/ output is Infinity/);
  });
  it('a finite output scale still prepares', () => {
    expect(() =>
      new KernelHarness({
        registration: SVDF as Registration,
        tensors: tensors(0.5),
        inputs: [0, 1, 2, 3, 4],
        outputs: [5],
        builtinData: options,
      }).prepare(),
    ).not.toThrow();
  });
});

describe('elementwise kernels refuse infinite scales and non-finite options', () => {
  it('RELU int8 with an infinite input scale (was: RangeError multiplier NaN)', () => {
    const e = prepareError(
      RELU as Registration,
      [
        { type: TensorType.INT8, shape: [4], scale: Number.POSITIVE_INFINITY },
        { type: TensorType.INT8, shape: [4], scale: Number.POSITIVE_INFINITY },
      ],
      [0],
      [1],
      null,
    );
    expect(e.message).toMatch(
      /RELU \(node 0\): input \(tensor 0\) of type int8 needs affine quantization with a positive finite scale \(got Infinity\)/,
    );
  });
  it('LEAKY_RELU int8 with alpha NaN (was: RangeError multiplier NaN)', () => {
    const t: HarnessTensorSpec[] = [
      { type: TensorType.INT8, shape: [4], scale: 0.1 },
      { type: TensorType.INT8, shape: [4], scale: 0.1 },
    ];
    expect(prepareError(LEAKY_RELU as Registration, t, [0], [1], { alpha: Number.NaN }).message).toMatch(
      /LEAKY_RELU \(node 0\): alpha multiplier: effective scale NaN is not finite/,
    );
  });
  it('FULLY_CONNECTED int8 with a -Infinity per-channel filter scale', () => {
    const t: HarnessTensorSpec[] = [
      { type: TensorType.INT8, shape: [1, 2], scale: 0.1 },
      {
        type: TensorType.INT8,
        shape: [2, 2],
        data: [1, 2, 3, 4],
        constant: true,
        scale: [0.1, Number.NEGATIVE_INFINITY],
        zeroPoint: [0, 0],
        quantizedDimension: 0,
      },
      { type: TensorType.INT8, shape: [1, 2], scale: 0.1 },
    ];
    const e = prepareError(FULLY_CONNECTED as Registration, t, [0, 1, -1], [2], {
      fusedActivationFunction: 0,
      weightsFormat: 0,
      keepNumDims: false,
      asymmetricQuantizeInputs: false,
      quantizedBiasType: 0,
    });
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toMatch(/FULLY_CONNECTED \(node 0\): per-channel output multiplier: effective scale -Infinity is not finite/);
  });
});
