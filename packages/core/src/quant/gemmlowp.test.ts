import { describe, expect, it } from 'vitest';
import {
  countLeadingSignBits32,
  expOnIntervalBetweenNegativeOneQuarterAnd0Excl,
  expOnNegativeValues,
  fixedPointOne,
  getReciprocal,
  oneOverOnePlusXForXIn01,
  rescale,
  roundingHalfSum,
  saturatingAddInt16,
  saturatingAddInt32,
  saturatingRoundingDoublingHighMulInt16,
  saturatingRoundingMultiplyByPOT,
  saturatingSubInt32,
} from './gemmlowp.js';

const MIN = -2147483648;
const MAX = 2147483647;
const Q31 = 2 ** 31;

describe('saturatingRoundingMultiplyByPOT / rescale', () => {
  it('saturates left shifts at the threshold', () => {
    expect(saturatingRoundingMultiplyByPOT((1 << 29) - 1, 2)).toBe(((1 << 29) - 1) * 4);
    expect(saturatingRoundingMultiplyByPOT(1 << 29, 2)).toBe(MAX);
    expect(saturatingRoundingMultiplyByPOT(-((1 << 29) - 1), 2)).toBe(-((1 << 29) - 1) * 4);
    expect(saturatingRoundingMultiplyByPOT(-(1 << 29), 2)).toBe(MIN);
    expect(saturatingRoundingMultiplyByPOT(MIN, 1)).toBe(MIN);
    expect(saturatingRoundingMultiplyByPOT(1, 31)).toBe(MAX);
    expect(saturatingRoundingMultiplyByPOT(0, 31)).toBe(0);
  });
  it('rounds right shifts and leaves exponent 0 alone', () => {
    expect(saturatingRoundingMultiplyByPOT(6, -2)).toBe(2); // 1.5 → 2
    expect(saturatingRoundingMultiplyByPOT(-6, -2)).toBe(-2);
    expect(saturatingRoundingMultiplyByPOT(-5, -2)).toBe(-1);
    expect(saturatingRoundingMultiplyByPOT(MIN, 0)).toBe(MIN);
  });
  it('rescale moves the binary point', () => {
    expect(rescale(1 << 26, 5, 0)).toBe(MAX); // 1.0 in Q5.26 does not fit Q0.31
    expect(rescale(1 << 24, 5, 0)).toBe(1 << 29); // 0.25
    expect(rescale(1 << 29, 0, 12)).toBe(1 << 17);
    expect(rescale(4097, 0, 12)).toBe(1); // 4097 / 4096 → 1
  });
});

describe('small helpers', () => {
  it('roundingHalfSum rounds half away from zero without overflow', () => {
    expect(roundingHalfSum(1, 2)).toBe(2);
    expect(roundingHalfSum(-1, -2)).toBe(-2);
    expect(roundingHalfSum(MAX, MAX)).toBe(MAX);
    expect(roundingHalfSum(MIN, MIN)).toBe(MIN);
    expect(roundingHalfSum(MIN, MAX)).toBe(-1);
    expect(roundingHalfSum(0, 0)).toBe(0);
  });
  it('saturating add/sub clamp', () => {
    expect(saturatingAddInt32(MAX, 1)).toBe(MAX);
    expect(saturatingAddInt32(MIN, -1)).toBe(MIN);
    expect(saturatingSubInt32(MIN, 1)).toBe(MIN);
    expect(saturatingSubInt32(MAX, -1)).toBe(MAX);
    expect(saturatingAddInt16(32767, 1)).toBe(32767);
    expect(saturatingAddInt16(-32768, -5)).toBe(-32768);
  });
  it('int16 SRDHM saturates and rounds like the 32-bit one', () => {
    expect(saturatingRoundingDoublingHighMulInt16(-32768, -32768)).toBe(32767);
    expect(saturatingRoundingDoublingHighMulInt16(16384, 16384)).toBe(8192);
    expect(saturatingRoundingDoublingHighMulInt16(1 << 7, 1 << 7)).toBe(1); // +0.5 → 1
    expect(saturatingRoundingDoublingHighMulInt16(-(1 << 7), 1 << 7)).toBe(0); // -0.5 → 0
  });
  it('counts leading sign bits like __builtin_clrsb', () => {
    expect(countLeadingSignBits32(0)).toBe(31);
    expect(countLeadingSignBits32(-1)).toBe(31);
    expect(countLeadingSignBits32(1)).toBe(30);
    expect(countLeadingSignBits32(-2)).toBe(30);
    expect(countLeadingSignBits32(MAX)).toBe(0);
    expect(countLeadingSignBits32(MIN)).toBe(0);
  });
  it('One() of each format', () => {
    expect(fixedPointOne(0)).toBe(MAX);
    expect(fixedPointOne(2)).toBe(1 << 29);
    expect(fixedPointOne(12)).toBe(1 << 19);
  });
});

describe('exp_on_negative_values', () => {
  it('is exactly One() at 0 and exp(-1/4) on the interval boundary', () => {
    expect(expOnNegativeValues(0, 5)).toBe(MAX);
    expect(expOnNegativeValues(0, 0)).toBe(MAX);
    // 4th-order Taylor around -1/8: e^(-1/8) * (1 + x + x^2/2 + x^3/6 + x^4/24) at x = -1/8
    const x = -1 / 8;
    const taylor = Math.exp(-1 / 8) * (1 + x + x ** 2 / 2 + x ** 3 / 6 + x ** 4 / 24);
    const quarter = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(-(1 << 29));
    expect(Math.abs(quarter - taylor * Q31)).toBeLessThan(8);
  });
  it("follows exp within gemmlowp's 4th-order accuracy over [-16, 0] in Q5.26", () => {
    let worst = 0;
    for (let i = 1; i <= 4000; i++) {
      const a = -Math.round((i / 4000) * 16 * 2 ** 26);
      const got = expOnNegativeValues(a, 5) / Q31;
      worst = Math.max(worst, Math.abs(got - Math.exp(a / 2 ** 26)));
    }
    expect(worst).toBeLessThan(2.5e-7);
  });
  it('uses the barrel shifter: exp(-1) = exp(-1/4) * exp(-1/4) * exp(-1/2)', () => {
    const r = expOnNegativeValues(-(1 << 26), 5);
    expect(Math.abs(r - 790015084)).toBeLessThan(2.5e-7 * Q31);
  });
  it('flushes inputs below -32 to zero when there are more than 5 integer bits', () => {
    // without the clamp the 2^5 bit of -40 would be ignored by the barrel shifter (exp(-8) ≠ 0)
    expect(expOnNegativeValues(-(40 << 24), 7)).toBe(0);
    expect(Math.abs(expOnNegativeValues(-(8 << 24), 7) - Math.exp(-8) * Q31)).toBeLessThan(100);
    expect(expOnNegativeValues(MIN, 5)).toBe(0); // -32 in Q5.26: exp(-32) underflows Q0.31
  });
});

describe('one_over_one_plus_x_for_x_in_0_1 and GetReciprocal', () => {
  it('approximates 1/(1+x) over [0, 1)', () => {
    let worst = 0;
    for (let i = 0; i < 2000; i++) {
      const x = Math.floor((i / 2000) * MAX);
      const got = oneOverOnePlusXForXIn01(x) / Q31;
      worst = Math.max(worst, Math.abs(got - 1 / (1 + x / Q31)));
    }
    expect(worst).toBeLessThan(1e-8);
    expect(oneOverOnePlusXForXIn01(0)).toBeGreaterThan(MAX - 4); // ≈ 1
  });
  it('returns 1/x normalised and the bits over unit', () => {
    const bits = new Int32Array(1);
    // x = 3.0 in Q12.19: 1/3 = (2/3) * 2^-1 → shifted scale ≈ 2/3, num_bits_over_unit = 1
    const raw = getReciprocal(3 << 19, 12, bits);
    expect(bits[0]).toBe(1);
    expect(Math.abs(raw / Q31 - 2 / 3)).toBeLessThan(1e-8);
    // x = 1.0: headroom 12, nothing over unit, reciprocal ≈ 1
    expect(getReciprocal(1 << 19, 12, bits)).toBeGreaterThan(MAX - 4);
    expect(bits[0]).toBe(0);
  });
});
