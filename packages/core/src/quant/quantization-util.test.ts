import { describe, expect, it } from 'vitest';
import {
  calculateInputRadius,
  checkedLog2,
  getQuantizedConvolutionMultiplier,
  preprocessSoftmaxScaling,
  quantizeMultiplierGreaterThanOne,
  quantizeMultiplierSmallerThanOneExp,
} from './quantization-util.js';
import { frexp, quantizeMultiplier, roundHalfAwayFromZero } from './quantize-multiplier.js';
import { roundF32, truncToInt32X86, expF32 } from './float32-math.js';

describe('quantizeMultiplier (frexp path)', () => {
  it('matches TFLite for simple values', () => {
    expect(quantizeMultiplier(0.5)).toEqual({ multiplier: 1 << 30, shift: 0 });
    expect(quantizeMultiplier(0.25)).toEqual({ multiplier: 1 << 30, shift: -1 });
    expect(quantizeMultiplier(1)).toEqual({ multiplier: 1 << 30, shift: 1 });
    expect(quantizeMultiplier(0)).toEqual({ multiplier: 0, shift: 0 });
    expect(quantizeMultiplier(-0.5)).toEqual({ multiplier: -(1 << 30), shift: 0 });
  });
  it('rounds up to 2^31 and renormalises', () => {
    expect(quantizeMultiplier(1 - 2 ** -40)).toEqual({ multiplier: 1 << 30, shift: 1 });
  });
  it('does not clamp shifts above 30 (default, double-rounding build)', () => {
    expect(quantizeMultiplier(2147483647)).toEqual({ multiplier: 2147483647, shift: 31 });
  });
  it('frexp handles the largest and the subnormal doubles', () => {
    expect(frexp(Number.MAX_VALUE)[1]).toBe(1024);
    expect(frexp(Number.MAX_VALUE)[0]).toBeCloseTo(1, 15);
    expect(frexp(Number.MIN_VALUE)).toEqual([0.5, -1073]);
    expect(frexp(-3)).toEqual([-0.75, 2]);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
  });
});

describe('multiplier variants', () => {
  it('SmallerThanOneExp returns a non-positive shift and rejects out-of-range input', () => {
    expect(quantizeMultiplierSmallerThanOneExp(0.75)).toEqual({ multiplier: 3 << 29, shift: 0 });
    expect(quantizeMultiplierSmallerThanOneExp(0.1).shift).toBe(-3);
    expect(() => quantizeMultiplierSmallerThanOneExp(1)).toThrow(RangeError);
    expect(() => quantizeMultiplierSmallerThanOneExp(0)).toThrow(RangeError);
    expect(() => quantizeMultiplierSmallerThanOneExp(-0.5)).toThrow(RangeError);
    // rounds up to 1.0: shift becomes +1, which TFLite's check rejects
    expect(() => quantizeMultiplierSmallerThanOneExp(1 - 2 ** -40)).toThrow(RangeError);
  });
  it('GreaterThanOne returns a non-negative shift and rejects <= 1', () => {
    expect(quantizeMultiplierGreaterThanOne(3)).toEqual({ multiplier: 3 << 29, shift: 2 });
    expect(() => quantizeMultiplierGreaterThanOne(1)).toThrow(RangeError);
  });
});

describe('softmax preprocessing', () => {
  it('PreprocessSoftmaxScaling scales beta * input_scale to Q5.26 and caps at 2^31 - 1', () => {
    // beta 1, scale 1/16: 2^26 / 16 = 2^22 → multiplier 2^30, left shift 23
    expect(preprocessSoftmaxScaling(1, 1 / 16, 5)).toEqual({ multiplier: 1 << 30, shift: 23 });
    // huge scale: capped to 2^31 - 1 → (2^31 - 1, 31)
    expect(preprocessSoftmaxScaling(1, 1e6, 5)).toEqual({ multiplier: 2147483647, shift: 31 });
    expect(() => preprocessSoftmaxScaling(1, 1e-12, 5)).toThrow(RangeError);
  });
  it('CalculateInputRadius is floor(31 * 2^26 / 2^shift) for 5 integer bits', () => {
    expect(calculateInputRadius(5, 23)).toBe(Math.floor((31 * 2 ** 26) / 2 ** 23)); // 248
    expect(calculateInputRadius(5, 20)).toBe(1984);
    expect(calculateInputRadius(5, 31)).toBe(0);
    expect(calculateInputRadius(5, 0)).toBe(31 * 2 ** 26);
    expect(calculateInputRadius(4, 10, 15)).toBe(Math.floor((15 * 2 ** 11) / 2 ** 10));
  });
});

describe('per-tensor convolution multiplier and CheckedLog2', () => {
  it('multiplies the two float32 scales in float32', () => {
    const a = Math.fround(0.0244801156);
    const b = Math.fround(0.00390625 * 1.7);
    const out = Math.fround(0.013325124);
    expect(getQuantizedConvolutionMultiplier(a, b, out)).toBe(Math.fround(a * b) / out);
    // differs from the double product for these scales
    expect(Math.fround(a * b)).not.toBe(a * b);
  });
  it('detects powers of two', () => {
    expect(checkedLog2(0.25)).toEqual({ log2: -2, isPowerOfTwo: true });
    expect(checkedLog2(1 / 32768)).toEqual({ log2: -15, isPowerOfTwo: true });
    expect(checkedLog2(0.3).isPowerOfTwo).toBe(false);
  });
});

describe('float32 helpers', () => {
  it('roundF32 rounds half away from zero', () => {
    expect(roundF32(0.5)).toBe(1);
    expect(roundF32(-0.5)).toBe(-1);
    expect(roundF32(1.4999999)).toBe(1);
    expect(roundF32(-2.5)).toBe(-3);
  });
  it('truncToInt32X86 truncates and yields INT32_MIN out of range', () => {
    expect(truncToInt32X86(-3.9)).toBe(-3);
    expect(truncToInt32X86(2147483647)).toBe(2147483647);
    expect(truncToInt32X86(2147483648)).toBe(-2147483648);
    expect(truncToInt32X86(-2147483649)).toBe(-2147483648);
    expect(truncToInt32X86(Number.NaN)).toBe(-2147483648);
    expect(truncToInt32X86(-2147483648.5)).toBe(-2147483648);
  });
  it('expF32 is a float32', () => {
    expect(expF32(0)).toBe(1);
    expect(expF32(-1)).toBe(Math.fround(Math.exp(-1)));
  });
});
