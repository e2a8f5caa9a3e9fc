import { describe, expect, it } from 'vitest';
import { TensorType, type Registration } from '@micrort/core';
import { type HarnessTensorSpec } from '@micrort/core/testing';
import { bool, f32, harness, i32, i64, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { EQUAL } from './equal.js';
import { GREATER } from './greater.js';
import { GREATER_EQUAL } from './greater-equal.js';
import { LESS } from './less.js';
import { LESS_EQUAL } from './less-equal.js';
import { NOT_EQUAL } from './not-equal.js';

const I8 = TensorType.INT8;
const ALL = { EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL } as const;

function compare(reg: Registration, a: HarnessTensorSpec, b: HarnessTensorSpec, outShape: number[]): number[] {
  return run(reg, [a, b, bool(outShape)], [0, 1], [2]);
}

describe('comparisons', () => {
  it('float32 (TFLM comparisons_test LessFloat / LessEqualFloat) and NaN, which compares unequal and unordered', () => {
    const a = f32([1, 1, 1, 4], [0.1, 0.9, 0.7, 0.3]);
    const b = f32([1, 1, 1, 4], [0.1, 0.2, 0.6, 0.5]);
    expect(compare(LESS, a, b, [1, 1, 1, 4])).toEqual([0, 0, 0, 1]);
    expect(compare(LESS_EQUAL, a, b, [1, 1, 1, 4])).toEqual([1, 0, 0, 1]);
    const nan = { EQUAL: 0, NOT_EQUAL: 1, GREATER: 0, GREATER_EQUAL: 0, LESS: 0, LESS_EQUAL: 0 };
    for (const [name, reg] of Object.entries(ALL))
      expect(compare(reg, f32([2], [Number.NaN, 1]), f32([2], [1, Number.NaN]), [2]), name).toEqual([
        nan[name as keyof typeof nan],
        nan[name as keyof typeof nan],
      ]);
    expect(compare(EQUAL, f32([2], [0, Infinity]), f32([2], [-0, Infinity]), [2])).toEqual([1, 1]);
  });

  it('int32 with broadcasting up to 4-D (TFLM GreaterEqualBroadcastTwoD, LessBroadcastTwoD, LessEqualBroadcastTwoD)', () => {
    const a = i32([1, 1, 2, 4], [-1, 9, 7, 3, 2, 4, 2, 8]);
    const b = i32([1, 1, 1, 4], [7, 1, 2, 4]);
    expect(compare(GREATER_EQUAL, a, b, [1, 1, 2, 4])).toEqual([0, 1, 1, 0, 0, 1, 1, 1]);
    expect(compare(LESS, i32([1, 1, 2, 4], [-1, 9, 7, 3, 2, 4, 6, 8]), b, [1, 1, 2, 4])).toEqual([1, 0, 0, 1, 1, 0, 0, 0]);
    expect(compare(LESS_EQUAL, a, b, [1, 1, 2, 4])).toEqual([1, 0, 0, 1, 1, 0, 1, 0]);
    // both sides broadcast: [3,1] vs [1,2] -> [3,2]
    expect(compare(GREATER, i32([3, 1], [1, 2, 3]), i32([1, 2], [1, 2]), [3, 2])).toEqual([0, 0, 1, 0, 1, 1]);
  });

  it('int64 compares the full 64 bits without BigInt arithmetic (signs, words across 2^32)', () => {
    const a = [-1n, 0n, 4294967296n, 4294967295n, -4294967296n, 9007199254740993n, -9223372036854775808n, 5n];
    const b = [0n, -1n, 4294967295n, 4294967296n, -4294967295n, 9007199254740992n, 9223372036854775807n, 5n];
    const less = compare(LESS, i64([8], a), i64([8], b), [8]);
    expect(less).toEqual(a.map((x, i) => (x < b[i]! ? 1 : 0)));
    expect(compare(EQUAL, i64([8], a), i64([8], b), [8])).toEqual(a.map((x, i) => (x === b[i]! ? 1 : 0)));
    expect(compare(GREATER_EQUAL, i64([2, 4], a), i64([4], b.slice(0, 4)), [2, 4])).toEqual(a.map((x, i) => (x >= b[i % 4]! ? 1 : 0)));
  });

  it('bool EQUAL / NOT_EQUAL', () => {
    expect(compare(EQUAL, bool([4], [1, 1, 0, 0]), bool([4], [1, 0, 1, 0]), [4])).toEqual([1, 0, 0, 1]);
    expect(compare(NOT_EQUAL, bool([4], [1, 1, 0, 0]), bool([4], [1, 0, 1, 0]), [4])).toEqual([0, 1, 1, 0]);
  });

  it('int8 rescales both sides (TFLM EqualQuantizedInt8 / NotEqualQuantizedInt8)', () => {
    const a = q(I8, [1, 2, 2, 1], 0.5, -5, quantize([1, -9, 7, 3], 0.5, -5));
    expect(compare(EQUAL, a, q(I8, [1, 2, 2, 1], 0.25, 5, quantize([-1, 2, 7, 5], 0.25, 5)), [1, 2, 2, 1])).toEqual([0, 0, 1, 0]);
    expect(compare(NOT_EQUAL, a, q(I8, [1, 2, 2, 1], 0.25, 5, quantize([1, 2, 7, 5], 0.25, 5)), [1, 2, 2, 1])).toEqual([0, 1, 0, 1]);
  });

  it('int8 with a broadcast scalar, for every shape of TFLM *QuantizedInt8WithBroadcast', () => {
    const values = quantize([20, -2, -71, 8, 11, 20], 0.5, -9);
    const scalar = quantize([8], 0.5, -9);
    const want = {
      NOT_EQUAL: [1, 1, 1, 0, 1, 1],
      GREATER: [1, 0, 0, 0, 1, 1],
      GREATER_EQUAL: [1, 0, 0, 1, 1, 1],
      LESS: [0, 1, 1, 0, 0, 0],
      LESS_EQUAL: [0, 1, 1, 1, 0, 0],
    };
    for (const shape of [[6], [2, 3], [2, 1, 3], [1, 3, 1, 2]])
      for (const [name, expected] of Object.entries(want))
        expect(
          compare(ALL[name as keyof typeof ALL], q(I8, shape, 0.5, -9, values), q(I8, [1], 0.5, -9, scalar), shape),
          `${name} ${shape}`,
        ).toEqual(expected);
  });

  it("int8 replicates TFLM's rounding, not real arithmetic: -114 * 0.1 and -38 * 0.3 are both -11.4 but compare unequal", () => {
    // (-114 << 8) * 0.1 rounds to -2918; (-38 << 8) * 0.3 is SRDHM by 0.6 (-5836.8 -> -5837) then a rounding
    // halving (-2918.5 -> -2919): the rescaled values differ.
    const a = q(I8, [1], 0.1, 0, [-114]);
    const b = q(I8, [1], 0.3, 0, [-38]);
    expect(compare(EQUAL, a, b, [1])).toEqual([0]);
    expect(compare(GREATER, a, b, [1])).toEqual([1]);
  });

  it("GREATER rescales int16 (TFLM); LESS compares TFLite's int16 raw; uint32 is refused", () => {
    const a = q(TensorType.INT16, [3], 0.001, 0, [1000, -500, 20]);
    const b = q(TensorType.INT16, [3], 0.002, 0, [499, -250, 10]);
    expect(compare(GREATER, a, b, [3])).toEqual([1, 0, 0]);
    expect(compare(LESS, a, b, [3])).toEqual([0, 1, 0]);
    const u = { type: TensorType.UINT32, shape: [1], data: [1] };
    const h = harness(LESS, [u, u, bool([1])], [0, 1], [2]);
    expect(h.supportsAnswer()).toBe('uint32 input (handles float32, int32, int64, int8, uint8, int16, float16)');
    expect(kernelError(() => h.prepare()).message).toMatch(/LESS \(node 0\): unsupported input 1 type uint32 \(tensor 0\)/);
  });

  it('refuses bad inputs with a clear error', () => {
    expect(kernelError(() => harness(GREATER, [bool([1], [1]), bool([1], [0]), bool([1])], [0, 1], [2]).prepare()).message).toMatch(
      /type bool \(tensor \d+\); supported:/,
    );
    expect(kernelError(() => harness(EQUAL, [f32([2], [1, 2]), f32([2], [1, 2]), f32([2])], [0, 1], [2]).prepare()).message).toMatch(
      /output \(tensor 2\) has type float32, expected bool/,
    );
    expect(kernelError(() => harness(EQUAL, [f32([2], [1, 2]), i32([2], [1, 2]), bool([2])], [0, 1], [2]).prepare()).message).toMatch(
      /inputs: types differ/,
    );
    expect(
      kernelError(() =>
        harness(EQUAL, [f32([2, 1, 1, 1, 2], [1, 2, 3, 4]), f32([2], [1, 2]), bool([2, 1, 1, 1, 2])], [0, 1], [2]).prepare(),
      ).message,
    ).toMatch(/at most 4 dimensions, got rank 5/);
    expect(
      kernelError(() => harness(EQUAL, [q(I8, [1], 1.5, 0, [1]), q(I8, [1], 0.5, 0, [1]), bool([1])], [0, 1], [2]).prepare()).message,
    ).toMatch(/input 1 scale \(must be below 1\)/);
    // Same shapes compare elementwise at any rank.
    expect(compare(EQUAL, f32([1, 1, 1, 1, 2], [1, 2]), f32([1, 1, 1, 1, 2], [1, 3]), [1, 1, 1, 1, 2])).toEqual([1, 0]);
  });

  it('keeps TFLM ComparisonParams (32 bytes) in the arena', () => {
    expect(harness(LESS, [f32([1], [1]), f32([1], [2]), bool([1])], [0, 1], [2]).prepare().persistentBytes).toBe(32);
  });
});
