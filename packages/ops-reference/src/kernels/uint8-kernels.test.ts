/**
 * TFLite's uint8 paths of the elementwise, activation, FULLY_CONNECTED and QUANTIZE kernels against
 * direct transcriptions of TFLite's reference formulas (built from core's quantization primitives), on
 * random data. The TFLite oracle tests (test/uint8-vs-tflite.test.ts) check the same kernels against
 * TFLite itself when its addon is installed.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType as A,
  TensorType,
  expF32,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  quantizeMultiplier,
  quantizeMultiplierSmallerThanOneExp,
  type Registration,
} from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { ADD } from './add.js';
import { SUB } from './sub.js';
import { MUL } from './mul.js';
import { DIV } from './div.js';
import { FULLY_CONNECTED } from './fully-connected.js';
import { LOGISTIC } from './logistic.js';
import { TANH } from './tanh.js';
import { RELU6 } from './relu6.js';
import { LEAKY_RELU } from './leaky-relu.js';
import { QUANTIZE } from './quantize.js';
import { lcg } from './__fixtures__/conv-testing.js';

const f = Math.fround;
const U = TensorType.UINT8;
const u8 = (shape: number[], scale: number, zeroPoint: number, data?: number[]): HarnessTensorSpec => ({
  type: U,
  shape,
  scale,
  zeroPoint,
  data,
});
const clamp = (v: number, lo = 0, hi = 255) => (v < lo ? lo : v > hi ? hi : v);
const roundAway = (x: number) => (x < 0 ? -Math.round(-x) : Math.round(x));
const next = lcg(2024);
const bytes = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 256));

function binary(
  reg: Registration,
  a: HarnessTensorSpec,
  b: HarnessTensorSpec,
  out: HarnessTensorSpec,
  builtinData: object = { fusedActivationFunction: A.NONE },
): number[] {
  return new KernelHarness({ registration: reg, tensors: [a, b, out], inputs: [0, 1], outputs: [2], builtinData: builtinData as never })
    .invoke()
    .outputArray();
}
function unary(reg: Registration, x: HarnessTensorSpec, out: HarnessTensorSpec, builtinData: object | null = null): number[] {
  return new KernelHarness({ registration: reg, tensors: [x, out], inputs: [0], outputs: [1], builtinData: builtinData as never })
    .invoke()
    .outputArray();
}

describe('uint8 ADD and SUB (TFLite general path: left shift 20, double multipliers)', () => {
  it.each([
    ['ADD', ADD, 1],
    ['SUB', SUB, -1],
  ] as const)('%s', (_, reg, sign) => {
    for (let t = 0; t < 4; t++) {
      const [s1, s2, so] = [f(0.01 + next() * 0.1), f(0.01 + next() * 0.1), f(0.02 + next() * 0.1)];
      const [z1, z2, zo] = [Math.floor(next() * 256), Math.floor(next() * 256), Math.floor(next() * 256)];
      const a = bytes(24),
        b = bytes(24);
      const got = binary(reg, u8([2, 12], s1, z1, a), u8([2, 12], s2, z2, b), u8([2, 12], so, zo));
      const twice = 2 * Math.max(s1, s2);
      const m1 = quantizeMultiplierSmallerThanOneExp(s1 / twice);
      const m2 = quantizeMultiplierSmallerThanOneExp(s2 / twice);
      const mo = quantizeMultiplierSmallerThanOneExp(twice / (2 ** 20 * so));
      const want = a.map((x, i) => {
        const x1 = multiplyByQuantizedMultiplierSmallerThanOneExp((x - z1) * 2 ** 20, m1.multiplier, m1.shift);
        const x2 = multiplyByQuantizedMultiplierSmallerThanOneExp((b[i]! - z2) * 2 ** 20, m2.multiplier, m2.shift);
        return clamp(multiplyByQuantizedMultiplierSmallerThanOneExp(x1 + sign * x2, mo.multiplier, mo.shift) + zo);
      });
      expect(got).toEqual(want);
    }
  });
});

describe('uint8 MUL and DIV', () => {
  it('MUL: zp_out + MultiplyByQuantizedMultiplier((a - zp1)(b - zp2), s1 s2 / s_out), RELU6 clamp', () => {
    const [s1, s2, so, z1, z2, zo] = [f(0.05), f(0.07), f(0.02), 120, 3, 10];
    const a = bytes(16),
      b = bytes(16);
    const got = binary(MUL, u8([16], s1, z1, a), u8([16], s2, z2, b), u8([16], so, zo), { fusedActivationFunction: A.RELU6 });
    const m = quantizeMultiplier((s1 * s2) / so);
    const hi = Math.min(255, zo + roundAway(f(6 / so)));
    expect(got).toEqual(a.map((x, i) => clamp(zo + multiplyByQuantizedMultiplier((x - z1) * (b[i]! - z2), m.multiplier, m.shift), zo, hi)));
  });
  it('DIV: exact quotients come out exact', () => {
    const got = binary(DIV, u8([4], 1, 0, [10, 200, 90, 7]), u8([4], 1, 0, [2, 4, 9, 7]), u8([4], 1, 0));
    expect(got).toEqual([5, 50, 10, 1]);
    // scales: (0.5 * 60) / (0.25 * 12) = 10 → 10 / 0.5 + 4 = 24
    expect(binary(DIV, u8([1], 0.5, 0, [60]), u8([1], 0.25, 0, [12]), u8([1], 0.5, 4))).toEqual([24]);
  });
});

describe('uint8 FULLY_CONNECTED (TFLite reference_ops::FullyConnected)', () => {
  it('(w - zp_w)(x - zp_x) summed, bias, multiplier from the float32 scale product', () => {
    const [si, sw, so, zi, zw, zo] = [f(0.02), f(0.005), f(0.1), 128, 117, 90];
    const x = bytes(2 * 10),
      w = bytes(3 * 10),
      bias = [100, -2000, 555];
    const got = new KernelHarness({
      registration: FULLY_CONNECTED,
      tensors: [
        u8([2, 10], si, zi, x),
        { ...u8([3, 10], sw, zw, w), constant: true },
        { type: TensorType.INT32, shape: [3], data: bias, scale: f(si * sw), zeroPoint: 0, constant: true },
        u8([2, 3], so, zo),
      ],
      inputs: [0, 1, 2],
      outputs: [3],
      builtinData: {
        fusedActivationFunction: A.NONE,
        weightsFormat: 0,
        keepNumDims: false,
        asymmetricQuantizeInputs: false,
        quantizedBiasType: 0,
      },
    })
      .invoke()
      .outputArray();
    const m = quantizeMultiplier(f(si * sw) / so);
    const want: number[] = [];
    for (let b = 0; b < 2; b++)
      for (let o = 0; o < 3; o++) {
        let acc = bias[o]!;
        for (let d = 0; d < 10; d++) acc += (w[o * 10 + d]! - zw) * (x[b * 10 + d]! - zi);
        want.push(clamp(multiplyByQuantizedMultiplier(acc, m.multiplier, m.shift) + zo));
      }
    expect(got).toEqual(want);
  });
});

describe('uint8 LOGISTIC and TANH (TFLite PopulateLookupTable<uint8_t>)', () => {
  const all = Array.from({ length: 256 }, (_, i) => i);
  const table = (fn: (x: number) => number, si: number, zi: number, so: number, zo: number) =>
    all.map((v) => clamp(Math.trunc(f(roundAway(f(fn(f(si * (v - zi))) * f(1 / so))) + zo))));
  it('LOGISTIC: output scale 1/256 required', () => {
    const [si, zi] = [f(0.06), 131];
    expect(unary(LOGISTIC, u8([256], si, zi, all), u8([256], 1 / 256, 0))).toEqual(
      table((x) => f(1 / f(1 + expF32(-x))), si, zi, 1 / 256, 0),
    );
    expect(() => unary(LOGISTIC, u8([1], si, zi, [0]), u8([1], 1 / 128, 0))).toThrow(/scale must be 1\/256/);
  });
  it('TANH: any output quantization', () => {
    const [si, zi, so, zo] = [f(0.03), 100, f(1 / 128), 128];
    expect(unary(TANH, u8([256], si, zi, all), u8([256], so, zo))).toEqual(table((x) => f(Math.tanh(x)), si, zi, so, zo));
  });
});

describe('uint8 RELU6, LEAKY_RELU and QUANTIZE', () => {
  it('RELU6 requantizes (QuantizedReluX with bounds 0 and 6), unlike TFLM int8', () => {
    const [si, zi, so, zo] = [f(0.05), 100, f(0.04), 7];
    const x = bytes(32);
    const m = quantizeMultiplier(f(si / so));
    const hi = Math.min(255, zo + roundAway(f(6 / so)));
    expect(unary(RELU6, u8([32], si, zi, x), u8([32], so, zo))).toEqual(
      x.map((v) => clamp(zo + multiplyByQuantizedMultiplier(v - zi, m.multiplier, m.shift), zo, hi)),
    );
  });
  it('LEAKY_RELU: identity multiplier for x >= zp, alpha multiplier below', () => {
    const [si, zi, so, zo, alpha] = [f(0.05), 100, f(0.03), 50, f(0.2)];
    const x = bytes(32);
    const id = quantizeMultiplier(f(si / so));
    const al = quantizeMultiplier(f(f(si * alpha) / so));
    const want = x.map((v) => {
      const d = v - zi;
      const q =
        d >= 0 ? multiplyByQuantizedMultiplier(d, id.multiplier, id.shift) : multiplyByQuantizedMultiplier(d, al.multiplier, al.shift);
      return clamp(zo + q);
    });
    expect(unary(LEAKY_RELU, u8([32], si, zi, x), u8([32], so, zo), { alpha })).toEqual(want);
  });
  it('QUANTIZE uint8 → uint8 requantizes with the double scale ratio', () => {
    const [si, zi, so, zo] = [f(0.05), 100, f(0.03), 20];
    const x = bytes(32);
    const m = quantizeMultiplier(si / so);
    expect(unary(QUANTIZE, u8([32], si, zi, x), u8([32], so, zo))).toEqual(
      x.map((v) => clamp(multiplyByQuantizedMultiplier(v - zi, m.multiplier, m.shift) + zo)),
    );
  });
});
