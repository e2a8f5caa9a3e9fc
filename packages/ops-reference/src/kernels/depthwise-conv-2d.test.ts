import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  Padding,
  TensorType,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierInt64,
  quantizeMultiplier,
  type DepthwiseConv2DOptions,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { DEPTHWISE_CONV_2D } from './depthwise-conv-2d.js';
import { expectFloatClose, lcg, prepareError } from './__fixtures__/conv-testing.js';
import { computePaddingHeightWidth } from '@micrort/kernel-support';

const A = ActivationFunctionType;

function options(o: Partial<DepthwiseConv2DOptions> = {}): DepthwiseConv2DOptions {
  return {
    padding: Padding.VALID,
    strideW: 1,
    strideH: 1,
    depthMultiplier: 1,
    fusedActivationFunction: A.NONE,
    dilationWFactor: 1,
    dilationHFactor: 1,
    ...o,
  };
}

/** Tensors: 0 input, 1 filter, 2 output, 3 bias (optional). */
function harness(
  input: HarnessTensorSpec,
  filter: HarnessTensorSpec,
  output: HarnessTensorSpec,
  bias: HarnessTensorSpec | null,
  o: DepthwiseConv2DOptions,
): KernelHarness {
  const tensors = [input, { ...filter, constant: true }, output];
  if (bias) tensors.push({ ...bias, constant: true });
  return new KernelHarness({ registration: DEPTHWISE_CONV_2D, tensors, inputs: bias ? [0, 1, 3] : [0, 1], outputs: [2], builtinData: o });
}

const F = TensorType.FLOAT32;

describe('DEPTHWISE_CONV_2D float32 (TFLM depthwise_conv_test.cc)', () => {
  const input = { type: F, shape: [1, 3, 2, 2], data: [1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12] };
  const filter = { type: F, shape: [1, 2, 2, 4], data: [1, 2, 3, 4, -9, 10, -11, 12, 5, 6, 7, 8, 13, -14, 15, -16] };
  const bias = { type: F, shape: [4], data: [1, 2, 3, 4] };
  const output = { type: F, shape: [1, 2, 1, 4] };

  it('SimpleTest with depth multiplier 2, and RELU', () => {
    expect(
      harness(input, filter, output, bias, options({ depthMultiplier: 2 }))
        .invoke()
        .outputArray(),
    ).toEqual([71, -34, 99, -20, 91, -26, 127, -4]);
    const relu = harness(input, filter, output, bias, options({ depthMultiplier: 2, fusedActivationFunction: A.RELU })).invoke();
    expect(relu.outputArray()).toEqual([71, 0, 99, 0, 91, 0, 127, 0]);
  });

  it('dilation 2 (height) x 3 (width)', () => {
    const h = harness(
      {
        type: F,
        shape: [1, 4, 6, 2],
        data: [
          1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 1, 2, 3, 4, 5, 6, 2, 6, 2, 4, 4, 2, 3, 2, 6, 5, 1, 4, 1,
          2, 1, 4, 6, 3,
        ],
      },
      filter,
      { type: F, shape: [1, 2, 3, 4] },
      bias,
      options({ depthMultiplier: 2, dilationHFactor: 2, dilationWFactor: 3 }),
    ).invoke();
    expect(h.outputArray()).toEqual([15, 2, 88, -48, 25, 14, 72, 0, 61, -2, 56, 48, -4, 52, 12, 48, 11, 70, 63, 40, 51, -30, 41, 48]);
  });

  it('TestQuantizedPerChannelCompareWithFloat (float half)', () => {
    const h = harness(
      { type: F, shape: [1, 2, 3, 2], data: [3, 2, 1, -1, -2, -3, 4, 3, 2, -2, -3, -4] },
      { type: F, shape: [1, 2, 2, 4], data: [1, 2, 3, 4, 3, 4, 5, 6, 7, 8, 5, 6, 3, 4, 1, 2] },
      { type: F, shape: [1, 1, 2, 4] },
      { type: F, shape: [1, 1, 1, 4], data: [3, -2, 4, 6] },
      options({ depthMultiplier: 2 }),
    ).invoke();
    expect(h.outputArray()).toEqual([43, 48, 18, 22, 3, -4, -28, -36]);
  });

  it('SAME padding with stride 2 (hand-checked)', () => {
    // 3x3 single channel, 3x3 filter of ones, SAME stride 2 -> 2x2 corner sums
    const h = harness(
      { type: F, shape: [1, 3, 3, 1], data: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      { type: F, shape: [1, 3, 3, 1], data: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
      { type: F, shape: [1, 2, 2, 1] },
      null,
      options({ padding: Padding.SAME, strideH: 2, strideW: 2 }),
    ).invoke();
    expect(h.outputArray()).toEqual([12, 16, 24, 28]);
  });
});

describe('DEPTHWISE_CONV_2D int8 per-channel (quantized dimension 3)', () => {
  // input values (q - zp) per channel: ic0 = 0, 2, 4, 6; ic1 = 1, 3, 5, 7
  const input = { type: TensorType.INT8, shape: [1, 2, 2, 2], data: [1, 2, 3, 4, 5, 6, 7, 8], scale: 1, zeroPoint: 1 };
  const filter = {
    type: TensorType.INT8,
    shape: [1, 2, 2, 4],
    data: [1, 2, 3, 4, 0, 1, 0, 1, 1, 0, 1, 0, -1, -1, -1, -1],
    scale: [1, 0.5, 0.25, 1],
    zeroPoint: [0, 0, 0, 0],
    quantizedDimension: 3,
  };
  const output = { type: TensorType.INT8, shape: [1, 1, 1, 4], scale: 1, zeroPoint: 0 };

  it('computes hand-checked results with depth multiplier 2 and double rounding', () => {
    // accumulators -2, -4, 1, 0; multipliers 1, 0.5, 0.25, 1. 1 x 0.25: high-mul rounds 0.5 -> 1, shift rounds 0.5 -> 1
    expect(
      harness(input, filter, output, null, options({ depthMultiplier: 2 }))
        .invoke()
        .outputArray(),
    ).toEqual([-2, -2, 1, 0]);
    // with bias: 8, -14, 5, 100 -> 8, -7, 2 (2.5 -> 3 -> 1.5 -> 2), 100
    const bias = { type: TensorType.INT32, shape: [4], data: [10, -10, 4, 100] };
    const h = harness(input, filter, output, bias, options({ depthMultiplier: 2 })).invoke();
    expect(h.outputArray()).toEqual([8, -7, 2, 100]);
    expect(h.persistentBytes).toBe(32);
  });

  it('saturates and applies RELU6 in the quantized domain', () => {
    const bias = { type: TensorType.INT32, shape: [4], data: [1000, -1000, 0, 5] };
    const out = { ...output, scale: 0.5, zeroPoint: -10 };
    // multipliers x2, x1, x0.5, x2; accumulators 998, -1004, 1, 5 -> 1996, -1004, 1 (0.5 rounds up), 10; + zero point -10
    expect(
      harness(input, filter, out, bias, options({ depthMultiplier: 2 }))
        .invoke()
        .outputArray(),
    ).toEqual([127, -128, -9, 0]);
    // RELU6 range in the output's quantized domain: [-10 + 0, -10 + 6 / 0.5] = [-10, 2]
    const r6 = harness(input, filter, out, bias, options({ depthMultiplier: 2, fusedActivationFunction: A.RELU6 })).invoke();
    expect(r6.outputArray()).toEqual([2, -10, -9, 0]);
  });

  it('matches the TFLM reference algorithm on random cases', () => {
    const rnd = lcg(11);
    for (const c of CASES) {
      const k = makeCase(rnd, c, TensorType.INT8);
      expect(harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray(), JSON.stringify(c)).toEqual(oracle(k));
    }
  });
});

describe('DEPTHWISE_CONV_2D 16x8', () => {
  const input = { type: TensorType.INT16, shape: [1, 1, 1, 2], data: [1000, -3000], scale: 0.5, zeroPoint: 0 };
  const filter = {
    type: TensorType.INT8,
    shape: [1, 1, 1, 4],
    data: [10, -20, 30, 127],
    scale: [1, 1, 1, 1],
    zeroPoint: [0, 0, 0, 0],
    quantizedDimension: 3,
  };
  const output = { type: TensorType.INT16, shape: [1, 1, 1, 4], scale: 1, zeroPoint: 0 };

  it('accumulates in 64 bits and rounds half up as the 64-bit MultiplyByQuantizedMultiplier does', () => {
    const bias = { type: TensorType.INT64, shape: [4], data: [1n, -1n, 3n, 0n] };
    // 10001, -20001, -89997, -381000 times 0.5 -> 5001, -10000, saturate, saturate
    expect(
      harness(input, filter, output, bias, options({ depthMultiplier: 2 }))
        .invoke()
        .outputArray(),
    ).toEqual([5001, -10000, -32768, -32768]);
    expect(
      harness(input, filter, output, null, options({ depthMultiplier: 2 }))
        .invoke()
        .outputArray(),
    ).toEqual([5000, -10000, -32768, -32768]);
  });

  it('refuses an int32 bias (TFLM reads 16x8 depthwise bias as int64)', () => {
    const bias = { type: TensorType.INT32, shape: [4], data: [0, 0, 0, 0] };
    expect(() => harness(input, filter, output, bias, options({ depthMultiplier: 2 })).prepare()).toThrow(
      /bias \(tensor 3\) type int32 is not supported with int16 input; expected int64/,
    );
  });

  it('matches the TFLM reference algorithm on random cases', () => {
    const rnd = lcg(5);
    for (const c of CASES) {
      const k = makeCase(rnd, c, TensorType.INT16);
      expect(harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray(), JSON.stringify(c)).toEqual(oracle(k));
    }
  });
});

describe('DEPTHWISE_CONV_2D float32 random cases', () => {
  it('matches the reference algorithm within float tolerance', () => {
    const rnd = lcg(9);
    for (const c of CASES) {
      const k = makeCase(rnd, c, F);
      const got = harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray();
      const want = oracle(k);
      expectFloatClose(got, want);
    }
  });
});

describe('DEPTHWISE_CONV_2D validation', () => {
  const input = { type: TensorType.INT8, shape: [1, 3, 3, 2], data: new Array(18).fill(1), scale: 0.5, zeroPoint: 0 };
  const filter = {
    type: TensorType.INT8,
    shape: [1, 2, 2, 2],
    data: new Array(8).fill(1),
    scale: [0.5, 0.5],
    zeroPoint: [0, 0],
    quantizedDimension: 3,
  };
  const output = { type: TensorType.INT8, shape: [1, 2, 2, 2], scale: 1, zeroPoint: 0 };

  it('accepts the valid node and refuses bad ones with the node index and what is wrong', () => {
    expect(() => harness(input, filter, output, null, options()).invoke()).not.toThrow();
    expect(prepareError(harness(input, { ...filter, quantizedDimension: 0 }, output, null, options())).message).toMatch(
      /DEPTHWISE_CONV_2D \(node 0\): filter \(tensor 1\) is quantized along dimension 0, expected 3/,
    );
    expect(prepareError(harness(input, filter, output, null, options({ depthMultiplier: 2 }))).message).toMatch(
      /output channels 2 != input channels 2 \* depth_multiplier 2/,
    );
    expect(
      prepareError(harness(input, { ...filter, shape: [2, 2, 2, 1], data: new Array(8).fill(1) }, output, null, options())).message,
    ).toMatch(/must have shape \[1, KH, KW, Cout\]/);
    expect(prepareError(harness(input, filter, { ...output, shape: [1, 3, 3, 2] }, null, options())).message).toMatch(
      /output \(tensor 2\) spatial size 3x3 does not match 2x2/,
    );
    expect(
      prepareError(harness(input, { ...filter, scale: [0.5, 0.5, 0.5], zeroPoint: [0, 0, 0] }, output, null, options())).message,
    ).toMatch(/3 scales, expected 1 or 2/);
    expect(prepareError(harness(input, filter, output, { type: TensorType.FLOAT32, shape: [2], data: [0, 0] }, options())).message).toMatch(
      /bias \(tensor 3\) type float32/,
    );
    expect(prepareError(harness({ ...input, scale: 0 }, filter, output, null, options())).message).toMatch(
      /input \(tensor 0\) scale must be finite and > 0/,
    );
    // float32 × int8 is TFLite's hybrid kernel (conv-hybrid.ts); float32 × uint8 is not TFLite's depthwise.
    expect(harness({ ...input, type: F }, filter, { ...output, type: F }, null, options()).supports()).toBe(true);
    const u8 = harness({ ...input, type: F }, { ...filter, type: TensorType.UINT8 }, { ...output, type: F }, null, options());
    expect(u8.supports()).toBe(false);
    expect(prepareError(u8).message).toMatch(/float32\/uint8/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Reference algorithm as TFLM's reference kernels state it (bounds test per tap), for random cases.

interface CaseShape {
  n: number;
  h: number;
  w: number;
  cin: number;
  dm: number;
  kh: number;
  kw: number;
  stride: [number, number];
  dilation: [number, number];
  padding: Padding;
  act: ActivationFunctionType;
  bias: boolean;
}

const CASES: CaseShape[] = [
  { n: 1, h: 5, w: 5, cin: 3, dm: 1, kh: 3, kw: 3, stride: [1, 1], dilation: [1, 1], padding: Padding.SAME, act: A.NONE, bias: true },
  { n: 2, h: 7, w: 6, cin: 2, dm: 2, kh: 3, kw: 3, stride: [2, 2], dilation: [1, 1], padding: Padding.SAME, act: A.RELU6, bias: true },
  { n: 1, h: 8, w: 9, cin: 4, dm: 1, kh: 3, kw: 2, stride: [2, 1], dilation: [1, 1], padding: Padding.VALID, act: A.RELU, bias: false },
  { n: 1, h: 9, w: 9, cin: 2, dm: 3, kh: 3, kw: 3, stride: [1, 1], dilation: [2, 2], padding: Padding.SAME, act: A.NONE, bias: true },
  {
    n: 1,
    h: 10,
    w: 9,
    cin: 3,
    dm: 1,
    kh: 2,
    kw: 3,
    stride: [2, 2],
    dilation: [3, 2],
    padding: Padding.VALID,
    act: A.RELU_N1_TO_1,
    bias: true,
  },
  { n: 1, h: 6, w: 5, cin: 5, dm: 2, kh: 1, kw: 1, stride: [1, 1], dilation: [1, 1], padding: Padding.SAME, act: A.NONE, bias: true },
];

interface Case {
  type: TensorType;
  shape: CaseShape;
  options: DepthwiseConv2DOptions;
  input: HarnessTensorSpec & { data: number[] };
  filter: HarnessTensorSpec & { data: number[]; scale: number[] };
  bias: (HarnessTensorSpec & { data: number[] | bigint[] }) | null;
  output: HarnessTensorSpec & { shape: number[] };
}

function makeCase(rnd: () => number, c: CaseShape, type: TensorType): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const cout = c.cin * c.dm;
  const o = options({
    padding: c.padding,
    strideH: c.stride[0],
    strideW: c.stride[1],
    dilationHFactor: c.dilation[0],
    dilationWFactor: c.dilation[1],
    depthMultiplier: c.dm,
    fusedActivationFunction: c.act,
  });
  const pad = computePaddingHeightWidth(c.stride[0], c.stride[1], c.dilation[0], c.dilation[1], c.h, c.w, c.kh, c.kw, c.padding);
  const inShape = [c.n, c.h, c.w, c.cin];
  const fShape = [1, c.kh, c.kw, cout];
  const outShape = [c.n, pad.outHeight, pad.outWidth, cout];
  const inCount = c.n * c.h * c.w * c.cin;
  const fCount = c.kh * c.kw * cout;
  if (type === F) {
    const f = () => Math.fround(rnd() * 2 - 1);
    return {
      type,
      shape: c,
      options: o,
      input: { type, shape: inShape, data: Array.from({ length: inCount }, f) },
      filter: { type, shape: fShape, data: Array.from({ length: fCount }, f), scale: [] },
      bias: c.bias ? { type, shape: [cout], data: Array.from({ length: cout }, f) } : null,
      output: { type, shape: outShape },
    };
  }
  const i16 = type === TensorType.INT16;
  const scales = Array.from({ length: cout }, () => Math.fround(0.002 + rnd() * 0.05));
  const biasValues = Array.from({ length: cout }, () => int(-2000, 2000) * (i16 ? 40 : 1));
  return {
    type,
    shape: c,
    options: o,
    input: {
      type,
      shape: inShape,
      data: Array.from({ length: inCount }, () => (i16 ? int(-32768, 32767) : int(-128, 127))),
      scale: Math.fround(i16 ? 0.0004 : 0.04),
      zeroPoint: i16 ? 0 : int(-30, 30),
    },
    filter: {
      type: TensorType.INT8,
      shape: fShape,
      data: Array.from({ length: fCount }, () => int(-127, 127)),
      scale: scales,
      zeroPoint: scales.map(() => 0),
      quantizedDimension: 3,
    },
    bias: c.bias
      ? i16
        ? { type: TensorType.INT64, shape: [cout], data: biasValues.map(BigInt) }
        : { type: TensorType.INT32, shape: [cout], data: biasValues }
      : null,
    output: { type, shape: outShape, scale: Math.fround(i16 ? 0.001 : 0.05), zeroPoint: i16 ? 0 : int(-10, 10) },
  };
}

function activationRangeQ(act: ActivationFunctionType, scale: number, zp: number, lo: number, hi: number): [number, number] {
  const q = (x: number) => zp + Math.round(x / scale);
  if (act === A.RELU) return [Math.max(lo, q(0)), hi];
  if (act === A.RELU6) return [Math.max(lo, q(0)), Math.min(hi, q(6))];
  if (act === A.RELU_N1_TO_1) return [Math.max(lo, zp - Math.round(1 / scale)), Math.min(hi, q(1))];
  return [lo, hi];
}

function oracle(k: Case): number[] {
  const c = k.shape;
  const cout = c.cin * c.dm;
  const [, oh, ow] = k.output.shape as [number, number, number, number];
  const pad = computePaddingHeightWidth(c.stride[0], c.stride[1], c.dilation[0], c.dilation[1], c.h, c.w, c.kh, c.kw, c.padding);
  const isFloat = k.type === F;
  const i16 = k.type === TensorType.INT16;
  const inOff = isFloat || i16 ? 0 : -(k.input.zeroPoint as number);
  const outZp = isFloat || i16 ? 0 : (k.output.zeroPoint as number);
  const [lo, hi] = isFloat
    ? c.act === A.RELU
      ? [0, Infinity]
      : c.act === A.RELU6
        ? [0, 6]
        : c.act === A.RELU_N1_TO_1
          ? [-1, 1]
          : [-Infinity, Infinity]
    : activationRangeQ(c.act, k.output.scale as number, outZp, i16 ? -32768 : -128, i16 ? 32767 : 127);
  const out = new Array<number>(c.n * oh * ow * cout);
  for (let b = 0; b < c.n; b++)
    for (let oy = 0; oy < oh; oy++)
      for (let ox = 0; ox < ow; ox++)
        for (let ic = 0; ic < c.cin; ic++)
          for (let m = 0; m < c.dm; m++) {
            const oc = m + ic * c.dm;
            let acc = 0;
            for (let fy = 0; fy < c.kh; fy++)
              for (let fx = 0; fx < c.kw; fx++) {
                const iy = oy * c.stride[0] - pad.height + c.dilation[0] * fy;
                const ix = ox * c.stride[1] - pad.width + c.dilation[1] * fx;
                if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
                const xv = k.input.data[((b * c.h + iy) * c.w + ix) * c.cin + ic]!;
                const fv = k.filter.data[(fy * c.kw + fx) * cout + oc]!;
                acc = isFloat ? Math.fround(acc + Math.fround(xv * fv)) : acc + fv * (xv + inOff);
              }
            const at = ((b * oh + oy) * ow + ox) * cout + oc;
            if (isFloat) {
              const v = Math.fround(acc + (k.bias ? (k.bias.data[oc] as number) : 0));
              out[at] = Math.min(Math.max(v, lo), hi);
              continue;
            }
            const { multiplier, shift } = quantizeMultiplier(
              ((k.input.scale as number) * k.filter.scale[oc]!) / (k.output.scale as number),
            );
            let scaled: number;
            if (i16) {
              scaled = multiplyByQuantizedMultiplierInt64(acc + (k.bias ? Number(k.bias.data[oc]) : 0), multiplier, shift);
            } else {
              acc |= 0;
              if (k.bias) acc = (acc + (k.bias.data[oc] as number)) | 0;
              scaled = multiplyByQuantizedMultiplier(acc, multiplier, shift) + outZp;
            }
            out[at] = Math.min(Math.max(scaled, lo), hi);
          }
  return out;
}

describe('DEPTHWISE_CONV_2D uint8 (TFLite legacy asymmetric uint8, reference_ops::DepthwiseConv)', () => {
  it('matches a direct transcription of the reference loop on random cases (depth multiplier, padding, stride, dilation)', () => {
    const next = lcg(7);
    for (let t = 0; t < 12; t++) {
      const [h, w, cin, mult] = [3 + (t % 4), 4 + (t % 3), 1 + (t % 3), 1 + (t % 2)];
      const cout = cin * mult;
      const [kh, kw, stride, dil] = [1 + (t % 3), 3, 1 + (t % 2), t % 4 === 3 ? 2 : 1];
      const padding = t % 2 ? Padding.SAME : Padding.VALID;
      const pad = computePaddingHeightWidth(stride, stride, dil, dil, h, w, kh, kw, padding);
      if (pad.outHeight < 1 || pad.outWidth < 1) continue;
      const x = Array.from({ length: h * w * cin }, () => Math.floor(next() * 256));
      const f = Array.from({ length: kh * kw * cout }, () => Math.floor(next() * 256));
      const b = Array.from({ length: cout }, () => Math.floor((next() - 0.5) * 4000));
      const [zi, zf, zo] = [Math.floor(next() * 256), Math.floor(next() * 256), Math.floor(next() * 256)];
      const [si, sf, so] = [0.05, 0.02, 0.25 + next()];
      const act = t % 3 === 0 ? A.RELU6 : A.NONE;
      const out = harness(
        { type: TensorType.UINT8, shape: [1, h, w, cin], data: x, scale: si, zeroPoint: zi },
        { type: TensorType.UINT8, shape: [1, kh, kw, cout], data: f, scale: sf, zeroPoint: zf },
        { type: TensorType.UINT8, shape: [1, pad.outHeight, pad.outWidth, cout], scale: so, zeroPoint: zo },
        { type: TensorType.INT32, shape: [cout], data: b, scale: Math.fround(si * sf), zeroPoint: 0 },
        options({
          padding,
          strideH: stride,
          strideW: stride,
          dilationHFactor: dil,
          dilationWFactor: dil,
          depthMultiplier: mult,
          fusedActivationFunction: act,
        }),
      )
        .invoke()
        .outputArray();
      const q = quantizeMultiplier(Math.fround(si * sf) / Math.fround(so));
      const so32 = Math.fround(so);
      const lo = act === A.RELU6 ? Math.max(0, zo) : 0;
      const hi = act === A.RELU6 ? Math.min(255, zo + Math.round(Math.fround(6 / so32))) : 255;
      const want: number[] = [];
      for (let oy = 0; oy < pad.outHeight; oy++)
        for (let ox = 0; ox < pad.outWidth; ox++)
          for (let oc = 0; oc < cout; oc++) {
            const ic = Math.floor(oc / mult);
            let acc = 0;
            for (let fy = 0; fy < kh; fy++)
              for (let fx = 0; fx < kw; fx++) {
                const iy = oy * stride - pad.height + dil * fy;
                const ix = ox * stride - pad.width + dil * fx;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                acc += (f[(fy * kw + fx) * cout + oc]! - zf) * (x[(iy * w + ix) * cin + ic]! - zi);
              }
            want.push(Math.min(hi, Math.max(lo, multiplyByQuantizedMultiplier(acc + b[oc]!, q.multiplier, q.shift) + zo)));
          }
      expect(out).toEqual(want);
    }
  });
});
