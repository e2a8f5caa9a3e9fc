import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  Padding,
  TensorType,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierInt64,
  quantizeMultiplier,
  type TransposeConvOptions,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { TRANSPOSE_CONV } from './transpose-conv.js';
import { expectFloatClose, lcg, prepareError } from './__fixtures__/conv-testing.js';
import { computePaddingHeightWidth } from '@micrort/kernel-support';

const A = ActivationFunctionType;
const F = TensorType.FLOAT32;

function options(o: Partial<TransposeConvOptions> = {}): TransposeConvOptions {
  return { padding: Padding.SAME, strideW: 1, strideH: 1, fusedActivationFunction: A.NONE, quantizedBiasType: 0, ...o };
}

/** Tensors: 0 output_shape, 1 filter, 2 input, 3 output, 4 bias (optional). */
function harness(
  input: HarnessTensorSpec,
  filter: HarnessTensorSpec,
  output: HarnessTensorSpec & { shape: number[] },
  bias: HarnessTensorSpec | null,
  o: TransposeConvOptions,
  shapeTensor?: HarnessTensorSpec,
): KernelHarness {
  const tensors: HarnessTensorSpec[] = [
    shapeTensor ?? { type: TensorType.INT32, shape: [4], data: output.shape, constant: true },
    { ...filter, constant: true },
    input,
    output,
  ];
  if (bias) tensors.push({ ...bias, constant: true });
  return new KernelHarness({
    registration: TRANSPOSE_CONV,
    tensors,
    inputs: bias ? [0, 1, 2, 4] : [0, 1, 2],
    outputs: [3],
    builtinData: o,
  });
}

describe('TRANSPOSE_CONV float32 (TFLM transpose_conv_test.cc)', () => {
  const zeroBias = { type: F, shape: [1, 1, 1, 1], data: [0] };

  it('SimpleTestFloat', () => {
    const h = harness(
      { type: F, shape: [1, 4, 4, 2], data: Array.from({ length: 32 }, (_, i) => i + 1) },
      { type: F, shape: [1, 3, 3, 2], data: Array.from({ length: 18 }, (_, i) => i + 1) },
      { type: F, shape: [1, 4, 4, 1] },
      zeroBias,
      options(),
    ).invoke();
    expect(h.outputArray()).toEqual([184, 412, 568, 528, 678, 1347, 1689, 1434, 1494, 2715, 3057, 2442, 1968, 3352, 3652, 2760]);
    expect(h.scratchSizes).toEqual([]);
  });

  it('fusedRELUTest', () => {
    const h = harness(
      { type: F, shape: [1, 4, 4, 1], data: [1, 2, -3, -4, 5, 6, -7, -8, 9, 10, -11, -12, 13, 14, 15, 16] },
      { type: F, shape: [1, 3, 3, 1], data: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      { type: F, shape: [1, 4, 4, 1] },
      zeroBias,
      options({ fusedActivationFunction: A.RELU }),
    ).invoke();
    expect(h.outputArray()).toEqual([29, 24, 0, 0, 99, 72, 0, 0, 207, 186, 0, 0, 263, 292, 141, 0]);
  });

  it('AccuracyWithFusedActivationTest (stride 3)', () => {
    const h = harness(
      { type: F, shape: [1, 1, 2, 1], data: [323, -521] },
      { type: F, shape: [1, 3, 3, 1], data: [9, 5, 6, 9, 8, 5, 3, 1, 4] },
      { type: F, shape: [1, 3, 4, 1] },
      zeroBias,
      options({ strideH: 3, strideW: 3, fusedActivationFunction: A.RELU }),
    ).invoke();
    expect(h.outputArray()).toEqual([1615, 1938, 0, 0, 2584, 1615, 0, 0, 323, 1292, 0, 0]);
  });

  it('MultiChannelBiasWithFusedActivationTest (VALID, stride 2)', () => {
    const h = harness(
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, -3, 4] },
      { type: F, shape: [2, 3, 3, 1], data: [1, 3, 5, 7, 9, 11, 13, 15, 17, 2, 4, 6, 8, 10, 12, 14, 16, 18] },
      { type: F, shape: [1, 5, 5, 2] },
      { type: F, shape: [2, 1, 1, 1], data: [3, 4] },
      options({ padding: Padding.VALID, strideH: 2, strideW: 2, fusedActivationFunction: A.RELU }),
    ).invoke();
    expect(h.outputArray()).toEqual([
      4, 6, 6, 8, 10, 14, 9, 12, 13, 16, 10, 12, 12, 14, 28, 32, 21, 24, 25, 28, 13, 12, 9, 8, 35, 40, 45, 52, 57, 64, 0, 0, 0, 0, 0, 0, 39,
      44, 47, 52, 0, 0, 0, 0, 4, 6, 63, 68, 71, 76,
    ]);
  });

  it('SAME stride 2 with the odd padding pixel at the end (hand-checked), no bias', () => {
    const h = harness(
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] },
      { type: F, shape: [1, 3, 3, 1], data: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
      { type: F, shape: [1, 4, 4, 1] },
      null,
      options({ strideH: 2, strideW: 2 }),
    ).invoke();
    expect(h.outputArray()).toEqual([1, 1, 3, 2, 1, 1, 3, 2, 4, 4, 10, 6, 3, 3, 7, 4]);
  });

  it('accepts an empty output_shape tensor as TFLM tests pass it', () => {
    const h = harness(
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] },
      { type: F, shape: [1, 3, 3, 1], data: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
      { type: F, shape: [1, 4, 4, 1] },
      null,
      options({ strideH: 2, strideW: 2 }),
      { type: TensorType.INT32, shape: [0] },
    ).invoke();
    expect(h.outputArray()[10]).toBe(10);
  });
});

describe('TRANSPOSE_CONV int8 per-channel', () => {
  // offsets (q - zp) = 3, 0, 4, 1; filter taps 1, 2, 3, 4; scatter sums 3, 6, 0, 13, 21, 2, 12, 19, 4
  const input = { type: TensorType.INT8, shape: [1, 2, 2, 1], data: [2, -1, 3, 0], scale: 1, zeroPoint: -1 };
  const filter = { type: TensorType.INT8, shape: [1, 2, 2, 1], data: [1, 2, 3, 4], scale: [0.5], zeroPoint: [0], quantizedDimension: 0 };
  const output = { type: TensorType.INT8, shape: [1, 3, 3, 1], scale: 2, zeroPoint: 10 };

  it('computes hand-checked results (x0.25 with double rounding, zero points)', () => {
    const bias = { type: TensorType.INT32, shape: [1], data: [5] };
    const h = harness(input, filter, output, bias, options({ padding: Padding.VALID })).invoke();
    // 8, 11, 5, 18, 26, 7, 17, 24, 9 x 0.25 -> 2, 3, 2, 5, 7, 2, 5, 6, 3; + 10
    expect(h.outputArray()).toEqual([12, 13, 12, 15, 17, 12, 15, 16, 13]);
    expect(h.scratchSizes).toEqual([9 * 4]); // int32 accumulator, as TFLM requests it
    expect(h.persistentBytes).toBe(32);
  });

  it('ignores the fused activation for quantized data, as TFLM does', () => {
    const bias = { type: TensorType.INT32, shape: [1], data: [-20] };
    // -17, -14, -20, -7, 1, -18, -8, -1, -16 x 0.25 -> -4, -4, -5, -2, 1, -5, -2, 0, -4; + 10
    const expected = [6, 6, 5, 8, 11, 5, 8, 10, 6];
    expect(
      harness(input, filter, output, bias, options({ padding: Padding.VALID }))
        .invoke()
        .outputArray(),
    ).toEqual(expected);
    expect(
      harness(input, filter, output, bias, options({ padding: Padding.VALID, fusedActivationFunction: A.RELU }))
        .invoke()
        .outputArray(),
    ).toEqual(expected);
  });

  it('saturates and matches the reference on random cases', () => {
    const big = harness(
      { type: TensorType.INT8, shape: [1, 1, 1, 2], data: [127, 127], scale: 1, zeroPoint: 0 },
      { type: TensorType.INT8, shape: [2, 1, 1, 2], data: [127, 127, -127, -127], scale: [1, 1], zeroPoint: [0, 0] },
      { type: TensorType.INT8, shape: [1, 1, 1, 2], scale: 1, zeroPoint: 0 },
      null,
      options({ padding: Padding.VALID }),
    ).invoke();
    expect(big.outputArray()).toEqual([127, -128]);
    const rnd = lcg(21);
    for (const c of CASES) {
      const k = makeCase(rnd, c, TensorType.INT8);
      expect(harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray(), JSON.stringify(c)).toEqual(oracle(k));
    }
  });
});

describe('TRANSPOSE_CONV 16x8', () => {
  const input = { type: TensorType.INT16, shape: [1, 2, 2, 1], data: [3, 0, 4, 1], scale: 1, zeroPoint: 0 };
  const filter = { type: TensorType.INT8, shape: [1, 2, 2, 1], data: [1, 2, 3, 4], scale: [0.5], zeroPoint: [0], quantizedDimension: 0 };
  const output = { type: TensorType.INT16, shape: [1, 3, 3, 1], scale: 2, zeroPoint: 0 };
  // -17, -14, -20, -7, 1, -18, -8, -1, -16 x 0.25 with the 64-bit requantization: floor((x + 2) / 4)
  const expected = [-4, -3, -5, -2, 0, -4, -2, 0, -4];

  it('uses an exact int64 accumulator and an int64 bias', () => {
    const h = harness(
      input,
      filter,
      output,
      { type: TensorType.INT64, shape: [1], data: [-20n] },
      options({ padding: Padding.VALID }),
    ).invoke();
    expect(h.outputArray()).toEqual(expected);
    expect(h.scratchSizes).toEqual([9 * 8]);
  });

  it('widens an int16 bias through its own scratch buffer, as TFLM does', () => {
    const h = harness(
      input,
      filter,
      output,
      { type: TensorType.INT16, shape: [1], data: [-20] },
      options({ padding: Padding.VALID }),
    ).invoke();
    expect(h.outputArray()).toEqual(expected);
    expect(h.scratchSizes).toEqual([9 * 8, 1 * 8]);
    h.invoke(); // a second invoke gives the same result
    expect(h.outputArray()).toEqual(expected);
  });

  it('refuses an int32 bias and non-zero zero points', () => {
    expect(() =>
      harness(input, filter, output, { type: TensorType.INT32, shape: [1], data: [0] }, options({ padding: Padding.VALID })).prepare(),
    ).toThrow(/bias \(tensor 4\) type int32 is not supported with int16 input; expected int64 or int16/);
    expect(() => harness({ ...input, zeroPoint: 1 }, filter, output, null, options({ padding: Padding.VALID })).prepare()).toThrow(
      /zero point must be 0, got 1/,
    );
  });

  it('matches the reference on random cases', () => {
    const rnd = lcg(8);
    for (const c of CASES) {
      const k = makeCase(rnd, c, TensorType.INT16);
      expect(harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray(), JSON.stringify(c)).toEqual(oracle(k));
    }
  });
});

describe('TRANSPOSE_CONV float32 random cases', () => {
  it('matches the reference within float tolerance', () => {
    const rnd = lcg(4);
    for (const c of CASES) {
      const k = makeCase(rnd, c, F);
      const got = harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray();
      const want = oracle(k);
      expectFloatClose(got, want);
    }
  });
});

describe('TRANSPOSE_CONV validation', () => {
  const input = { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] };
  const filter = { type: F, shape: [1, 3, 3, 1], data: new Array(9).fill(1) };
  const output = { type: F, shape: [1, 4, 4, 1] };

  it('checks output_shape, the input/output sizes, channels and types', () => {
    expect(
      prepareError(
        harness(input, filter, output, null, options({ strideH: 2, strideW: 2 }), {
          type: TensorType.INT32,
          shape: [4],
          data: [1, 5, 5, 1],
          constant: true,
        }),
      ).message,
    ).toMatch(/TRANSPOSE_CONV \(node 0\): output_shape \(tensor 0\) is \[1, 5, 5, 1\] but the output tensor is \[1, 4, 4, 1\]/);
    expect(
      prepareError(
        harness(input, filter, output, null, options({ strideH: 2, strideW: 2 }), {
          type: TensorType.FLOAT32,
          shape: [4],
          data: [1, 4, 4, 1],
          constant: true,
        }),
      ).message,
    ).toMatch(/must be int32/);
    expect(prepareError(harness(input, filter, output, null, options({ strideH: 1, strideW: 1 }))).message).toMatch(
      /input spatial size 2x2 does not match output 4x4 .* \(expected 4x4\)/,
    );
    expect(
      prepareError(
        harness(input, { ...filter, shape: [1, 3, 3, 2], data: new Array(18).fill(1) }, output, null, options({ strideH: 2, strideW: 2 })),
      ).message,
    ).toMatch(/filter \(tensor 1\) input depth 2 differs from input depth 1/);
    expect(
      prepareError(harness(input, filter, output, { type: F, shape: [2], data: [0, 0] }, options({ strideH: 2, strideW: 2 }))).message,
    ).toMatch(/bias \(tensor 4\) has 2 elements, expected 1/);
    // float32 × int8 is TFLite's hybrid kernel; float32 × int16 is nobody's
    const hybrid = (type: TensorType) =>
      harness(input, { ...filter, type, scale: [1], zeroPoint: [0] }, output, null, options({ strideH: 2, strideW: 2 }));
    expect(hybrid(TensorType.INT8).supports()).toBe(true);
    expect(hybrid(TensorType.INT16).supports()).toBe(false);
    expect(prepareError(hybrid(TensorType.INT16)).message).toMatch(/float32\/int16/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Oracle in "gather" form: each output element sums the input elements whose filter window covers it. It
// is an independent statement of the same operation (integer sums do not depend on the order).

interface CaseShape {
  n: number;
  h: number;
  w: number;
  oh: number;
  ow: number;
  cin: number;
  cout: number;
  kh: number;
  kw: number;
  stride: [number, number];
  padding: Padding;
  act: ActivationFunctionType;
  bias: boolean;
}

const CASES: CaseShape[] = [
  { n: 1, h: 3, w: 3, oh: 6, ow: 6, cin: 2, cout: 3, kh: 3, kw: 3, stride: [2, 2], padding: Padding.SAME, act: A.NONE, bias: true },
  { n: 2, h: 2, w: 3, oh: 5, ow: 7, cin: 3, cout: 2, kh: 3, kw: 3, stride: [2, 2], padding: Padding.VALID, act: A.RELU, bias: true },
  { n: 1, h: 4, w: 4, oh: 4, ow: 4, cin: 2, cout: 2, kh: 3, kw: 2, stride: [1, 1], padding: Padding.SAME, act: A.RELU6, bias: false },
  { n: 1, h: 2, w: 2, oh: 6, ow: 4, cin: 1, cout: 4, kh: 4, kw: 3, stride: [3, 2], padding: Padding.SAME, act: A.NONE, bias: true },
  { n: 1, h: 3, w: 2, oh: 8, ow: 5, cin: 2, cout: 2, kh: 2, kw: 3, stride: [3, 2], padding: Padding.VALID, act: A.NONE, bias: true },
];

interface Case {
  type: TensorType;
  shape: CaseShape;
  options: TransposeConvOptions;
  input: HarnessTensorSpec & { data: number[] };
  filter: HarnessTensorSpec & { data: number[]; scale: number[] };
  bias: (HarnessTensorSpec & { data: number[] | bigint[] }) | null;
  output: HarnessTensorSpec & { shape: number[] };
}

function makeCase(rnd: () => number, c: CaseShape, type: TensorType): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const o = options({ padding: c.padding, strideH: c.stride[0], strideW: c.stride[1], fusedActivationFunction: c.act });
  const inShape = [c.n, c.h, c.w, c.cin];
  const fShape = [c.cout, c.kh, c.kw, c.cin];
  const outShape = [c.n, c.oh, c.ow, c.cout];
  const inCount = c.n * c.h * c.w * c.cin;
  const fCount = c.cout * c.kh * c.kw * c.cin;
  if (type === F) {
    const f = () => Math.fround(rnd() * 2 - 1);
    return {
      type,
      shape: c,
      options: o,
      input: { type, shape: inShape, data: Array.from({ length: inCount }, f) },
      filter: { type, shape: fShape, data: Array.from({ length: fCount }, f), scale: [] },
      bias: c.bias ? { type, shape: [c.cout], data: Array.from({ length: c.cout }, f) } : null,
      output: { type, shape: outShape },
    };
  }
  const i16 = type === TensorType.INT16;
  const scales = Array.from({ length: c.cout }, () => Math.fround(0.002 + rnd() * 0.05));
  const biasValues = Array.from({ length: c.cout }, () => int(-2000, 2000) * (i16 ? 30 : 1));
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
      quantizedDimension: 0,
    },
    bias: c.bias
      ? i16
        ? { type: TensorType.INT64, shape: [c.cout], data: biasValues.map(BigInt) }
        : { type: TensorType.INT32, shape: [c.cout], data: biasValues }
      : null,
    output: { type, shape: outShape, scale: Math.fround(i16 ? 0.002 : 0.08), zeroPoint: i16 ? 0 : int(-10, 10) },
  };
}

function oracle(k: Case): number[] {
  const c = k.shape;
  const pad = computePaddingHeightWidth(c.stride[0], c.stride[1], 1, 1, c.oh, c.ow, c.kh, c.kw, c.padding);
  const isFloat = k.type === F;
  const i16 = k.type === TensorType.INT16;
  const inOff = isFloat || i16 ? 0 : -(k.input.zeroPoint as number);
  const outZp = isFloat || i16 ? 0 : (k.output.zeroPoint as number);
  // quantized transpose conv clamps to the type range only (TFLM passes kTfLiteActNone)
  const [lo, hi] = isFloat
    ? c.act === A.RELU
      ? [0, Infinity]
      : c.act === A.RELU6
        ? [0, 6]
        : [-Infinity, Infinity]
    : i16
      ? [-32768, 32767]
      : [-128, 127];
  const out: number[] = [];
  for (let b = 0; b < c.n; b++)
    for (let oy = 0; oy < c.oh; oy++)
      for (let ox = 0; ox < c.ow; ox++)
        for (let oc = 0; oc < c.cout; oc++) {
          let acc = 0;
          for (let iy = 0; iy < c.h; iy++)
            for (let ix = 0; ix < c.w; ix++) {
              const fy = oy - (iy * c.stride[0] - pad.height);
              const fx = ox - (ix * c.stride[1] - pad.width);
              if (fy < 0 || fy >= c.kh || fx < 0 || fx >= c.kw) continue;
              for (let ic = 0; ic < c.cin; ic++) {
                const xv = k.input.data[((b * c.h + iy) * c.w + ix) * c.cin + ic]!;
                const fv = k.filter.data[((oc * c.kh + fy) * c.kw + fx) * c.cin + ic]!;
                acc += (xv + inOff) * fv;
              }
            }
          if (isFloat) {
            out.push(Math.min(Math.max(acc + (k.bias ? (k.bias.data[oc] as number) : 0), lo), hi));
            continue;
          }
          const { multiplier, shift } = quantizeMultiplier(((k.input.scale as number) * k.filter.scale[oc]!) / (k.output.scale as number));
          let scaled: number;
          if (i16) {
            scaled = multiplyByQuantizedMultiplierInt64(acc + (k.bias ? Number(k.bias.data[oc]) : 0), multiplier, shift);
          } else {
            acc |= 0;
            if (k.bias) acc = (acc + (k.bias.data[oc] as number)) | 0;
            scaled = multiplyByQuantizedMultiplier(acc, multiplier, shift) + outZp;
          }
          out.push(Math.min(Math.max(scaled, lo), hi));
        }
  return out;
}
