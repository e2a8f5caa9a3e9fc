import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  Padding,
  TensorType,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierInt64,
  quantizeMultiplier,
  type Conv2DOptions,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { CONV_2D } from './conv-2d.js';
import { expectFloatClose, lcg, prepareError } from './__fixtures__/conv-testing.js';
import { computePaddingHeightWidth } from '@micrort/kernel-support';

const A = ActivationFunctionType;

function options(o: Partial<Conv2DOptions> = {}): Conv2DOptions {
  return {
    padding: Padding.VALID,
    strideW: 1,
    strideH: 1,
    fusedActivationFunction: A.NONE,
    dilationWFactor: 1,
    dilationHFactor: 1,
    quantizedBiasType: 0,
    ...o,
  };
}

/** Tensors: 0 input, 1 filter, 2 output, 3 bias (optional). */
function harness(
  input: HarnessTensorSpec,
  filter: HarnessTensorSpec,
  output: HarnessTensorSpec,
  bias: HarnessTensorSpec | null,
  o: Conv2DOptions,
): KernelHarness {
  const tensors = [input, { ...filter, constant: true }, output];
  if (bias) tensors.push({ ...bias, constant: true });
  return new KernelHarness({ registration: CONV_2D, tensors, inputs: bias ? [0, 1, 3] : [0, 1], outputs: [2], builtinData: o });
}

describe('CONV_2D float32', () => {
  // TFLM conv_test.cc SimpleTestFloat: [2,2,4,1] input, 3 filters 2x2, stride 2 VALID.
  const input = { type: TensorType.FLOAT32, shape: [2, 2, 4, 1], data: [1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 3, 4, 1, 2, 3, 4] };
  const filter = { type: TensorType.FLOAT32, shape: [3, 2, 2, 1], data: [1, 2, 3, 4, -1, 1, -1, 1, -1, -1, 1, 1] };
  const bias = { type: TensorType.FLOAT32, shape: [3], data: [1, 2, 3] };
  const output = { type: TensorType.FLOAT32, shape: [2, 1, 2, 3] };

  it('matches TFLM SimpleTestFloat', () => {
    const h = harness(input, filter, output, bias, options({ strideH: 2, strideW: 2 })).invoke();
    expect(h.outputArray()).toEqual([18, 2, 5, 18, 2, 5, 17, 4, 3, 37, 4, 3]);
    // two arrays of 3 int32, each 16-byte aligned, as TFLM allocates them even for float
    expect(h.persistentBytes).toBe(32);
    expect(h.scratchSizes).toEqual([]);
  });

  it('applies RELU6 and runs without bias', () => {
    const h = harness(input, filter, output, bias, options({ strideH: 2, strideW: 2, fusedActivationFunction: A.RELU6 })).invoke();
    expect(h.outputArray()).toEqual([6, 2, 5, 6, 2, 5, 6, 4, 3, 6, 4, 3]);
    const nb = harness(input, filter, output, null, options({ strideH: 2, strideW: 2, fusedActivationFunction: A.RELU_N1_TO_1 })).invoke();
    expect(nb.outputArray()).toEqual([1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0]);
  });

  it('matches TFLM InputAndFilterSameWidthHeight', () => {
    const f = { type: TensorType.FLOAT32, shape: [1, 2, 4, 1], data: [1, 2, 3, 4, -1, -1, 1, 1] };
    const h = harness(
      input,
      f,
      { type: TensorType.FLOAT32, shape: [2, 1, 1, 1] },
      { type: TensorType.FLOAT32, shape: [1], data: [0] },
      options({ strideH: 2, strideW: 2 }),
    ).invoke();
    expect(h.outputArray()).toEqual([10, 34]);
  });

  it('pads SAME with stride 2 (hand-checked)', () => {
    const h = harness(
      { type: TensorType.FLOAT32, shape: [1, 3, 3, 1], data: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      { type: TensorType.FLOAT32, shape: [1, 3, 3, 1], data: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
      { type: TensorType.FLOAT32, shape: [1, 2, 2, 1] },
      null,
      options({ padding: Padding.SAME, strideH: 2, strideW: 2 }),
    ).invoke();
    expect(h.outputArray()).toEqual([12, 16, 24, 28]);
  });

  it('dilates by 2 (hand-checked)', () => {
    const h = harness(
      { type: TensorType.FLOAT32, shape: [1, 5, 5, 1], data: Array.from({ length: 25 }, (_, i) => i + 1) },
      { type: TensorType.FLOAT32, shape: [1, 2, 2, 1], data: [1, 1, 1, 1] },
      { type: TensorType.FLOAT32, shape: [1, 3, 3, 1] },
      null,
      options({ dilationHFactor: 2, dilationWFactor: 2 }),
    ).invoke();
    // out(y, x) = in(y,x) + in(y,x+2) + in(y+2,x) + in(y+2,x+2), in(y, x) = 5y + x + 1
    expect(h.outputArray()).toEqual([28, 32, 36, 48, 52, 56, 68, 72, 76]);
  });

  it('clamps an overflowed float32 sum to FLT_MAX as TFLM does (activation NONE)', () => {
    const h = harness(
      { type: TensorType.FLOAT32, shape: [1, 1, 1, 2], data: [3e38, -3e38] },
      { type: TensorType.FLOAT32, shape: [2, 1, 1, 2], data: [2, 0, 0, 2] },
      { type: TensorType.FLOAT32, shape: [1, 1, 1, 2] },
      null,
      options(),
    ).invoke();
    expect(h.outputArray()).toEqual([Math.fround(3.4028234663852886e38), -Math.fround(3.4028234663852886e38)]);
  });

  it('runs grouped convolution (filter depth = input depth / groups)', () => {
    const h = harness(
      { type: TensorType.FLOAT32, shape: [1, 1, 1, 4], data: [1, 2, 3, 4] },
      { type: TensorType.FLOAT32, shape: [2, 1, 1, 2], data: [1, 10, 100, 1000] },
      { type: TensorType.FLOAT32, shape: [1, 1, 1, 2] },
      null,
      options(),
    ).invoke();
    expect(h.outputArray()).toEqual([21, 4300]);
  });
});

describe('CONV_2D int8 per-channel', () => {
  // Scales are powers of two so the requantization is a rounded shift: ch0 x0.125, ch1 x0.25.
  const input = { type: TensorType.INT8, shape: [1, 3, 3, 1], data: [1, 2, 3, 4, 5, 6, 7, 8, 9], scale: 0.5, zeroPoint: -1 };
  const filter = {
    type: TensorType.INT8,
    shape: [2, 2, 2, 1],
    data: [1, 0, 0, 1, 2, -1, 0, 1],
    scale: [0.25, 0.5],
    zeroPoint: [0, 0],
    quantizedDimension: 0,
  };
  const bias = { type: TensorType.INT32, shape: [2], data: [8, -4] };
  const output = { type: TensorType.INT8, shape: [1, 2, 2, 2], scale: 1, zeroPoint: 3 };

  it('computes a hand-checked per-channel result with zero points and rounding', () => {
    const h = harness(input, filter, output, bias, options()).invoke();
    // ch0 acc+bias = 16, 18, 22, 24 -> x0.125 = 2, 2.25, 2.75, 3 -> 2, 2, 3, 3
    // ch1 acc+bias = 3, 5, 9, 11 -> x0.25 with TFLM's double rounding: the high-mul rounds x/2 first
    // (1.5 -> 2, 2.5 -> 3, 4.5 -> 5, 5.5 -> 6), then the shift rounds again: 1, 2, 3, 3; + zero point 3
    expect(h.outputArray()).toEqual([5, 4, 5, 5, 6, 6, 6, 6]);
    expect(h.persistentBytes).toBe(32);
  });

  it('clamps to the fused activation range in the quantized domain', () => {
    // RELU with output zero point 3 keeps values >= 3; all are already >= 3 here, so use a negative bias
    const b = { ...bias, data: [-40, -40] };
    const h = harness(input, filter, output, b, options({ fusedActivationFunction: A.RELU })).invoke();
    expect(h.outputArray()).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    const n = harness(input, filter, output, b, options()).invoke();
    // ch0 acc+bias = -32, -30, -26, -24 -> x0.125 = -4, -3.75, -3.25, -3 -> -4, -4, -3, -3
    // ch1 acc+bias = -33, -31, -27, -25 -> x0.25 = -8.25, -7.75, -6.75, -6.25 -> -8, -8, -7, -6; then + zero point 3
    expect(n.outputArray()).toEqual([-1, -5, -1, -5, 0, -4, 0, -3]);
  });

  it('saturates at the int8 limits', () => {
    const big = { type: TensorType.INT8, shape: [1, 1, 1, 4], data: [127, 127, 127, 127], scale: 1, zeroPoint: 0 };
    const f = {
      type: TensorType.INT8,
      shape: [2, 1, 1, 4],
      data: [127, 127, 127, 127, -128, -128, -128, -128],
      scale: [1, 1],
      zeroPoint: [0, 0],
    };
    const h = harness(big, f, { type: TensorType.INT8, shape: [1, 1, 1, 2], scale: 1, zeroPoint: 0 }, null, options()).invoke();
    expect(h.outputArray()).toEqual([127, -128]);
  });

  it('matches the TFLM reference algorithm on random cases (SAME/VALID, stride, dilation, groups, batches)', () => {
    const rnd = lcg(42);
    for (const c of CASES) {
      const k = makeCase(rnd, c, TensorType.INT8);
      const h = harness(k.input, k.filter, k.output, k.bias, k.options).invoke();
      expect(h.outputArray(), JSON.stringify(c)).toEqual(oracle(k));
    }
  });
});

describe('CONV_2D 16x8', () => {
  const input = { type: TensorType.INT16, shape: [1, 1, 2, 3], data: [1000, -2000, 30000, 32767, 32767, 32767], scale: 1, zeroPoint: 0 };
  const filter = { type: TensorType.INT8, shape: [1, 1, 1, 3], data: [100, 50, -2], scale: 0.5, zeroPoint: 0 };
  const output = { type: TensorType.INT16, shape: [1, 1, 2, 1], scale: 1, zeroPoint: 0 };

  it('uses the int64 accumulator and 64-bit requantization with an int64 bias', () => {
    const bias = { type: TensorType.INT64, shape: [1], data: [-1001n] };
    const h = harness(input, filter, output, bias, options()).invoke();
    // pixel 0: 100000 - 100000 - 60000 - 1001 = -61001 -> (x * 2^14 + 2^14) >> 15 = -30500
    // pixel 1: 32767 * 148 - 1001 = 4848515 -> 2424258 -> saturates at 32767
    expect(h.outputArray()).toEqual([-30500, 32767]);
  });

  it('uses the int32 accumulator with an int32 bias or none', () => {
    const bias = { type: TensorType.INT32, shape: [1], data: [-999] };
    const h = harness(input, filter, output, bias, options()).invoke();
    // -60999 * 0.5 = -30499.5: SaturatingRoundingDoublingHighMul rounds the negative tie toward zero
    expect(h.outputArray()).toEqual([-30499, 32767]);
    const nb = harness(input, filter, output, null, options()).invoke();
    expect(nb.outputArray()).toEqual([-30000, 32767]);
  });

  it('matches the TFLM reference algorithm on random cases', () => {
    const rnd = lcg(7);
    for (const c of CASES) {
      for (const biasType of [TensorType.INT64, TensorType.INT32]) {
        const k = makeCase(rnd, c, TensorType.INT16, biasType);
        const h = harness(k.input, k.filter, k.output, k.bias, k.options).invoke();
        expect(h.outputArray(), JSON.stringify(c)).toEqual(oracle(k));
      }
    }
  });
});

describe('CONV_2D float32 random cases', () => {
  it('matches the reference algorithm within float tolerance', () => {
    const rnd = lcg(3);
    for (const c of CASES) {
      const k = makeCase(rnd, c, TensorType.FLOAT32);
      const got = harness(k.input, k.filter, k.output, k.bias, k.options).invoke().outputArray();
      const want = oracle(k);
      expectFloatClose(got, want);
    }
  });
});

describe('CONV_2D validation', () => {
  const input = { type: TensorType.INT8, shape: [1, 3, 3, 2], data: new Array(18).fill(1), scale: 0.5, zeroPoint: 0 };
  const filter = { type: TensorType.INT8, shape: [2, 2, 2, 2], data: new Array(16).fill(1), scale: [0.5, 0.5], zeroPoint: [0, 0] };
  const output = { type: TensorType.INT8, shape: [1, 2, 2, 2], scale: 1, zeroPoint: 0 };
  const bias = { type: TensorType.INT32, shape: [2], data: [0, 0] };

  it('accepts the valid node', () => {
    expect(() => harness(input, filter, output, bias, options()).invoke()).not.toThrow();
  });

  it('refuses types no kernel takes, and mismatched types, in supports() and prepare()', () => {
    // float32 × int8 is TFLite's hybrid kernel (conv-hybrid.ts); float32 × int16 is nobody's.
    const hybrid = harness({ ...input, type: TensorType.FLOAT32 }, filter, { ...output, type: TensorType.FLOAT32 }, null, options());
    expect(hybrid.supports()).toBe(true);
    const h = harness(
      { ...input, type: TensorType.FLOAT32 },
      { ...filter, type: TensorType.INT16 },
      { ...output, type: TensorType.FLOAT32 },
      null,
      options(),
    );
    expect(h.supports()).toBe(false);
    expect(prepareError(h).detail).toMatch(/float32\/int16/);
    const m = harness(input, filter, { ...output, type: TensorType.INT16 }, bias, options());
    expect(m.supports()).toBe(false);
    expect(harness(input, filter, output, bias, options()).supports()).toBe(true);
  });

  it('names the wrong output shape, scale count, bias and zero points', () => {
    expect(prepareError(harness(input, filter, { ...output, shape: [1, 3, 3, 2] }, bias, options())).detail).toMatch(
      /output \(tensor 2\) spatial size 3x3 does not match 2x2/,
    );
    expect(
      prepareError(harness(input, { ...filter, scale: [0.5, 0.5, 0.5], zeroPoint: [0, 0, 0] }, output, bias, options())).detail,
    ).toMatch(/3 scales, expected 1 or 2/);
    expect(prepareError(harness(input, filter, output, { ...bias, type: TensorType.INT64, data: [0n, 0n] }, options())).detail).toMatch(
      /bias \(tensor 3\) type int64/,
    );
    expect(prepareError(harness(input, filter, output, { ...bias, shape: [3], data: [0, 0, 0] }, options())).detail).toMatch(
      /3 elements, expected 2/,
    );
    expect(prepareError(harness(input, { ...filter, zeroPoint: [0, 1] }, output, bias, options())).detail).toMatch(/zero point 1 is 1/);
    expect(prepareError(harness(input, filter, output, bias, options({ strideH: 0 }))).detail).toMatch(/stride_h must be an integer >= 1/);
    expect(prepareError(harness(input, filter, output, bias, options({ fusedActivationFunction: A.TANH }))).detail).toMatch(
      /unsupported fused activation TANH/,
    );
    const e = prepareError(harness(input, { ...filter, shape: [2, 2, 2, 3], data: new Array(24).fill(1) }, output, bias, options()));
    expect(e.detail).toMatch(/input depth 2 is not a multiple of the filter input depth 3/);
    expect(e.op).toBe('CONV_2D');
    expect(e.nodeIndex).toBe(0);
  });

  it('requires zero points of 0 for int16 activations', () => {
    const i16 = { ...input, type: TensorType.INT16, zeroPoint: 5 };
    const o16 = { ...output, type: TensorType.INT16 };
    expect(prepareError(harness(i16, filter, o16, null, options())).detail).toMatch(/input \(tensor 0\) zero point must be 0, got 5/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Reference algorithm, written as TFLM's reference kernels state it (bounds test per filter tap), used as
// an oracle for random cases.

interface CaseShape {
  n: number;
  h: number;
  w: number;
  cin: number;
  cout: number;
  kh: number;
  kw: number;
  groups: number;
  stride: [number, number];
  dilation: [number, number];
  padding: Padding;
  act: ActivationFunctionType;
  bias: boolean;
}

const CASES: CaseShape[] = [
  {
    n: 1,
    h: 5,
    w: 5,
    cin: 3,
    cout: 4,
    kh: 3,
    kw: 3,
    groups: 1,
    stride: [1, 1],
    dilation: [1, 1],
    padding: Padding.SAME,
    act: A.NONE,
    bias: true,
  },
  {
    n: 2,
    h: 7,
    w: 6,
    cin: 2,
    cout: 3,
    kh: 3,
    kw: 2,
    groups: 1,
    stride: [2, 2],
    dilation: [1, 1],
    padding: Padding.SAME,
    act: A.RELU,
    bias: true,
  },
  {
    n: 1,
    h: 8,
    w: 7,
    cin: 4,
    cout: 2,
    kh: 3,
    kw: 3,
    groups: 1,
    stride: [2, 1],
    dilation: [1, 1],
    padding: Padding.VALID,
    act: A.RELU6,
    bias: false,
  },
  {
    n: 1,
    h: 9,
    w: 9,
    cin: 2,
    cout: 2,
    kh: 3,
    kw: 3,
    groups: 1,
    stride: [1, 1],
    dilation: [2, 2],
    padding: Padding.SAME,
    act: A.NONE,
    bias: true,
  },
  {
    n: 1,
    h: 9,
    w: 8,
    cin: 3,
    cout: 3,
    kh: 2,
    kw: 3,
    groups: 1,
    stride: [2, 2],
    dilation: [2, 3],
    padding: Padding.VALID,
    act: A.NONE,
    bias: true,
  },
  {
    n: 1,
    h: 6,
    w: 6,
    cin: 4,
    cout: 6,
    kh: 3,
    kw: 3,
    groups: 2,
    stride: [1, 2],
    dilation: [1, 1],
    padding: Padding.SAME,
    act: A.RELU_N1_TO_1,
    bias: true,
  },
  {
    n: 1,
    h: 4,
    w: 4,
    cin: 8,
    cout: 5,
    kh: 1,
    kw: 1,
    groups: 1,
    stride: [1, 1],
    dilation: [1, 1],
    padding: Padding.VALID,
    act: A.NONE,
    bias: true,
  },
];

interface Case {
  type: TensorType;
  shape: CaseShape;
  options: Conv2DOptions;
  input: HarnessTensorSpec & { data: number[] };
  filter: HarnessTensorSpec & { data: number[]; scale: number[] };
  bias: (HarnessTensorSpec & { data: number[] | bigint[] }) | null;
  output: HarnessTensorSpec & { shape: number[] };
}

function makeCase(rnd: () => number, c: CaseShape, type: TensorType, biasType = TensorType.INT32): Case {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const options_ = options({
    padding: c.padding,
    strideH: c.stride[0],
    strideW: c.stride[1],
    dilationHFactor: c.dilation[0],
    dilationWFactor: c.dilation[1],
    fusedActivationFunction: c.act,
  });
  const pad = computePaddingHeightWidth(c.stride[0], c.stride[1], c.dilation[0], c.dilation[1], c.h, c.w, c.kh, c.kw, c.padding);
  const inCount = c.n * c.h * c.w * c.cin;
  const fCount = c.cout * c.kh * c.kw * (c.cin / c.groups);
  const outShape = [c.n, pad.outHeight, pad.outWidth, c.cout];
  const fShape = [c.cout, c.kh, c.kw, c.cin / c.groups];
  if (type === TensorType.FLOAT32) {
    const f = () => Math.fround(rnd() * 2 - 1);
    return {
      type,
      shape: c,
      options: options_,
      input: { type, shape: [c.n, c.h, c.w, c.cin], data: Array.from({ length: inCount }, f) },
      filter: { type, shape: fShape, data: Array.from({ length: fCount }, f), scale: [] },
      bias: c.bias ? { type, shape: [c.cout], data: Array.from({ length: c.cout }, f) } : null,
      output: { type, shape: outShape },
    };
  }
  const i16 = type === TensorType.INT16;
  const scales = Array.from({ length: c.cout }, () => Math.fround(0.002 + rnd() * 0.02));
  const inScale = Math.fround(i16 ? 0.0005 : 0.05);
  const outScale = Math.fround(i16 ? 0.002 : 0.1);
  const inZp = i16 ? 0 : int(-20, 20);
  const outZp = i16 ? 0 : int(-10, 10);
  const biasValues = Array.from({ length: c.cout }, () => int(-3000, 3000) * (i16 ? 50 : 1));
  return {
    type,
    shape: c,
    options: options_,
    input: {
      type,
      shape: [c.n, c.h, c.w, c.cin],
      data: Array.from({ length: inCount }, () => (i16 ? int(-32768, 32767) : int(-128, 127))),
      scale: inScale,
      zeroPoint: inZp,
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
      ? biasType === TensorType.INT64
        ? { type: biasType, shape: [c.cout], data: biasValues.map(BigInt) }
        : { type: biasType, shape: [c.cout], data: biasValues }
      : null,
    output: { type, shape: outShape, scale: outScale, zeroPoint: outZp },
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
  const [, oh, ow] = k.output.shape as [number, number, number, number];
  const pad = computePaddingHeightWidth(c.stride[0], c.stride[1], c.dilation[0], c.dilation[1], c.h, c.w, c.kh, c.kw, c.padding);
  const fdepth = c.cin / c.groups;
  const perGroup = c.cout / c.groups;
  const x = k.input.data;
  const f = k.filter.data;
  const isFloat = k.type === TensorType.FLOAT32;
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
  const out: number[] = [];
  for (let b = 0; b < c.n; b++)
    for (let oy = 0; oy < oh; oy++)
      for (let ox = 0; ox < ow; ox++)
        for (let oc = 0; oc < c.cout; oc++) {
          const group = Math.floor(oc / perGroup);
          let acc = 0;
          for (let fy = 0; fy < c.kh; fy++)
            for (let fx = 0; fx < c.kw; fx++) {
              const iy = oy * c.stride[0] - pad.height + c.dilation[0] * fy;
              const ix = ox * c.stride[1] - pad.width + c.dilation[1] * fx;
              if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
              for (let ic = 0; ic < fdepth; ic++) {
                const xv = x[((b * c.h + iy) * c.w + ix) * c.cin + ic + group * fdepth]!;
                const fv = f[((oc * c.kh + fy) * c.kw + fx) * fdepth + ic]!;
                acc = isFloat ? Math.fround(acc + Math.fround(xv * fv)) : acc + fv * (xv + inOff);
              }
            }
          if (isFloat) {
            const v = Math.fround(acc + (k.bias ? (k.bias.data[oc] as number) : 0));
            out.push(Math.min(Math.max(v, lo), hi));
            continue;
          }
          const { multiplier, shift } = quantizeMultiplier(((k.input.scale as number) * k.filter.scale[oc]!) / (k.output.scale as number));
          let scaled: number;
          if (i16 && k.bias && k.bias.type === TensorType.INT64) {
            scaled = multiplyByQuantizedMultiplierInt64(acc + Number(k.bias.data[oc]), multiplier, shift);
          } else {
            acc = acc | 0;
            if (k.bias) acc = (acc + (k.bias.data[oc] as number)) | 0;
            scaled = multiplyByQuantizedMultiplier(acc, multiplier, shift) + outZp;
          }
          out.push(Math.min(Math.max(scaled, lo), hi));
        }
  return out;
}

describe('CONV_2D uint8 (TFLite legacy asymmetric uint8, reference_ops::Conv)', () => {
  // x - 128 = [2, 0, -2, 4]; f - 128 = [1, -1, 0, 2]: acc = 2 + 0 + 0 + 8 = 10; bias scale 0.5 * 0.25; multiplier 0.125
  const input = { type: TensorType.UINT8, shape: [1, 2, 2, 1], data: [130, 128, 126, 132], scale: 0.5, zeroPoint: 128 };
  const filter = { type: TensorType.UINT8, shape: [1, 2, 2, 1], data: [129, 127, 128, 130], scale: 0.25, zeroPoint: 128 };
  const output = { type: TensorType.UINT8, shape: [1, 1, 1, 1], scale: 1, zeroPoint: 100 };
  const bias = (v: number) => ({ type: TensorType.INT32, shape: [1], data: [v], scale: 0.125, zeroPoint: 0 });

  it('subtracts both zero points, adds the bias, requantizes with rounding half away from zero', () => {
    expect(harness(input, filter, output, bias(6), options()).invoke().outputArray()).toEqual([102]); // 16 / 8 = 2
    expect(harness(input, filter, output, bias(10), options()).invoke().outputArray()).toEqual([103]); // 20 / 8 = 2.5 → 3
    expect(harness(input, filter, output, bias(-31), options()).invoke().outputArray()).toEqual([97]); // -21 / 8 = -2.625 → -3
    expect(harness(input, filter, output, null, options()).invoke().outputArray()).toEqual([101]); // 10 / 8 = 1.25 → 1
    // RELU clamps at the zero point; saturation at 255
    expect(
      harness(input, filter, output, bias(-200), options({ fusedActivationFunction: A.RELU }))
        .invoke()
        .outputArray(),
    ).toEqual([100]);
    expect(harness(input, filter, output, bias(5000), options()).invoke().outputArray()).toEqual([255]);
  });

  it('matches a direct transcription of the reference loop on random cases (padding, stride, dilation, groups)', () => {
    const next = lcg(99);
    for (let t = 0; t < 12; t++) {
      const [h, w, cin, groups] = [3 + (t % 4), 4 + (t % 3), 2 * (1 + (t % 2)), t % 3 === 2 ? 2 : 1];
      const cout = 2 * (1 + (t % 3));
      const [kh, kw, stride, dil] = [1 + (t % 3), 2, 1 + (t % 2), t % 4 === 3 ? 2 : 1];
      const padding = t % 2 ? Padding.SAME : Padding.VALID;
      const pad = computePaddingHeightWidth(stride, stride, dil, dil, h, w, kh, kw, padding);
      if (pad.outHeight < 1 || pad.outWidth < 1) continue;
      const fd = cin / groups;
      const x = Array.from({ length: h * w * cin }, () => Math.floor(next() * 256));
      const f = Array.from({ length: cout * kh * kw * fd }, () => Math.floor(next() * 256));
      const b = Array.from({ length: cout }, () => Math.floor((next() - 0.5) * 4000));
      const [zi, zf, zo] = [Math.floor(next() * 256), Math.floor(next() * 256), Math.floor(next() * 256)];
      const [si, sf, so] = [0.05, 0.01, 0.5 + next()];
      const out = harness(
        { type: TensorType.UINT8, shape: [1, h, w, cin], data: x, scale: si, zeroPoint: zi },
        { type: TensorType.UINT8, shape: [cout, kh, kw, fd], data: f, scale: sf, zeroPoint: zf },
        { type: TensorType.UINT8, shape: [1, pad.outHeight, pad.outWidth, cout], scale: so, zeroPoint: zo },
        { type: TensorType.INT32, shape: [cout], data: b, scale: Math.fround(si * sf), zeroPoint: 0 },
        options({ padding, strideH: stride, strideW: stride, dilationHFactor: dil, dilationWFactor: dil }),
      )
        .invoke()
        .outputArray();
      const q = quantizeMultiplier(Math.fround(si * sf) / Math.fround(so));
      const want: number[] = [];
      for (let oy = 0; oy < pad.outHeight; oy++)
        for (let ox = 0; ox < pad.outWidth; ox++)
          for (let oc = 0; oc < cout; oc++) {
            const g = Math.floor(oc / (cout / groups));
            let acc = 0;
            for (let fy = 0; fy < kh; fy++)
              for (let fx = 0; fx < kw; fx++)
                for (let ic = 0; ic < fd; ic++) {
                  const iy = oy * stride - pad.height + dil * fy;
                  const ix = ox * stride - pad.width + dil * fx;
                  if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                  acc += (f[((oc * kh + fy) * kw + fx) * fd + ic]! - zf) * (x[(iy * w + ix) * cin + g * fd + ic]! - zi);
                }
            want.push(Math.min(255, Math.max(0, multiplyByQuantizedMultiplier(acc + b[oc]!, q.multiplier, q.shift) + zo)));
          }
      expect(out).toEqual(want);
    }
  });

  it('refuses per-channel uint8 filters, a bias whose scale is not input × filter scale, and mixed types', () => {
    const perChannel = { ...filter, shape: [2, 2, 2, 1], data: [1, 2, 3, 4, 5, 6, 7, 8], scale: [0.25, 0.5], zeroPoint: [128, 128] };
    const out2 = { ...output, shape: [1, 1, 1, 2] };
    expect(prepareError(harness(input, perChannel, out2, null, options())).message).toMatch(/filter \(tensor 1\) is uint8 with 2 scales/);
    expect(prepareError(harness(input, filter, output, { ...bias(1), scale: 0.1 }, options())).message).toMatch(
      /bias \(tensor 3\) scale 0\.1\d* must equal input scale \* filter scale = 0\.125/,
    );
    expect(
      prepareError(harness(input, { ...filter, type: TensorType.INT8, data: [1, -1, 0, 2], zeroPoint: 0 }, output, null, options()))
        .message,
    ).toMatch(/uint8\/int8/);
  });
});
