import { describe, expect, it } from 'vitest';
import { KernelError, TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { RFFT2D } from './rfft2d.js';

/** Tensors: 0 input float32, 1 fft_length int32 [2] (constant), 2 output complex64. */
function harness(input: number[], shape: number[], fft: [number, number], outShape: number[], fftSpec: Partial<HarnessTensorSpec> = {}) {
  return new KernelHarness({
    registration: RFFT2D,
    tensors: [
      { type: TensorType.FLOAT32, shape, data: input },
      { type: TensorType.INT32, shape: [2], data: fft, constant: true, ...fftSpec },
      { type: TensorType.COMPLEX64, shape: outShape },
    ],
    inputs: [0, 1],
    outputs: [2],
  });
}

/** (re, im) pairs of tf.signal.rfft2d by the definition, in double: each slice cropped / zero-padded to H×W. */
function naiveRfft2d(input: number[], shape: number[], h: number, w: number): number[] {
  const ih = shape[shape.length - 2]!;
  const iw = shape[shape.length - 1]!;
  const slices = input.length / (ih * iw);
  const out: number[] = [];
  for (let s = 0; s < slices; s++) {
    for (let k1 = 0; k1 < h; k1++) {
      for (let k2 = 0; k2 <= w / 2; k2++) {
        let re = 0;
        let im = 0;
        for (let n1 = 0; n1 < Math.min(h, ih); n1++) {
          for (let n2 = 0; n2 < Math.min(w, iw); n2++) {
            const x = input[s * ih * iw + n1 * iw + n2]!;
            const a = -2 * Math.PI * (((k1 * n1) % h) / h + ((k2 * n2) % w) / w);
            re += x * Math.cos(a);
            im += x * Math.sin(a);
          }
        }
        out.push(re, im);
      }
    }
  }
  return out;
}

function expectClose(got: number[], want: number[]): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) =>
    expect(Math.abs(g - want[i]!), `value ${i}: ${g} vs ${want[i]}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(want[i]!)),
  );
}

const X4 = [1, 2, 3, 4, 3, 8, 6, 3, 5, 2, 7, 6, 9, 5, 8, 3];
const X4_RFFT = [75, 0, -6, -1, 9, 0, -10, 5, -3, 2, -6, 11, -15, 0, -2, 13, -5, 0, -10, -5, 3, -6, -6, -11];

describe('RFFT2D', () => {
  it('fft_length equal to the input (TFLite rfft2d_test FftLengthMatchesInputSize)', () => {
    expect(harness(X4, [4, 4], [4, 4], [4, 3]).invoke().outputArray()).toEqual(X4_RFFT);
  });

  it('crops the input to fft_length (TFLite FftLengthSmallerThanInputSize)', () => {
    const x = [1, 2, 3, 4, 0, 3, 8, 6, 3, 0, 5, 2, 7, 6, 0, 9, 5, 8, 3, 0];
    expect(harness(x, [4, 5], [4, 4], [4, 3]).invoke().outputArray()).toEqual(X4_RFFT);
  });

  it('zero-pads the input to fft_length (TFLite FftLengthGreaterThanInputSize)', () => {
    const x = [1, 2, 3, 4, 3, 8, 6, 3, 5, 2, 7, 6];
    const want = [
      50, 0, 8.29289341, -33.6776695, -7, 1, 9.70710659, -1.67766953, 0, 0, -10, -20, -16.3639603, -1.12132037, -5, 1, -7.19238806,
      -2.05025244, -6, 2, 10, 0, -4.7781744, -6.12132025, -1, 11, 10.7781744, 1.87867963, 4, 0, -10, 20, 11.1923885, 11.9497471, 5, -5,
      -3.63603902, -3.12132025, -6, -2,
    ];
    expectClose(harness(x, [3, 4], [4, 8], [4, 5]).invoke().outputArray(), want);
  });

  it('transforms every slice of outer dimensions (TFLite InputDimsGreaterThan2)', () => {
    const x = [1, 2, 3, 4, 3, 8, 6, 3, 5, 2, 7, 6, 7, 3, 23, 5];
    const want = [30, 0, -5, -3, -4, 0, -10, 0, 1, 7, 0, 0, 58, 0, -18, 6, 26, 0, -18, 0, 14, 2, -18, 0];
    expect(harness(x, [2, 2, 4], [2, 4], [2, 2, 3]).invoke().outputArray()).toEqual(want);
  });

  it('equals the naive 2-D DFT on random data: several sizes, crops, pads and batch dimensions', () => {
    let seed = 99;
    const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 8) / 2 ** 23 - 1;
    const cases: { shape: number[]; fft: [number, number] }[] = [
      { shape: [8, 16], fft: [8, 16] },
      { shape: [2, 3, 5, 6], fft: [4, 8] },
      { shape: [1, 32, 2], fft: [16, 4] },
      { shape: [3, 2, 64], fft: [2, 32] },
      { shape: [16, 16], fft: [32, 2] },
    ];
    for (const c of cases) {
      const n = c.shape.reduce((a, b) => a * b, 1);
      const x = Array.from({ length: n }, () => Math.fround(rnd() * 10));
      const outShape = [...c.shape.slice(0, -2), c.fft[0], c.fft[1] / 2 + 1];
      const got = harness(x, c.shape, c.fft, outShape).invoke().outputArray();
      expectClose(got, naiveRfft2d(x, c.shape, c.fft[0], c.fft[1]));
    }
  });

  it('keeps its twiddles in the arena and its work matrix in a scratch buffer', () => {
    const h = harness(X4, [4, 4], [4, 8], [4, 5]).prepare();
    expect(h.persistentBytes).toBe(64); // max(4, 8) doubles
    expect(h.scratchSizes).toEqual([(4 * 5 + 8) * 2 * 8]); // 4 rows of 5 bins + one line of 8, complex doubles
  });

  it('prepare rejects fft lengths fft2d cannot handle, a non-constant fft_length and a wrong output shape', () => {
    expect(() => harness(X4, [4, 4], [4, 6], [4, 4]).prepare()).toThrow(/fft_length is \[4, 6\]; both must be powers of two/);
    expect(() => harness(X4, [4, 4], [4, 1], [4, 1]).prepare()).toThrow(/fft_length is \[4, 1\]; .* the width at least 2/);
    // height 1 (a 1-D RFFT of each row, as YAMNet's [1, N]) is what TFLite accepts
    expect(() => harness(X4, [4, 4], [1, 4], [1, 3]).prepare()).not.toThrow();
    expect(() => harness(X4, [4, 4], [4, 4], [4, 3], { constant: false }).prepare()).toThrow(
      /fft_length \(tensor 1\) must be a constant tensor/,
    );
    expect(() => harness(X4, [4, 4], [4, 4], [4, 4]).prepare()).toThrow(KernelError);
    expect(() => harness(X4, [4, 4], [4, 4], [4, 4]).prepare()).toThrow(/output \(tensor 2\) has shape \[4, 4\]; the inputs give \[4, 3\]/);
    expect(() => harness(X4, [16], [4, 4], [4, 3]).prepare()).toThrow(/at least 2 dimensions/);
  });

  it('declines other types in supports() with a reason', () => {
    const h = new KernelHarness({
      registration: RFFT2D,
      tensors: [
        { type: TensorType.FLOAT32, shape: [4, 4] },
        { type: TensorType.INT32, shape: [2], data: [4, 4], constant: true },
        { type: TensorType.FLOAT32, shape: [4, 3] },
      ],
      inputs: [0, 1],
      outputs: [2],
    });
    expect(h.supportsAnswer()).toBe('float32 output (handles complex64)');
  });
});
