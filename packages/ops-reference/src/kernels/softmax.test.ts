import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { measureAllocation } from '@micrort/test-support/alloc';
import { SOFTMAX } from './softmax.js';

function run(input: HarnessTensorSpec, output: HarnessTensorSpec, beta = 1): KernelHarness {
  return new KernelHarness({ registration: SOFTMAX, tensors: [input, output], inputs: [0], outputs: [1], builtinData: { beta } }).invoke();
}
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

function softmaxRef(xs: number[], beta: number): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp((x - m) * beta));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

describe('SOFTMAX float32', () => {
  it('normalises each row of the last dimension, with beta', () => {
    const x = [1, 2, 3, -1, 0, 4];
    const h = run({ type: TensorType.FLOAT32, shape: [2, 3], data: x }, { type: TensorType.FLOAT32, shape: [2, 3] }, 0.5);
    const want = [...softmaxRef(x.slice(0, 3), 0.5), ...softmaxRef(x.slice(3), 0.5)];
    h.outputArray().forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThan(1e-6));
  });
  it('is exactly uniform for equal inputs and one-hot for a dominant input', () => {
    expect(
      run({ type: TensorType.FLOAT32, shape: [4], data: [3, 3, 3, 3] }, { type: TensorType.FLOAT32, shape: [4] }).outputArray(),
    ).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(run({ type: TensorType.FLOAT32, shape: [2], data: [0, -1000] }, { type: TensorType.FLOAT32, shape: [2] }).outputArray()).toEqual(
      [1, 0],
    );
  });
});

const u8 = (shape: number[], scale: number, zeroPoint: number, data?: number[]): HarnessTensorSpec => ({
  type: TensorType.UINT8,
  shape,
  data,
  scale,
  zeroPoint,
});

describe('SOFTMAX uint8 (TFLite: float exp table, (int)(p + 0.5f))', () => {
  it("matches the float formula of TFLite's kernel and stays within one step of the exact softmax", () => {
    const f = Math.fround;
    let seed = 11;
    const r = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) & 0xff;
    for (let t = 0; t < 20; t++) {
      const scale = f(0.01 + (t % 7) * 0.03);
      const x = [...Array(12)].map(() => r());
      const got = run(u8([1, 12], scale, 128, x), u8([1, 12], 1 / 256, 0)).outputArray();
      // TFLite: e(v) = expf(-scale * (max - v)), p = e * (1 / (sum(e) * 1/256)), out = (int)(p + 0.5f)
      const m = Math.max(...x);
      const e = x.map((v) => f(Math.exp(f(f(-scale) * (m - v)))));
      let sum = 0;
      for (const v of e) sum = f(sum + v);
      const inv = f(1 / f(sum * f(1 / 256)));
      expect(got).toEqual(e.map((v) => Math.min(255, Math.trunc(f(f(v * inv) + 0.5)))));
      const exact = softmaxRef(
        x.map((v) => v * scale),
        1,
      );
      got.forEach((v, i) => expect(Math.abs(v / 256 - exact[i]!)).toBeLessThanOrEqual(1 / 256 + 1e-6));
    }
  });
  it('gives 64 (0.25) for four equal inputs, 255 for one element, and int16 outputs roundf(p) + zero point', () => {
    expect(run(u8([2, 4], 0.5, 7, [9, 9, 9, 9, 0, 0, 0, 0]), u8([2, 4], 1 / 256, 0)).outputArray()).toEqual([
      64, 64, 64, 64, 64, 64, 64, 64,
    ]);
    expect(run(u8([1], 0.5, 7, [3]), u8([1], 1 / 256, 0)).outputArray()).toEqual([255]);
    expect(run(u8([4], 0.5, 0, [1, 1, 1, 1]), i16([4], 1 / 65536, -32768)).outputArray()).toEqual([-16384, -16384, -16384, -16384]);
  });
  it('keeps the table in a persistent 1 KiB region and rejects a uint8 output with a zero point', () => {
    const h = new KernelHarness({
      registration: SOFTMAX,
      tensors: [u8([3], 0.1, 0, [1, 2, 3]), u8([3], 1 / 256, 0)],
      inputs: [0],
      outputs: [1],
      builtinData: { beta: 1 },
    }).prepare();
    expect(h.persistentBytes).toBe(80 + 1024);
    expect(() => run(u8([2], 0.1, 0, [1, 2]), u8([2], 1 / 256, 128))).toThrow(/zero point 0/);
    expect(() => run(u8([2], 0.1, 0, [1, 2]), i8([2], 1 / 256, -128))).toThrow(/uint8 or int16 output/);
  });
});

describe('SOFTMAX int8', () => {
  it('gives -64 (0.25) for four equal inputs and 127 for a single element', () => {
    expect(run(i8([1, 4], 0.1, 3, [5, 5, 5, 5]), i8([1, 4], 1 / 256, -128)).outputArray()).toEqual([-64, -64, -64, -64]);
    expect(run(i8([1, 1], 0.1, 0, [-100]), i8([1, 1], 1 / 256, -128)).outputArray()).toEqual([127]);
  });
  it('outputs the minimum for differences below diff_min', () => {
    // scale 1, beta 1: multiplier 2^30, left shift 27; diff_min = -floor(31 * 2^26 / 2^27) = -15
    const h = run(i8([1, 3], 1, 0, [10, -6, -5]), i8([1, 3], 1 / 256, -128));
    expect(h.outputArray()).toEqual([127, -128, -128]);
  });
  it('stays within one step of the float softmax on random rows (int8 and int16 outputs)', () => {
    let seed = 7;
    const r = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) & 0xff;
    for (let t = 0; t < 10; t++) {
      const scale = Math.fround(0.02 + (t % 5) * 0.05);
      const x = [...Array(10)].map(() => r() - 128);
      const want = softmaxRef(
        x.map((v) => v * scale),
        1,
      );
      const o8 = run(i8([1, 10], scale, 0, x), i8([1, 10], 1 / 256, -128)).outputArray();
      o8.forEach((v, i) => expect(Math.abs((v + 128) / 256 - want[i]!)).toBeLessThanOrEqual(1 / 256 + 1e-9));
      const o16 = run(i8([1, 10], scale, 0, x), i16([1, 10], 1 / 65536, -32768)).outputArray();
      o16.forEach((v, i) => expect(Math.abs((v + 32768) / 65536 - want[i]!)).toBeLessThanOrEqual(2 / 65536));
    }
  });
  it('gives -16384 (0.25) in int16 for four equal inputs', () => {
    expect(run(i8([4], 0.5, 0, [1, 1, 1, 1]), i16([4], 1 / 65536, -32768)).outputArray()).toEqual([-16384, -16384, -16384, -16384]);
  });
  it('rejects output quantization other than TFLM requires', () => {
    expect(() => run(i8([2], 0.1, 0, [1, 2]), i8([2], 1 / 255, -128))).toThrow(/scale 0.00390625/);
    expect(() => run(i8([2], 0.1, 0, [1, 2]), i8([2], 1 / 256, 0))).toThrow(/zero point -128/);
    expect(() => run(i8([2], 0.1, 0, [1, 2]), i16([2], 1 / 65536, 0))).toThrow(/zero point -32768/);
    expect(() => run(i8([2], 0.1, 0, [1, 2]), { type: TensorType.FLOAT32, shape: [2] })).toThrow(/not supported/);
    expect(() => run({ type: TensorType.INT32, shape: [2], data: [1, 2] }, i8([2], 1 / 256, -128))).toThrow(/unsupported input type int32/);
    expect(() => run(i8([2], 1e-9, 0, [1, 2]), i8([2], 1 / 256, -128))).toThrow(/too small/);
  });
  it('does not allocate in invoke', () => {
    const h = new KernelHarness({
      registration: SOFTMAX,
      tensors: [i8([2, 5], 0.25, 1, [1, 2, 3, 4, 5, -5, -4, -3, -2, -1]), i8([2, 5], 1 / 256, -128)],
      inputs: [0],
      outputs: [1],
      builtinData: { beta: 1 },
    }).prepare();
    const ctx = { ...h.context, getEvalTensor: (i: number) => h.tensors[i]! };
    expect(leastAllocation(() => SOFTMAX.invoke(ctx, h.node))).toBeLessThan(8);
  });
});

describe('SOFTMAX int16', () => {
  it('keeps its two 513-entry LUTs in the arena', () => {
    const h = new KernelHarness({
      registration: SOFTMAX,
      tensors: [i16([2], 1 / 4096, 0, [0, 0]), i16([2], 1 / 32768, 0)],
      inputs: [0],
      outputs: [1],
      builtinData: { beta: 1 },
    }).prepare();
    expect(h.persistentBytes).toBe(80 + 2 * 1040); // SoftmaxParams + 2 x 1026 bytes, 16-byte aligned
  });
  it('is ≈ 0.5 for two equal inputs and ≈ 1 / 0 for a dominant one', () => {
    const eq = run(i16([2], 1 / 4096, 0, [100, 100]), i16([2], 1 / 32768, 0)).outputArray();
    eq.forEach((v) => expect(Math.abs(v - 16384)).toBeLessThanOrEqual(1));
    const dom = run(i16([2], 1 / 1024, 0, [32767, -32768]), i16([2], 1 / 32768, 0)).outputArray();
    expect(dom[0]).toBeGreaterThanOrEqual(32766);
    expect(dom[1]).toBeLessThanOrEqual(2); // the exp LUT bottoms out at lut[0] = 2 (exp(-10) * 32768 ≈ 1.5, bias-corrected)
  });
  it('stays within a few steps of the float softmax', () => {
    let seed = 3;
    const r = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) & 0xffff;
    for (let t = 0; t < 6; t++) {
      const scale = 1 / 8192;
      const x = [...Array(8)].map(() => (r() % 20000) - 10000);
      const want = softmaxRef(
        x.map((v) => v * scale),
        1,
      );
      const got = run(i16([8], scale, 0, x), i16([8], 1 / 32768, 0)).outputArray();
      got.forEach((v, i) => expect(Math.abs(v / 32768 - want[i]!)).toBeLessThan(4e-3));
    }
  });
  it('rejects a wrong int16 output scale', () => {
    expect(() => run(i16([2], 1 / 4096, 0, [1, 2]), i16([2], 1 / 16384, 0))).toThrow(/≈ 0.000030517578125/);
  });
});

/** Bytes per invoke, the least of three measurements (JIT tiering on a busy machine can add a few bytes to one run). */
function leastAllocation(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= 8; i++)
    best = Math.min(best, measureAllocation(fn, { warmup: 5000, trials: 5, iterations: 2000 }).bytesPerCall);
  return best;
}
