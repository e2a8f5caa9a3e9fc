/**
 * The op-data calculators against TFLM's formulas written out here independently (core's
 * QuantizeMultiplier on the ratios TFLM computes), on tensors as a kernel's prepare sees them.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  Padding,
  TensorType,
  quantizeMultiplier,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { calculateOpDataAdd } from './add.js';
import { calculateOpDataFullyConnected, expectFullyConnectedShape } from './fully-connected.js';
import { calculateOpDataMul } from './mul.js';
import { calculateOpDataPooling } from './pooling.js';
import { calculateSoftmaxInt8Params } from './softmax.js';
import { calculateOpDataSub } from './sub.js';

const f = Math.fround;

/** Runs `compute` in a kernel's prepare on the given tensors and returns what it returned. */
function inPrepare<T>(
  tensors: HarnessTensorSpec[],
  inputs: number[],
  outputs: number[],
  compute: (c: TfLiteContext, n: Node) => T,
  builtinData?: object,
) {
  let result: T | undefined;
  const registration: Registration = { builtinCode: 0, invoke: () => {}, prepare: (c, n) => void (result = compute(c, n)) };
  const h = new KernelHarness({ registration, tensors, inputs, outputs, builtinData: (builtinData ?? null) as never });
  h.prepare();
  return { result: result as T, harness: h };
}
const tensor = (i: number, c: TfLiteContext, n: Node, out = false) => c.getTensor((out ? n.outputs : n.inputs)[i]!);

describe('CalculateOpDataAdd / Sub / Mul', () => {
  const specs: HarnessTensorSpec[] = [
    { type: TensorType.INT8, shape: [4], scale: 0.02, zeroPoint: 3 },
    { type: TensorType.INT8, shape: [4], scale: 0.05, zeroPoint: -2 },
    { type: TensorType.INT8, shape: [4], scale: 0.07, zeroPoint: 1 },
  ];
  const both = (c: TfLiteContext, n: Node) => [tensor(0, c, n), tensor(1, c, n), tensor(0, c, n, true)] as const;

  it('ADD: both inputs rescaled to twice the larger scale after a left shift of 20, in double', () => {
    const { result: p } = inPrepare(specs, [0, 1], [2], (c, n) => calculateOpDataAdd('ADD', n, ...both(c, n), ActivationFunctionType.RELU));
    const twice = 2 * f(0.05);
    expect(p).toMatchObject({ leftShift: 20, input1Offset: -3, input2Offset: 2, outputOffset: 1, actMin: 1, actMax: 127 });
    const m1 = quantizeMultiplier(f(0.02) / twice);
    const mo = quantizeMultiplier(twice / (2 ** 20 * f(0.07)));
    expect([p.input1Multiplier, p.input1Shift, p.outputMultiplier, p.outputShift]).toEqual([
      m1.multiplier,
      m1.shift,
      mo.multiplier,
      mo.shift,
    ]);
  });

  it('SUB: the same scheme with the ratios in float, as TFLM computes them', () => {
    const { result: p } = inPrepare(specs, [0, 1], [2], (c, n) => calculateOpDataSub('SUB', n, ...both(c, n), ActivationFunctionType.NONE));
    const twice = f(2 * f(0.05));
    expect(p.input1Multiplier).toBe(quantizeMultiplier(f(f(0.02) / twice)).multiplier);
    expect(p.outputShift).toBe(quantizeMultiplier(f(twice / f(2 ** 20 * f(0.07)))).shift);
    expect([p.actMin, p.actMax]).toEqual([-128, 127]);
  });

  it('MUL: one multiplier s1 * s2 / s_out in double; int16 needs zero points 0', () => {
    const { result: p } = inPrepare(specs, [0, 1], [2], (c, n) => calculateOpDataMul('MUL', n, ...both(c, n), ActivationFunctionType.NONE));
    const m = quantizeMultiplier((f(0.02) * f(0.05)) / f(0.07));
    expect([p.outputMultiplier, p.outputShift, p.input1ZeroPoint, p.input2ZeroPoint, p.outputZeroPoint]).toEqual([
      m.multiplier,
      m.shift,
      3,
      -2,
      1,
    ]);
    const int16 = specs.map((s) => ({ ...s, type: TensorType.INT16 }));
    expect(() => inPrepare(int16, [0, 1], [2], (c, n) => calculateOpDataMul('MUL', n, ...both(c, n), ActivationFunctionType.NONE))).toThrow(
      /input 1 \(tensor 0\) zero point must be 0, got 3/,
    );
  });
});

describe('CalculateOpDataFullyConnected', () => {
  const fc = (filter: Partial<HarnessTensorSpec>, biasScale = f(0.5) * f(0.25)) =>
    inPrepare(
      [
        { type: TensorType.INT8, shape: [2, 4], scale: 0.5, zeroPoint: -1 },
        { type: TensorType.INT8, shape: [3, 4], scale: 0.25, zeroPoint: 0, constant: true, data: new Array(12).fill(1), ...filter },
        { type: TensorType.INT32, shape: [3], scale: biasScale, zeroPoint: 0, constant: true, data: [0, 0, 0] },
        { type: TensorType.INT8, shape: [2, 3], scale: 0.3, zeroPoint: 4 },
      ],
      [0, 1, 2],
      [3],
      (c, n) => {
        const [input, filter, bias, output] = [tensor(0, c, n), tensor(1, c, n), tensor(2, c, n), tensor(0, c, n, true)];
        return {
          shape: expectFullyConnectedShape('FULLY_CONNECTED', n, input, filter, output, false),
          q: calculateOpDataFullyConnected('FULLY_CONNECTED', c, n, input, filter, bias, output, ActivationFunctionType.RELU6),
        };
      },
    );

  it('per-tensor: GetQuantizedConvolutionMultipler (float product), no arena', () => {
    const { result, harness } = fc({});
    expect(result.shape).toEqual({ batches: 2, outputDepth: 3, accumDepth: 4 });
    const m = quantizeMultiplier(f(f(0.5) * f(0.25)) / f(0.3));
    expect(result.q).toMatchObject({ perChannel: false, outputMultiplier: m.multiplier, outputShift: m.shift, perChannelBuffers: null });
    expect(result.q).toMatchObject({ inputZeroPoint: -1, outputZeroPoint: 4, actMin: 4, actMax: 24 });
    expect(harness.persistentBytes).toBe(0);
  });

  it('per-channel: one multiplier per unit in two persistent arrays; a bias scale off by more than 2% of a step is refused', () => {
    const { result, harness } = fc({ scale: [0.25, 0.5, 1], zeroPoint: [0, 0, 0] });
    const q = [0.25, 0.5, 1].map((s) => quantizeMultiplier((f(0.5) * f(s)) / f(0.3)));
    expect(Array.from(result.q.perChannelBuffers!.multiplier)).toEqual(q.map((x) => x.multiplier));
    expect(Array.from(result.q.perChannelBuffers!.shift)).toEqual(q.map((x) => x.shift));
    expect(harness.persistentBytes).toBe(32);
    expect(() => fc({}, 0.2)).toThrow(/bias scale 0\.2\d* \(tensor 2\) differs from input_scale \* filter_scale/);
  });
});

describe('CalculateSoftmaxParams and CalculateOpDataPooling', () => {
  it('softmax int8: TFLM output quantization and the Q5.26 rescaling of the differences', () => {
    const run = (outScale: number, outZp: number, outType = TensorType.INT8) =>
      inPrepare(
        [
          { type: TensorType.INT8, shape: [1, 4], scale: 0.1, zeroPoint: 0 },
          { type: outType, shape: [1, 4], scale: outScale, zeroPoint: outZp },
        ],
        [0],
        [1],
        (c, n) => calculateSoftmaxInt8Params('SOFTMAX', n, tensor(0, c, n), tensor(0, c, n, true), 1),
      ).result;
    const p = run(1 / 256, -128);
    const m = quantizeMultiplier(f(0.1) * 2 ** 26);
    expect([p.inputMultiplier, p.inputLeftShift, p.outputBits]).toEqual([m.multiplier, m.shift, 8]);
    // CalculateInputRadius(5, shift): floor(31 * 2^26 / 2^shift)
    expect(p.diffMin).toBe(-Math.floor((31 * 2 ** 26) / 2 ** m.shift));
    expect(run(1 / 65536, -32768, TensorType.INT16).outputBits).toBe(16);
    expect(() => run(1 / 250, -128)).toThrow(/int8 output \(tensor 1\) must have zero point -128 and scale 0.00390625/);
  });

  it('pooling: padding from the options, output size from the tensor, ranges for float and int8', () => {
    const pool = (type: TensorType, out: number[], extra: Partial<HarnessTensorSpec> = {}) =>
      inPrepare(
        [
          { type, shape: [1, 5, 5, 2], scale: 0.5, zeroPoint: 1, ...extra },
          { type, shape: out, scale: 0.5, zeroPoint: 1 },
        ],
        [0],
        [1],
        (c, n) => calculateOpDataPooling('AVERAGE_POOL_2D', c, n, [TensorType.FLOAT32, TensorType.INT8]),
        {
          padding: Padding.SAME,
          strideW: 2,
          strideH: 2,
          filterWidth: 3,
          filterHeight: 3,
          fusedActivationFunction: ActivationFunctionType.RELU,
        },
      ).result;
    expect(pool(TensorType.INT8, [1, 3, 3, 2])).toMatchObject({ outHeight: 3, padding: { height: 1, width: 1 }, actMin: 1, actMax: 127 });
    expect(pool(TensorType.FLOAT32, [1, 3, 3, 2])).toMatchObject({ actMinF: 0, actMaxF: 3.4028234663852886e38 });
    expect(() => pool(TensorType.INT8, [1, 3, 3, 2], { zeroPoint: 2 })).toThrow(/input zero point 2 and output zero point 1 must be equal/);
    expect(() => pool(TensorType.INT16, [1, 3, 3, 2])).toThrow(/unsupported input type int16 \(tensor 0\); supported: float32, int8/);
  });
});
