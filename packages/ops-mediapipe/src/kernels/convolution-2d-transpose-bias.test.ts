import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, KernelError, Padding, TensorType, type TransposeConvOptions } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { referenceKernels } from '@micrort/ops-reference';
import { CONVOLUTION_2D_TRANSPOSE_BIAS, transposeConvBiasOptions } from './convolution-2d-transpose-bias.js';

const F = TensorType.FLOAT32;
const TRANSPOSE_CONV = referenceKernels.find((r) => r.builtinCode === BuiltinOperator.TRANSPOSE_CONV)!;

/** Tensors: 0 input, 1 weights, 2 bias, 3 output. */
function harness(
  input: HarnessTensorSpec,
  weights: HarnessTensorSpec,
  bias: HarnessTensorSpec,
  outShape: number[],
  options: Uint8Array | null,
) {
  return new KernelHarness({
    registration: CONVOLUTION_2D_TRANSPOSE_BIAS,
    tensors: [input, { ...weights, constant: true }, { ...bias, constant: true }, { type: F, shape: outShape }],
    inputs: [0, 1, 2],
    outputs: [3],
    customInitialData: options,
  });
}

/** Deterministic values in [-1, 1), with float32-exact steps. */
function values(n: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s >>> 8) / 2 ** 24) * 2 - 1;
  });
}

describe('Convolution2DTransposeBias', () => {
  it('stride 2, VALID, 2x2 filter: each input pixel stamps its own block, plus the bias (hand-computed)', () => {
    const h = harness(
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] },
      { type: F, shape: [1, 2, 2, 1], data: [1, 10, 100, 1000] },
      { type: F, shape: [1], data: [0.5] },
      [1, 4, 4, 1],
      transposeConvBiasOptions('VALID', 2, 2),
    ).invoke();
    // block of x = x * [[1, 10], [100, 1000]] at (2·iy, 2·ix)
    expect(h.outputArray()).toEqual([
      1.5, 10.5, 2.5, 20.5, 100.5, 1000.5, 200.5, 2000.5, 3.5, 30.5, 4.5, 40.5, 300.5, 3000.5, 400.5, 4000.5,
    ]);
  });

  it('stride 1, SAME, 3x3 filter, 2 input channels (TFLM transpose_conv_test SimpleTestFloat values, bias 0)', () => {
    const h = harness(
      { type: F, shape: [1, 4, 4, 2], data: Array.from({ length: 32 }, (_, i) => i + 1) },
      { type: F, shape: [1, 3, 3, 2], data: Array.from({ length: 18 }, (_, i) => i + 1) },
      { type: F, shape: [1], data: [0] },
      [1, 4, 4, 1],
      transposeConvBiasOptions('SAME', 1, 1),
    ).invoke();
    expect(h.outputArray()).toEqual([184, 412, 568, 528, 678, 1347, 1689, 1434, 1494, 2715, 3057, 2442, 1968, 3352, 3652, 2760]);
  });

  it('adds a per-channel bias with 2 output channels (hand-computed)', () => {
    // input 1x1x1x2 = (1, 2); weights [2, 1, 1, 2]: channel 0 = (3, 4), channel 1 = (5, -6); bias (10, 20)
    const h = harness(
      { type: F, shape: [1, 1, 1, 2], data: [1, 2] },
      { type: F, shape: [2, 1, 1, 2], data: [3, 4, 5, -6] },
      { type: F, shape: [2], data: [10, 20] },
      [1, 1, 1, 2],
      transposeConvBiasOptions('VALID', 1, 1),
    ).invoke();
    expect(h.outputArray()).toEqual([10 + 3 + 8, 20 + 5 - 12]);
  });

  it('SAME padding pads by floor(total / 2): 3x3 filter, stride 2 crops the last row and column', () => {
    // in 2x2, filter 3, stride 2: total pad = max(0, 3 - 1 % 2 - 1) = 1, pad 0, out = 2·1 + 3 - 1 = 4
    const h = harness(
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] },
      { type: F, shape: [1, 3, 3, 1], data: [1, 1, 1, 1, 1, 1, 1, 1, 1] },
      { type: F, shape: [1], data: [0] },
      [1, 4, 4, 1],
      transposeConvBiasOptions('SAME', 2, 2),
    ).invoke();
    // each input pixel covers a 3x3 block at (2·iy, 2·ix); overlaps add; the block of (1, 1) loses its third row/column
    expect(h.outputArray()).toEqual([1, 1, 3, 2, 1, 1, 3, 2, 4, 4, 10, 6, 3, 3, 7, 4]);
  });

  it('matches ops-reference TRANSPOSE_CONV + bias on the same weights (float32 tolerance)', () => {
    const cases = [
      { n: 1, h: 5, w: 4, cin: 3, cout: 2, k: [3, 3], s: [1, 1], pad: 'SAME' as const },
      { n: 2, h: 4, w: 4, cin: 4, cout: 3, k: [2, 2], s: [2, 2], pad: 'SAME' as const },
      { n: 1, h: 3, w: 5, cin: 2, cout: 4, k: [4, 4], s: [2, 2], pad: 'SAME' as const },
      { n: 1, h: 3, w: 3, cin: 5, cout: 1, k: [3, 2], s: [3, 2], pad: 'VALID' as const },
      { n: 1, h: 6, w: 2, cin: 1, cout: 3, k: [5, 3], s: [1, 2], pad: 'VALID' as const },
    ];
    let seed = 1;
    for (const c of cases) {
      const padTotal = (k: number, size: number, s: number) => (c.pad === 'SAME' ? Math.max(0, k - ((size - 1) % s) - 1) : 0);
      const oh = c.s[0]! * (c.h - 1) + c.k[0]! - padTotal(c.k[0]!, c.h, c.s[0]!);
      const ow = c.s[1]! * (c.w - 1) + c.k[1]! - padTotal(c.k[1]!, c.w, c.s[1]!);
      const input = values(c.n * c.h * c.w * c.cin, seed++);
      const weights = values(c.cout * c.k[0]! * c.k[1]! * c.cin, seed++);
      const bias = values(c.cout, seed++);
      const outShape = [c.n, oh, ow, c.cout];
      const mp = harness(
        { type: F, shape: [c.n, c.h, c.w, c.cin], data: input },
        { type: F, shape: [c.cout, c.k[0]!, c.k[1]!, c.cin], data: weights },
        { type: F, shape: [c.cout], data: bias },
        outShape,
        transposeConvBiasOptions(c.pad, c.s[1]!, c.s[0]!),
      ).invoke();
      const options: TransposeConvOptions = {
        padding: c.pad === 'SAME' ? Padding.SAME : Padding.VALID,
        strideW: c.s[1]!,
        strideH: c.s[0]!,
        fusedActivationFunction: ActivationFunctionType.NONE,
        quantizedBiasType: 0,
      };
      const ref = new KernelHarness({
        registration: TRANSPOSE_CONV,
        tensors: [
          { type: TensorType.INT32, shape: [4], data: outShape, constant: true },
          { type: F, shape: [c.cout, c.k[0]!, c.k[1]!, c.cin], data: weights, constant: true },
          { type: F, shape: [c.n, c.h, c.w, c.cin], data: input },
          { type: F, shape: outShape },
          { type: F, shape: [c.cout], data: bias, constant: true },
        ],
        inputs: [0, 1, 2, 4],
        outputs: [3],
        builtinData: options,
      }).invoke();
      const a = mp.outputArray();
      const b = ref.outputArray();
      expect(a.length, JSON.stringify(c)).toBe(b.length);
      for (let i = 0; i < a.length; i++)
        expect(Math.abs(a[i]! - b[i]!), `${JSON.stringify(c)} element ${i}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(b[i]!));
    }
  });

  it('declines non-float32 nodes in supports() with a reason', () => {
    const h = new KernelHarness({
      registration: CONVOLUTION_2D_TRANSPOSE_BIAS,
      tensors: [
        { type: TensorType.INT8, shape: [1, 2, 2, 1], scale: 1 },
        { type: F, shape: [1, 2, 2, 1], constant: true },
        { type: F, shape: [1], constant: true },
        { type: F, shape: [1, 4, 4, 1] },
      ],
      inputs: [0, 1, 2],
      outputs: [3],
      customInitialData: transposeConvBiasOptions('VALID', 2, 2),
    });
    expect(h.supportsAnswer()).toBe('int8 input 0 (handles float32)');
    const two = new KernelHarness({
      registration: CONVOLUTION_2D_TRANSPOSE_BIAS,
      tensors: [
        { type: F, shape: [1, 2, 2, 1] },
        { type: F, shape: [1, 2, 2, 1] },
        { type: F, shape: [1, 4, 4, 1] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(two.supportsAnswer()).toBe('expects 3 input(s) and 1 output(s), got 2 and 1');
  });

  it('prepare rejects bad options, shapes and a wrong output shape with KernelErrors naming them', () => {
    const make = (o: Partial<{ options: Uint8Array | null; weights: number[]; bias: number[]; out: number[] }>) =>
      harness(
        { type: F, shape: [1, 2, 2, 3] },
        { type: F, shape: o.weights ?? [4, 2, 2, 3] },
        { type: F, shape: o.bias ?? [4] },
        o.out ?? [1, 4, 4, 4],
        o.options === undefined ? transposeConvBiasOptions('VALID', 2, 2) : o.options,
      );
    expect(() => make({}).prepare()).not.toThrow();
    expect(() => make({ options: null }).prepare()).toThrow(
      /custom options have 0 bytes; a TfLiteTransposeConvParams needs at least 12 \(padding, stride_width, stride_height\)/,
    );
    expect(() => make({ options: transposeConvBiasOptions('VALID', 0, 2) }).prepare()).toThrow(
      /option stride_width is 0, must be at least 1/,
    );
    const badPadding = transposeConvBiasOptions('VALID', 2, 2);
    badPadding[0] = 7;
    expect(() => make({ options: badPadding }).prepare()).toThrow(/option padding is 7/);
    expect(() => make({ bias: [3] }).prepare()).toThrow(/weights \(tensor 1\) have 4 output channels but bias \(tensor 2\) has 3 values/);
    expect(() => make({ weights: [4, 2, 2, 2] }).prepare()).toThrow(/input \(tensor 0\) has 3 channels/);
    expect(() => make({ out: [1, 5, 4, 4] }).prepare()).toThrow(KernelError);
    expect(() => make({ out: [1, 5, 4, 4] }).prepare()).toThrow(
      /output \(tensor 3\) has shape \[1, 5, 4, 4\], expected \[1, 4, 4, 4\] \(input \[1, 2, 2, 3\], 2x2 filter, stride 2x2, VALID padding\)/,
    );
    expect(() => make({ bias: [2, 2] }).prepare()).toThrow(/bias \(tensor 2\) must have rank 1/);
  });

  it('accepts trailing option fields (activation, ...) and ignores them, as MediaPipe does', () => {
    const long = new Uint8Array(20);
    long.set(transposeConvBiasOptions('VALID', 2, 2));
    long[12] = 1; // activation RELU: not applied by MediaPipe's kernel
    const h = harness(
      { type: F, shape: [1, 1, 1, 1], data: [-1] },
      { type: F, shape: [1, 2, 2, 1], data: [1, 2, 3, 4] },
      { type: F, shape: [1], data: [0] },
      [1, 2, 2, 1],
      long,
    ).invoke();
    expect(h.outputArray()).toEqual([-1, -2, -3, -4]);
  });
});
