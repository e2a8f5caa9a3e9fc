/**
 * The hybrid-kernel arithmetic against TFLite's own unit tests (kernels/internal/tensor_utils_test.cc:
 * QuantizeTestVector, the almost-zero and all-zero cases, AsymmetricQuantizeFloats*,
 * HybridMatrixBatchVectorMultiplyAccumulate8x8_16Test), and the int4 unpacking.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType } from '@micrort/core';
import {
  applyActivationToVector,
  asymmetricQuantizeFloats,
  batchQuantizeFloats,
  isZeroVector,
  matrixBatchVectorMultiplyAccumulate,
  reductionSumVector,
  symmetricQuantizeFloats,
  unpackInt4,
} from './hybrid.js';

const INPUT = Float32Array.of(-640, -635.0, -630, 10.0, 2.0, -5.0, -10.0, 0.0, 1000.0);
const ALMOST_ZERO = Float32Array.of(-1e-5, 3e-5, -7e-6, -9e-5, 1e-6, 4e-5, 9e-6, 2e-4, 0);

function sym(values: Float32Array): { q: number[]; factor: number } {
  const q = new Int8Array(values.length);
  const factors = new Float32Array(1);
  symmetricQuantizeFloats(values, 0, values.length, q, 0, factors, 0);
  return { q: Array.from(q), factor: factors[0]! };
}

function asym(values: Float32Array): { q: number[]; scale: number; zeroPoint: number } {
  const q = new Int8Array(values.length);
  const factors = new Float32Array(1);
  const zps = new Int32Array(1);
  asymmetricQuantizeFloats(values, 0, values.length, q, 0, factors, zps, 0);
  return { q: Array.from(q), scale: factors[0]!, zeroPoint: zps[0]! };
}

describe('SymmetricQuantizeFloats (TFLite tensor_utils_test)', () => {
  it('QuantizeTestVector', () => {
    const r = sym(INPUT);
    expect(r.q).toEqual([-81, -81, -80, 1, 0, -1, -1, 0, 127]);
    expect(r.factor).toBeCloseTo(1000 / 127, 6);
  });
  it('all zeros: factor 1', () => {
    expect(sym(new Float32Array(9))).toEqual({ q: new Array(9).fill(0), factor: 1 });
  });
  it('almost zero', () => {
    const r = sym(ALMOST_ZERO);
    expect(r.q).toEqual([-6, 19, -4, -57, 1, 25, 6, 127, 0]);
    expect(Math.abs(r.factor - 1.57e-6)).toBeLessThan(1e-6);
  });
  it('rounds halves away from zero, in float32', () => {
    // range 127 → inverse 1: the values are their own quantization, ±0.5 away from zero
    expect(sym(Float32Array.of(127, 0.5, -0.5, 1.5, -2.5)).q).toEqual([127, 1, -1, 2, -3]);
  });
});

describe('AsymmetricQuantizeFloats (TFLite tensor_utils_test)', () => {
  it('AsymmetricQuantizeFloatsTest: scale and zero point of [-640, 1000]', () => {
    const r = asym(INPUT);
    expect(r.q).toEqual([-128, -127, -126, -26, -28, -29, -30, -28, 127]);
    expect(r.scale).toBeCloseTo(1640 / 255, 5);
    expect(r.zeroPoint).toBe(-28);
  });
  it('all zeros: scale 1, zero point 0', () => {
    expect(asym(new Float32Array(9))).toEqual({ q: new Array(9).fill(0), scale: 1, zeroPoint: 0 });
  });
  it('zero range: the range still includes 0', () => {
    const r = asym(new Float32Array(9).fill(2000));
    expect(r.q).toEqual(new Array(9).fill(127));
    expect(r.zeroPoint).toBe(-128);
  });
  it('almost zero', () => {
    expect(asym(ALMOST_ZERO).q).toEqual([-58, -23, -55, -128, -48, -14, -41, 127, -49]);
  });
  it('batchQuantizeFloats quantizes each row on its own; symmetric rows get zero point 0', () => {
    const values = Float32Array.of(1, -2, 3, 100, 0, -50);
    const q = new Int8Array(6);
    const factors = new Float32Array(2);
    const zps = Int32Array.of(9, 9);
    batchQuantizeFloats(values, 0, 2, 3, q, 0, factors, zps, 0, false);
    expect(Array.from(q)).toEqual([42, -85, 127, 127, 0, -64]);
    expect(Array.from(zps)).toEqual([0, 0]);
    batchQuantizeFloats(values, 0, 2, 3, q, 0, factors, zps, 0, true);
    expect(Array.from(zps)).toEqual([asym(values.subarray(0, 3)).zeroPoint, asym(values.subarray(3)).zeroPoint]);
  });
});

describe('MatrixBatchVectorMultiplyAccumulate (int8 × int8 → float)', () => {
  it('HybridMatrixBatchVectorMultiplyAccumulate8x8_16Test: zero points 1, row sums', () => {
    // 4 batches of 32 inputs (the test's `input`), an 8 × 32 matrix, scaling factors 1.
    const input = Int8Array.of(
      4,
      -41,
      5,
      -41,
      22,
      17,
      -30,
      24,
      13,
      -47,
      18,
      9,
      -11,
      -30,
      16,
      1,
      -47,
      12,
      36,
      -20,
      27,
      -3,
      0,
      -51,
      -31,
      3,
      -8,
      -38,
      43,
      23,
      12,
      1,
      11,
      -23,
      -26,
      23,
      14,
      -9,
      -44,
      22,
      21,
      -30,
      3,
      -47,
      -26,
      -21,
      -24,
      1,
      -44,
      34,
      -11,
      -23,
      -28,
      26,
      -38,
      19,
      35,
      9,
      23,
      6,
      -42,
      -25,
      28,
      1,
      4,
      -41,
      5,
      -41,
      22,
      17,
      -30,
      24,
      13,
      -47,
      18,
      9,
      -11,
      -30,
      16,
      1,
      -47,
      12,
      36,
      -20,
      27,
      -3,
      0,
      -51,
      -31,
      3,
      -8,
      -38,
      43,
      23,
      12,
      1,
      11,
      -23,
      -26,
      23,
      14,
      -9,
      -44,
      22,
      21,
      -30,
      3,
      -47,
      -26,
      -21,
      -24,
      1,
      -44,
      34,
      -11,
      -23,
      -28,
      26,
      -38,
      19,
      35,
      9,
      23,
      6,
      -42,
      -25,
      28,
      1,
    );
    const weights = Int8Array.of(
      -10,
      -4,
      -8,
      16,
      4,
      -16,
      -1,
      11,
      1,
      2,
      -25,
      19,
      7,
      9,
      2,
      1,
      -24,
      -2,
      10,
      -7,
      7,
      -5,
      -2,
      3,
      4,
      3,
      -4,
      -7,
      -11,
      -13,
      -18,
      2,
      11,
      10,
      12,
      -9,
      17,
      -15,
      -5,
      20,
      -6,
      -11,
      2,
      -6,
      -18,
      15,
      4,
      3,
      4,
      -9,
      -2,
      -3,
      -9,
      -13,
      17,
      -21,
      5,
      3,
      -12,
      0,
      -4,
      9,
      -5,
      4,
      10,
      -2,
      8,
      1,
      -10,
      -6,
      1,
      -9,
      10,
      11,
      -1,
      -5,
      4,
      -7,
      -4,
      5,
      -4,
      4,
      12,
      -7,
      -5,
      -9,
      -19,
      6,
      -4,
      12,
      -17,
      -22,
      0,
      9,
      -4,
      6,
      -5,
      5,
      -8,
      8,
      3,
      15,
      -18,
      -18,
      5,
      3,
      -12,
      5,
      -10,
      7,
      7,
      7,
      -9,
      17,
      2,
      -11,
      -25,
      3,
      19,
      -6,
      7,
      1,
      7,
      5,
      -3,
      11,
      3,
      8,
      0,
      -8,
      8,
      -2,
      -2,
      -12,
      14,
      -5,
      7,
      8,
      16,
      20,
      -16,
      -5,
      -5,
      9,
      1,
      -10,
      -6,
      14,
      10,
      -12,
      10,
      -6,
      5,
      0,
      3,
      8,
      -9,
      -13,
      -2,
      10,
      4,
      4,
      -16,
      -17,
      -9,
      16,
      -5,
      14,
      -9,
      -5,
      -12,
      0,
      17,
      6,
      -1,
      11,
      16,
      -20,
      1,
      -11,
      -1,
      -10,
      -21,
      13,
      4,
      -12,
      -7,
      0,
      -14,
      -6,
      3,
      12,
      -4,
      6,
      -18,
      -3,
      -1,
      14,
      -8,
      -6,
      -15,
      5,
      12,
      -3,
      -10,
      4,
      6,
      13,
      -5,
      -20,
      0,
      3,
      -3,
      -7,
      1,
      2,
      -10,
      7,
      -3,
      6,
      1,
      -12,
      6,
      14,
      -5,
      -20,
      0,
      3,
      -3,
      -7,
      1,
      2,
      -10,
      7,
      -3,
      6,
      1,
      -12,
      6,
      15,
      -5,
      -20,
      0,
      3,
      -3,
      -7,
      1,
      2,
      -10,
      7,
      -3,
      6,
      1,
      -12,
      6,
      16,
    );
    const rowSums = new Int32Array(8);
    reductionSumVector(weights, 0, 8, 32, rowSums);
    const out = new Float32Array(32);
    const w = { matrix: weights, offset: 0, rows: 8, cols: 32, rowSums, rowSumsOffset: 0, perChannelScale: null };
    matrixBatchVectorMultiplyAccumulate(w, input, 0, new Float32Array(4).fill(1), new Int32Array(4).fill(1), 0, 4, out, 0);
    const expected = [
      -228, 1548, 937, -166, -1164, -1578, -278, 303, 839, -820, 132, 1733, -1858, 58, -425, -587, -228, 1548, 937, -166, -1164, -1578,
      -278, 303, 839, -820, 132, 1733, -1858, 58, -425, -587,
    ];
    expect(Array.from(out)).toEqual(expected);
  });

  it('accumulates into the result with the per-channel scale × factor, each product rounded to float32', () => {
    const w = {
      matrix: Int8Array.of(1, 2, -3, 4),
      offset: 0,
      rows: 2,
      cols: 2,
      rowSums: new Int32Array(2),
      rowSumsOffset: 0,
      perChannelScale: Float32Array.of(0.1, 0.3),
    };
    const out = Float32Array.of(1, 1);
    matrixBatchVectorMultiplyAccumulate(w, Int8Array.of(5, 6), 0, Float32Array.of(0.7), new Int32Array(1), 0, 1, out, 0);
    const f = Math.fround;
    expect(out[0]).toBe(f(1 + f(17 * f(f(0.7) * f(0.1)))));
    expect(out[1]).toBe(f(1 + f(9 * f(f(0.7) * f(0.3)))));
  });
});

describe('helpers', () => {
  it('isZeroVector', () => {
    expect(isZeroVector(Float32Array.of(0, -0, 0), 0, 3)).toBe(true);
    expect(isZeroVector(Float32Array.of(0, 1e-30, 0), 0, 3)).toBe(false);
  });
  it('applyActivationToVector: every schema activation', () => {
    const run = (a: ActivationFunctionType) => {
      const d = Float32Array.of(-7, -0.5, -0, 0.5, 7);
      applyActivationToVector(a, d, 0, 5);
      return Array.from(d);
    };
    expect(run(ActivationFunctionType.RELU)).toEqual([0, 0, 0, 0.5, 7]);
    expect(run(ActivationFunctionType.RELU6)).toEqual([0, 0, 0, 0.5, 6]);
    expect(run(ActivationFunctionType.RELU_N1_TO_1)).toEqual([-1, -0.5, -0, 0.5, 1]);
    expect(run(ActivationFunctionType.SIGN_BIT)).toEqual([1, 1, 1, 0, 0]);
    expect(run(ActivationFunctionType.TANH)[4]).toBeCloseTo(Math.tanh(7), 6);
  });
  it('unpackInt4: low nibble first, sign-extended; the unpacked form is copied', () => {
    const out = new Int8Array(5);
    unpackInt4(Uint8Array.of(0x7f, 0x98, 0x03), 5, out);
    expect(Array.from(out)).toEqual([-1, 7, -8, -7, 3]);
    unpackInt4(Int8Array.of(-8, 7, 0, -1, 3), 5, out);
    expect(Array.from(out)).toEqual([-8, 7, 0, -1, 3]);
  });
});
