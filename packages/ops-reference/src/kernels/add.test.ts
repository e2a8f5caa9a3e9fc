import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, TensorType, type AddOptions } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { ADD } from './add.js';

const opts = (fusedActivationFunction = ActivationFunctionType.NONE, potScaleInt16 = true): AddOptions => ({
  fusedActivationFunction,
  potScaleInt16,
});

function run(a: HarnessTensorSpec, b: HarnessTensorSpec, out: HarnessTensorSpec, o = opts()): KernelHarness {
  return new KernelHarness({ registration: ADD, tensors: [a, b, out], inputs: [0, 1], outputs: [2], builtinData: o }).invoke();
}

const f32 = (shape: number[], data?: number[]): HarnessTensorSpec => ({ type: TensorType.FLOAT32, shape, data });
const i8 = (shape: number[], scale: number, zeroPoint: number, data?: number[]): HarnessTensorSpec => ({
  type: TensorType.INT8,
  shape,
  data,
  scale,
  zeroPoint,
});
const i16 = (shape: number[], scale: number, zeroPoint: number, data?: number[]): HarnessTensorSpec => ({
  type: TensorType.INT16,
  shape,
  data,
  scale,
  zeroPoint,
});

/** Numpy-style broadcast reference for the tests (index arithmetic, independent of BroadcastPlan). */
function broadcast(sa: number[], a: number[], sb: number[], b: number[], f: (x: number, y: number) => number): number[] {
  const rank = Math.max(sa.length, sb.length);
  const ea = [...Array(rank - sa.length).fill(1), ...sa];
  const eb = [...Array(rank - sb.length).fill(1), ...sb];
  const so = ea.map((d, i) => Math.max(d, eb[i]!));
  const total = so.reduce((x, y) => x * y, 1);
  const out: number[] = [];
  for (let flat = 0; flat < total; flat++) {
    let rem = flat;
    let ia = 0;
    let ib = 0;
    let sta = 1;
    let stb = 1;
    for (let d = rank - 1; d >= 0; d--) {
      const idx = rem % so[d]!;
      rem = Math.floor(rem / so[d]!);
      ia += (ea[d] === 1 ? 0 : idx) * sta;
      ib += (eb[d] === 1 ? 0 : idx) * stb;
      sta *= ea[d]!;
      stb *= eb[d]!;
    }
    out.push(f(a[ia]!, b[ib]!));
  }
  return out;
}

/** TFLM general quantized add for one element, with BigInt (independent of the kernel's fixed-point code). */
function tflmAddOracle(
  a: number,
  b: number,
  s1: number,
  z1: number,
  s2: number,
  z2: number,
  so: number,
  zo: number,
  leftShift: number,
  lo: number,
  hi: number,
): number {
  const q = (real: number): [number, number] => {
    let e = Math.floor(Math.log2(real)) + 1;
    while (real / 2 ** e >= 1) e++;
    while (real / 2 ** e < 0.5) e--;
    let m = Math.round((real / 2 ** e) * 2 ** 31);
    if (m === 2 ** 31) {
      m /= 2;
      e++;
    }
    return [m, e];
  };
  const mul = (x: number, [m, shift]: [number, number]): number => {
    const ab = BigInt(x) * BigInt(m);
    const nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
    const hi32 = Number((ab + nudge) / (1n << 31n));
    const e = -shift;
    const mask = 2 ** e - 1;
    const rem = Number(BigInt(hi32) & BigInt(mask));
    const threshold = Math.floor(mask / 2) + (hi32 < 0 ? 1 : 0);
    return Number(BigInt(hi32) >> BigInt(e)) + (rem > threshold ? 1 : 0);
  };
  const twiceMax = 2 * Math.max(s1, s2);
  const x1 = mul((a - z1) * 2 ** leftShift, q(s1 / twiceMax));
  const x2 = mul((b - z2) * 2 ** leftShift, q(s2 / twiceMax));
  const r = mul(x1 + x2, q(twiceMax / (2 ** leftShift * so))) + zo;
  return Math.min(hi, Math.max(lo, r));
}

describe('ADD float32', () => {
  it('adds elementwise and with broadcasting', () => {
    expect(run(f32([2, 2], [1, 2, 3, 4]), f32([2, 2], [0.5, -2, 10, 0]), f32([2, 2])).outputArray()).toEqual([1.5, 0, 13, 4]);
    expect(run(f32([2, 3], [1, 2, 3, 4, 5, 6]), f32([3], [10, 20, 30]), f32([2, 3])).outputArray()).toEqual([11, 22, 33, 14, 25, 36]);
    expect(run(f32([2, 1], [1, 2]), f32([1, 3], [10, 20, 30]), f32([2, 3])).outputArray()).toEqual([11, 21, 31, 12, 22, 32]);
  });
  it('applies RELU6 and RELU_N1_TO_1', () => {
    expect(run(f32([4], [-3, 1, 5.5, 8]), f32([4], [1, 1, 1, 1]), f32([4]), opts(ActivationFunctionType.RELU6)).outputArray()).toEqual([
      0, 2, 6, 6,
    ]);
    expect(run(f32([3], [-3, 0.25, 5]), f32([3], [0, 0, 0]), f32([3]), opts(ActivationFunctionType.RELU_N1_TO_1)).outputArray()).toEqual([
      -1, 0.25, 1,
    ]);
  });
  it('rounds the sum to float32', () => {
    const h = run(f32([1], [1]), f32([1], [2 ** -30]), f32([1]));
    expect(h.outputArray()).toEqual([1]);
  });
  it('broadcasts over 6 dimensions and rejects 7', () => {
    const sa = [1, 2, 1, 2, 1, 2];
    const sb = [2, 1, 2, 1, 2, 1];
    const a = [...Array(8)].map((_, i) => i);
    const b = [...Array(8)].map((_, i) => 100 * i);
    const h = run(f32(sa, a), f32(sb, b), f32([2, 2, 2, 2, 2, 2]));
    expect(h.outputArray()).toEqual(broadcast(sa, a, sb, b, (x, y) => x + y));
    expect(() => run(f32([2, 1, 1, 1, 1, 1, 1]), f32([1, 1, 1, 1, 1, 1, 2]), f32([2, 1, 1, 1, 1, 1, 2]))).toThrow(/at most 6 dimensions/);
  });
  it('rejects mismatched types, shapes that do not broadcast, and a wrong output shape', () => {
    expect(() => run(f32([2]), i8([2], 1, 0), f32([2]))).toThrow(/types differ/);
    expect(() => run(f32([2]), f32([3]), f32([3]))).toThrow(/cannot be broadcast/);
    expect(() => run(f32([2, 1]), f32([3]), f32([3, 2]))).toThrow(/expected the broadcast shape/);
  });
});

describe('ADD int32', () => {
  it('wraps around like the C code and ignores quantization-free activation', () => {
    const a = { type: TensorType.INT32, shape: [3], data: [2147483647, -5, 7] };
    const b = { type: TensorType.INT32, shape: [3], data: [1, -10, 3] };
    expect(run(a, b, { type: TensorType.INT32, shape: [3] }).outputArray()).toEqual([-2147483648, -15, 10]);
  });
  it('rejects quantized int32 inputs', () => {
    const a = { type: TensorType.INT32, shape: [1], data: [1], scale: 1, zeroPoint: 0 };
    expect(() => run(a, { type: TensorType.INT32, shape: [1], data: [1] }, { type: TensorType.INT32, shape: [1] })).toThrow(
      /must not be quantized/,
    );
  });
});

describe('ADD int8 / int16 (general quantized path)', () => {
  it('is exact when all scales are equal', () => {
    const h = run(i8([4], 0.5, 0, [1, -3, 100, -128]), i8([4], 0.5, 0, [2, -4, 27, 0]), i8([4], 0.5, 0));
    expect(h.outputArray()).toEqual([3, -7, 127, -128]);
  });
  it('honours zero points, including at the ends of the range', () => {
    const h = run(i8([3], 0.5, -128, [-128, 127, 0]), i8([3], 0.5, 127, [127, -128, 0]), i8([3], 0.5, -1));
    // reals: (0 + 0), (127.5 + -127.5), (64 + -63.5) → q = -1, -1, -1 + 1 = 0
    expect(h.outputArray()).toEqual([-1, -1, 0]);
  });
  it('rounds a half away from zero when the output scale halves the sum', () => {
    const h = run(i8([4], 0.5, 0, [1, -1, 2, -2]), i8([4], 0.5, 0, [2, -2, 1, -1]), i8([4], 1, 0));
    expect(h.outputArray()).toEqual([2, -2, 2, -2]); // ±1.5 → ±2
  });
  it('saturates and applies RELU in the quantized domain', () => {
    const h = run(i8([3], 1, 0, [100, -100, 5]), i8([3], 1, 0, [100, -100, -20]), i8([3], 1, 10), opts(ActivationFunctionType.RELU));
    expect(h.outputArray()).toEqual([127, 10, 10]);
  });
  it('matches a BigInt re-derivation of TFLM with broadcasting (int8 and int16)', () => {
    let seed = 42;
    const r = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) & 0xffff;
    for (let t = 0; t < 24; t++) {
      const int16 = t % 2 === 1;
      const range = int16 ? 65536 : 256;
      const min = -range / 2;
      const max = range / 2 - 1;
      const s1 = Math.fround(0.01 + (r() % 500) / 1000);
      const s2 = Math.fround(0.01 + (r() % 500) / 1000);
      const so = Math.fround(0.02 + (r() % 800) / 1000);
      const z = () => (int16 ? 0 : (r() % 256) - 128);
      const [z1, z2, zo] = [z(), z(), z()];
      const sa = t % 3 === 0 ? [2, 3] : [2, 1, 3];
      const sb = t % 3 === 0 ? [2, 3] : [4, 1];
      const na = sa.reduce((x, y) => x * y, 1);
      const nb = sb.reduce((x, y) => x * y, 1);
      const a = [...Array(na)].map(() => min + (r() % range));
      const b = [...Array(nb)].map(() => min + (r() % range));
      const so_ = broadcast(sa, a, sb, b, () => 0).length;
      const outShape = t % 3 === 0 ? [2, 3] : [2, 4, 3];
      expect(outShape.reduce((x, y) => x * y, 1)).toBe(so_);
      const mk = int16 ? i16 : i8;
      const got = run(mk(sa, s1, z1, a), mk(sb, s2, z2, b), mk(outShape, so, zo)).outputArray();
      const want = broadcast(sa, a, sb, b, (x, y) => tflmAddOracle(x, y, s1, z1, s2, z2, so, zo, int16 ? 15 : 20, min, max));
      expect(got, `trial ${t}`).toEqual(want);
    }
  });
  it('rejects an unquantized int8 input', () => {
    expect(() => run({ type: TensorType.INT8, shape: [1], data: [1] }, i8([1], 1, 0, [1]), i8([1], 1, 0))).toThrow(
      /needs affine quantization/,
    );
  });
});
