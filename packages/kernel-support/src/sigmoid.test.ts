import { describe, expect, it } from 'vitest';
import {
  SigmoidFunction,
  fixedPointLogistic,
  fixedPointTanh,
  int16ActivationParams,
  int16SigmoidEvalRescale,
  int8ActivationParams,
  oneMinusXOverOnePlusXForXIn01,
  sigmoidInt8Table,
  sigmoidInt8Value,
  sigmoidUint8Table,
} from './sigmoid.js';

const Q31 = 2147483648;
describe('gemmlowp fixed-point functions', () => {
  it('(1 - x) / (1 + x) is accurate to a few ulps of Q0.31 on (0, 1)', () => {
    for (const x of [0.001, 0.25, 0.5, 0.75, 0.999]) {
      const got = oneMinusXOverOnePlusXForXIn01(Math.round(x * Q31)) / Q31;
      expect(Math.abs(got - (1 - x) / (1 + x))).toBeLessThan(1e-8);
    }
  });

  it('logistic and tanh of Q4.27 inputs approximate the real functions and are odd/complementary', () => {
    for (const x of [-7.5, -3, -1, -0.125, 0.125, 1, 3, 7.5]) {
      const raw = Math.round(x * 2 ** 27);
      const l = fixedPointLogistic(raw, 4) / Q31;
      const t = fixedPointTanh(raw, 4) / Q31;
      expect(Math.abs(l - 1 / (1 + Math.exp(-x)))).toBeLessThan(1e-6);
      expect(Math.abs(t - Math.tanh(x))).toBeLessThan(1e-6);
      expect(fixedPointTanh(-raw, 4)).toBe(-fixedPointTanh(raw, 4));
      expect(fixedPointLogistic(raw, 4) + fixedPointLogistic(-raw, 4)).toBe(2147483647);
    }
    expect(fixedPointLogistic(0, 4)).toBe(1 << 30);
    expect(fixedPointTanh(0, 4)).toBe(0);
  });
});

describe('TFLM input rescaling', () => {
  it('int8: frexp(scale * 2^27) and the saturation radius', () => {
    // 0.1 * 2^27 = 13421772.8 = 0.8 * 2^24
    expect(int8ActivationParams(Math.fround(0.1))).toEqual({ multiplier: Math.round(0.800000011920929 * Q31), leftShift: 24, radius: 120 });
    expect(int8ActivationParams(0.5)).toEqual({ multiplier: 1 << 30, leftShift: 27, radius: 15 });
  });

  it('int16: power-of-two shortcut and general multiplier', () => {
    expect(int16ActivationParams(1 / 4096, 0)).toEqual({ multiplier: 0, leftShift: 0 });
    // 2^-11 is a power-of-two shortcut only for TANH (left shift 1 allowed).
    expect(int16ActivationParams(1 / 2048, 1)).toEqual({ multiplier: 0, leftShift: 1 });
    // For LOGISTIC it is rescaled: 2^-11 * 12288 = 6, doubled 12 times to 24576.
    expect(int16ActivationParams(1 / 2048, 0)).toEqual({ multiplier: 24576, leftShift: 12 });
    // 0.001 * 12288 = 12.288, doubled 11 times to 25165.8 -> 25165
    expect(int16ActivationParams(0.001, 0)).toEqual({ multiplier: 25165, leftShift: 11 });
    expect(int16ActivationParams(4, 0)).toMatch(/too large for the int16 lookup/);
  });

  it('int16: what the eval makes of the words (power of two: 3 << leftShift, no shift)', () => {
    expect(int16SigmoidEvalRescale({ multiplier: 0, leftShift: 1 })).toEqual({ multiplier: 6, shift: 0, round: 0 });
    expect(int16SigmoidEvalRescale({ multiplier: 25165, leftShift: 11 })).toEqual({ multiplier: 25165, shift: 11, round: 1024 });
  });
});

describe('256-entry tables', () => {
  it("the int8 table holds each byte's own sigmoidInt8Value, near the real function", () => {
    for (const fn of [SigmoidFunction.Logistic, SigmoidFunction.Tanh]) {
      for (const [scale, zp] of [
        [0.1, 3],
        [0.02, -128],
        [1 / 16, 0],
      ] as const) {
        const p = int8ActivationParams(Math.fround(scale));
        const table = new Int8Array(256);
        sigmoidInt8Table(fn, zp, p, table);
        for (let x = -128; x < 128; x++) {
          const v = table[x & 255]!;
          expect(v).toBe(sigmoidInt8Value(fn, x - zp, p.radius, p.multiplier, p.leftShift));
          const real =
            fn === SigmoidFunction.Tanh
              ? Math.tanh(Math.fround(scale) * (x - zp)) * 128
              : 256 / (1 + Math.exp(-Math.fround(scale) * (x - zp))) - 128;
          expect(Math.abs(v - Math.min(127, Math.max(-128, real)))).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('the uint8 table rounds the float32 function to the output quantization', () => {
    const table = new Uint8Array(256);
    sigmoidUint8Table(SigmoidFunction.Logistic, 0.05, 128, 1 / 256, 0, table);
    expect(table[128]).toBe(128);
    expect(table[0]).toBe(Math.round(256 / (1 + Math.exp(6.4))));
    expect(table[255]).toBe(255);
    sigmoidUint8Table(SigmoidFunction.Tanh, 0.05, 128, 1 / 128, 128, table);
    expect(table[128]).toBe(128);
    expect(table[0]).toBe(Math.round(Math.tanh(-6.4) * 128) + 128);
  });
});
