import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, KernelError, Tensor, TensorType, quantizeMultiplier, type Node, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { QuantizationError } from './checks.js';
import {
  emptyOutputParams,
  populateConvolutionQuantizationParams,
  populateUint8ConvolutionParams,
  prepareConvOutputStage,
  type ConvOutputParams,
} from './conv.js';

const node = { index: 7 } as Node;

function qtensor(index: number, type: TensorType, shape: number[], scale: number[], zp: number[], qdim = 0): Tensor {
  return new Tensor(
    index,
    `t${index}`,
    type,
    Int32Array.from(shape),
    { scale: Float32Array.from(scale), zeroPoint: Int32Array.from(zp), quantizedDimension: qdim },
    false,
  );
}

describe('populateConvolutionQuantizationParams', () => {
  const buffers = () => ({ multiplier: new Int32Array(3), shift: new Int32Array(3) });

  it('computes per-channel multipliers from input*filter/output scales', () => {
    const input = qtensor(0, TensorType.INT8, [1, 2, 2, 1], [0.5], [0]);
    const filter = qtensor(1, TensorType.INT8, [3, 1, 1, 1], [0.25, 0.5, 0.75], [0, 0, 0]);
    const output = qtensor(2, TensorType.INT8, [1, 2, 2, 3], [1], [-3]);
    const b = buffers();
    const range = populateConvolutionQuantizationParams('CONV_2D', node, input, filter, output, ActivationFunctionType.RELU, 3, 0, b);
    // 0.125 = 0.5 * 2^-2: multiplier 2^30, shift -2; 0.25 -> shift -1; 0.375 = 0.75 * 2^-1
    expect(Array.from(b.multiplier)).toEqual([1073741824, 1073741824, 1610612736]);
    expect(Array.from(b.shift)).toEqual([-2, -1, -1]);
    expect(range).toEqual([-3, 127]); // RELU: max(-128, zero point)
  });

  it('broadcasts a per-tensor filter scale', () => {
    const input = qtensor(0, TensorType.INT8, [1, 1, 1, 1], [1], [0]);
    const filter = qtensor(1, TensorType.INT8, [3, 1, 1, 1], [0.5], [0]);
    const output = qtensor(2, TensorType.INT8, [1, 1, 1, 3], [1], [0]);
    const b = buffers();
    populateConvolutionQuantizationParams('CONV_2D', node, input, filter, output, ActivationFunctionType.NONE, 3, 0, b);
    expect(Array.from(b.shift)).toEqual([0, 0, 0]);
    expect(Array.from(b.multiplier)).toEqual([1073741824, 1073741824, 1073741824]);
  });

  it('rejects a wrong scale count, quantized dimension and non-zero filter zero points with a QuantizationError', () => {
    const input = qtensor(0, TensorType.INT8, [1, 1, 1, 1], [1], [0]);
    const output = qtensor(2, TensorType.INT8, [1, 1, 1, 3], [1], [0]);
    const call = (filter: Tensor) => () =>
      populateConvolutionQuantizationParams('CONV_2D', node, input, filter, output, ActivationFunctionType.NONE, 3, 0, buffers());
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 1], [0, 0]))).toThrow(/2 scales, expected 1 or 3/);
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 3], [1, 1, 1], [0, 0, 0], 3))).toThrow(/quantized along dimension 3, expected 0/);
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 1, 1], [0, 2, 0]))).toThrow(/zero point 1 is 2/);
    expect(call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 0, 1], [0, 0, 0]))).toThrow(/scale 1 must be finite and > 0, got 0/);
    const noQuant = new Tensor(1, 'f', TensorType.INT8, Int32Array.from([3, 1, 1, 1]), null, false);
    expect(call(noQuant)).toThrow(/filter \(tensor 1\) has no quantization/);
    let e: unknown;
    try {
      call(qtensor(1, TensorType.INT8, [3, 1, 1, 1], [1, 1], [0, 0]))();
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(QuantizationError);
    expect(e).toBeInstanceOf(KernelError);
    expect((e as QuantizationError).nodeIndex).toBe(7);
    expect((e as QuantizationError).op).toBe('CONV_2D');
    expect((e as QuantizationError).tensor).toBe(1);
  });

  it("uint8: TFLite's scalar multiplier from the float32 scale product, and the bias scale check", () => {
    const input = qtensor(0, TensorType.UINT8, [1, 1, 1, 1], [0.1], [128]);
    const filter = qtensor(1, TensorType.UINT8, [1, 1, 1, 1], [0.3], [120]);
    const output = qtensor(2, TensorType.UINT8, [1, 1, 1, 1], [0.7], [3]);
    const product = Math.fround(Math.fround(0.1) * Math.fround(0.3));
    expect(populateUint8ConvolutionParams('CONV_2D', node, input, filter, null, output)).toEqual(
      quantizeMultiplier(product / Math.fround(0.7)),
    );
    const bias = qtensor(3, TensorType.INT32, [1], [0.05], [0]);
    expect(() => populateUint8ConvolutionParams('CONV_2D', node, input, filter, bias, output)).toThrow(
      /bias \(tensor 3\) scale 0.05\d* must equal input scale \* filter scale/,
    );
  });
});

/** A kernel whose prepare runs prepareConvOutputStage on a CONV_2D-shaped node (OHWI filter). */
function stageKernel(out: ConvOutputParams): Registration {
  return {
    builtinCode: 3,
    invoke: () => {},
    prepare(context, n) {
      const t = (i: number) => context.getTensor(n.inputs[i]!);
      const bias = n.inputs.length > 2 ? t(2) : null;
      prepareConvOutputStage('CONV_2D', context, n, t(0), t(1), bias, context.getTensor(n.outputs[0]!), 3, out, {
        quantizedDimension: 0,
        int16BiasTypes: [TensorType.INT64],
        floatActivation: ActivationFunctionType.RELU6,
        quantizedActivation: ActivationFunctionType.RELU6,
      });
    },
  };
}

describe('prepareConvOutputStage (the quantization half of CalculateOpDataConv)', () => {
  const run = (tensors: HarnessTensorSpec[], inputs: number[]) => {
    const out = emptyOutputParams();
    const h = new KernelHarness({ registration: stageKernel(out), tensors, inputs, outputs: [tensors.length - 1] });
    h.prepare();
    return { out, h };
  };

  it('int8: two persistent per-channel arrays, offsets and the activation range', () => {
    const { out, h } = run(
      [
        { type: TensorType.INT8, shape: [1, 2, 2, 2], scale: 0.5, zeroPoint: -4 },
        {
          type: TensorType.INT8,
          shape: [3, 1, 1, 2],
          scale: [0.25, 0.5, 0.75],
          zeroPoint: [0, 0, 0],
          constant: true,
          data: new Array(6).fill(1),
        },
        { type: TensorType.INT32, shape: [3], scale: [0.125, 0.25, 0.375], zeroPoint: [0, 0, 0], constant: true, data: [0, 0, 0] },
        { type: TensorType.INT8, shape: [1, 2, 2, 3], scale: 0.1, zeroPoint: 5 },
      ],
      [0, 1, 2],
    );
    expect(h.persistentBytes).toBe(2 * 16); // two arrays of 3 int32, each aligned to 16 bytes
    // double(input_scale) * double(filter_scale[c]) / double(output_scale), the scales as float32
    const q = [0.25, 0.5, 0.75].map((fs) => quantizeMultiplier((Math.fround(0.5) * Math.fround(fs)) / Math.fround(0.1)));
    expect(Array.from(out.multiplier)).toEqual(q.map((m) => m.multiplier));
    expect(Array.from(out.shift)).toEqual([1, 2, 2]);
    expect(out.inputOffset).toBe(4);
    expect(out.outputOffset).toBe(5);
    expect([out.actMin, out.actMax]).toEqual([5, 65]); // RELU6 at scale 0.1
  });

  it('float32 allocates the arrays too (as TFLM) and takes the float bounds; a bias of the wrong type is refused', () => {
    const { out, h } = run(
      [
        { type: TensorType.FLOAT32, shape: [1, 1, 1, 1] },
        { type: TensorType.FLOAT32, shape: [3, 1, 1, 1], constant: true, data: [1, 2, 3] },
        { type: TensorType.FLOAT32, shape: [1, 1, 1, 3] },
      ],
      [0, 1],
    );
    expect(h.persistentBytes).toBe(32);
    expect([out.actMin, out.actMax]).toEqual([0, 6]);
    expect(() =>
      run(
        [
          { type: TensorType.FLOAT32, shape: [1, 1, 1, 1] },
          { type: TensorType.FLOAT32, shape: [3, 1, 1, 1], constant: true, data: [1, 2, 3] },
          { type: TensorType.INT32, shape: [3], constant: true, data: [0, 0, 0] },
          { type: TensorType.FLOAT32, shape: [1, 1, 1, 3] },
        ],
        [0, 1, 2],
      ),
    ).toThrow(/bias \(tensor 2\) type int32 is not supported with float32 input; expected float32/);
  });

  it('int16 activations need zero points 0', () => {
    expect(() =>
      run(
        [
          { type: TensorType.INT16, shape: [1, 1, 1, 1], scale: 0.5, zeroPoint: 2 },
          { type: TensorType.INT8, shape: [3, 1, 1, 1], scale: 0.5, zeroPoint: 0, constant: true, data: [1, 2, 3] },
          { type: TensorType.INT16, shape: [1, 1, 1, 3], scale: 0.5, zeroPoint: 0 },
        ],
        [0, 1],
      ),
    ).toThrow(/input \(tensor 0\) zero point must be 0, got 2/);
  });
});
