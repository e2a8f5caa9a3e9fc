/**
 * The cheaper int8 requantization (requantLanesRight, assembly/int8/requant.ts): one rounding of the
 * accumulator clamped to bounds expandRequant computes, instead of TFLM's two. First its arithmetic,
 * written out in TypeScript step by step as the kernel does it (the bounds in float64, the rest in int32),
 * against @micrort/core's scalar MultiplyByQuantizedMultiplier (TFLM's) over the whole int32 range, at
 * the bounds and the ties, for multipliers from 2^30 to 2^31 - 1 and every right shift it takes; then the
 * kernels themselves: 1x1
 * CONV_2D and 3x3 DEPTHWISE_CONV_2D layers with zero weights, so that every accumulator is its channel's
 * bias, drawn the same way, against ops-reference byte for byte.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  ModelBuilder,
  Padding,
  TensorType,
  multiplyByQuantizedMultiplier,
  quantizeMultiplier,
} from '@micrort/core';
import { int, pick, rng, runBoth } from '../__tests__/single-op.js';
import { RIGHT_ONLY_MAX_SHIFT, rightOnlyRange } from './kernel-common.js';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** TFLM's output: MultiplyByQuantizedMultiplier plus the zero point, clamped. */
function tflm(x: number, m: number, shift: number, zp: number, actMin: number, actMax: number): number {
  return Math.min(actMax, Math.max(actMin, multiplyByQuantizedMultiplier(x, m, shift) + zp));
}

/** The int32 high word of the 64-bit product a * b (a, b int32). */
function mulHigh(a: number, b: number): number {
  return Number((BigInt(a) * BigInt(b)) >> 32n);
}

/** Round half to even, as f64x2.nearest. */
function nearestEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
}

/** expandRequant's rightBound on one lane: an accumulator whose requantized value is `v`. */
function bound(v: number, m: number, r: number): number {
  const t = v * 2 ** (r + 1) - Math.sign(v);
  const inv = 2 ** 30 / m; // f64 division, as f64x2.div
  return nearestEven(t * inv);
}

/** requantRightWith's operations on one lane, in int32 arithmetic (plus the int8 narrowing, which never saturates here). */
function kernel(acc: number, m: number, r: number, xLo: number, xHi: number, zp: number): number {
  const c = Math.max(Math.min(acc, xHi), xLo);
  const scale = 2 ** (21 - r);
  const x = Math.imul(c, scale);
  expect(x / scale, 'the clamped accumulator times 2^(21-r) fits in int32').toBe(c);
  const h = mulHigh(x, m);
  const base = ((1 << 19) + (zp << 20) + (scale >>> 2)) | 0;
  const step = scale >>> 1;
  return ((h + (base - ((c >> 31) & step))) | 0) >> 20;
}

/** Accumulators to try for bounds [xLo, xHi] and right shift r: the edges, the bounds, near zero (the ties of both roundings), and the whole range. */
function accumulators(g: () => number, xLo: number, xHi: number, r: number): number[] {
  const xs = [INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1, -1, 2, -2];
  for (const b of [xLo, xHi]) for (let d = -3; d <= 3; d++) xs.push(b + d);
  const near = 2 ** (r + 2);
  for (let i = 0; i < 40; i++) xs.push(int(g, -near, near));
  for (let i = 0; i < 40; i++) xs.push(int(g, xLo - 8, xHi + 8));
  for (let i = 0; i < 40; i++) xs.push(int(g, INT32_MIN, INT32_MAX));
  return xs.map((x) => Math.min(INT32_MAX, Math.max(INT32_MIN, x)));
}

/** Output ranges to try: zero point and fused activation bounds. */
function outputRange(g: () => number): { zeroPoint: number; actMin: number; actMax: number } {
  const zeroPoint = pick(g, [-128, 127, 0, int(g, -128, 127)]);
  const act = pick(g, ['none', 'relu', 'relu6', 'narrow']);
  if (act === 'relu') return { zeroPoint, actMin: Math.max(-128, zeroPoint), actMax: 127 };
  if (act === 'relu6') return { zeroPoint, actMin: Math.max(-128, zeroPoint), actMax: Math.min(127, zeroPoint + int(g, 0, 40)) };
  if (act === 'narrow') {
    const v = int(g, -128, 127);
    return { zeroPoint, actMin: v, actMax: v };
  }
  return { zeroPoint, actMin: -128, actMax: 127 };
}

/** A multiplier in [2^30, 2^31): random, the ends, and multipliers of a few significant bits (exact ties). */
function multiplier(g: () => number): number {
  return pick(g, [
    int(g, 2 ** 30, INT32_MAX),
    2 ** 30,
    INT32_MAX,
    2 ** 30 + 1,
    INT32_MAX - 1,
    2 ** 30 + 2 ** 29,
    2 ** 30 + 2 ** int(g, 0, 29) * int(g, 0, 1),
  ]);
}

describe('requantLanesRight arithmetic equals TFLM MultiplyByQuantizedMultiplier', () => {
  it('for 3000 random multipliers, right shifts 1-19 and output ranges, at the bounds, the ties and over the whole int32 range', () => {
    const g = rng(2211);
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const m = multiplier(g);
      const r = int(g, 1, RIGHT_ONLY_MAX_SHIFT);
      const out = outputRange(g);
      expect(rightOnlyRange(Int32Array.of(m), Int32Array.of(-r), out)).not.toBeNull();
      const xLo = bound(out.actMin - out.zeroPoint, m, r);
      const xHi = bound(out.actMax - out.zeroPoint, m, r);
      // the bounds requantize to act_min and act_max exactly
      expect(tflm(xLo, m, -r, out.zeroPoint, -1e9, 1e9), JSON.stringify({ m, r, out })).toBe(out.actMin);
      expect(tflm(xHi, m, -r, out.zeroPoint, -1e9, 1e9), JSON.stringify({ m, r, out })).toBe(out.actMax);
      for (const x of accumulators(g, xLo, xHi, r)) {
        const want = tflm(x, m, -r, out.zeroPoint, out.actMin, out.actMax);
        const got = kernel(x, m, r, xLo, xHi, out.zeroPoint);
        if (got !== want) expect({ x, m, r, ...out, got }).toEqual({ x, m, r, ...out, got: want });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(350000);
  });

  it('declines left shifts, right shifts past 19 and multipliers below 2^30', () => {
    const out = { zeroPoint: 0, actMin: -128, actMax: 127 };
    expect(rightOnlyRange(Int32Array.of(2 ** 30), Int32Array.of(0), out)).toBeNull();
    expect(rightOnlyRange(Int32Array.of(2 ** 30), Int32Array.of(1), out)).toBeNull();
    expect(rightOnlyRange(Int32Array.of(2 ** 30), Int32Array.of(-20), out)).toBeNull();
    expect(rightOnlyRange(Int32Array.of(2 ** 30 - 1), Int32Array.of(-5), out)).toBeNull();
    expect(rightOnlyRange(Int32Array.of(0), Int32Array.of(-5), out)).toBeNull();
    expect(rightOnlyRange(Int32Array.of(2 ** 30, INT32_MAX), Int32Array.of(-1, -19), out)).toBe(out);
  });
});

/** A layer whose accumulators are its biases (zero weights), `channels` channels with effective scales 2^-r times a factor in [1/2, 1). */
function zeroWeightLayer(seed: number, depthwise: boolean) {
  const g = rng(seed);
  const channels = int(g, 1, 40);
  const zeroPoint = pick(g, [-128, 127, 0, int(g, -128, 127)]);
  const act = pick(g, [
    ActivationFunctionType.NONE,
    ActivationFunctionType.RELU,
    ActivationFunctionType.RELU6,
    ActivationFunctionType.RELU_N1_TO_1,
  ]);
  // TFLM's fused activation range at output scale 1
  const [lo, hi] =
    act === ActivationFunctionType.RELU
      ? [0, 127]
      : act === ActivationFunctionType.RELU6
        ? [0, 6]
        : act === ActivationFunctionType.RELU_N1_TO_1
          ? [-1, 1]
          : [-256, 256];
  const range = { zeroPoint, actMin: Math.max(-128, zeroPoint + lo), actMax: Math.min(127, zeroPoint + hi) };
  const inScale = 1;
  const outScale = 1;
  // effective scale = wScale (inScale = outScale = 1): factor * 2^-r, the factor exactly 1/2 (M = 2^30),
  // just below 1 (M near 2^31) or random; TFLM's shift -r with r in 1..19
  const wScales = Array.from({ length: channels }, () => {
    const r = int(g, 1, RIGHT_ONLY_MAX_SHIFT);
    const f = pick(g, [0.5, 1 - 2 ** -23, 0.5 + g() * 0.5]);
    return Math.fround(f * 2 ** -r);
  });
  const q = wScales.map((s) => quantizeMultiplier(s));
  const mult = Int32Array.from(q, (x) => x.multiplier);
  const shift = Int32Array.from(q, (x) => x.shift);
  const fast = rightOnlyRange(mult, shift, range) !== null;
  const bias = new Int32Array(channels);
  for (let c = 0; c < channels; c++) {
    const r = -shift[c]!;
    const [xLo, xHi] = [bound(range.actMin - zeroPoint, mult[c]!, r), bound(range.actMax - zeroPoint, mult[c]!, r)];
    bias[c] = pick(g, accumulators(g, xLo, xHi, r));
  }
  const b = new ModelBuilder();
  const k = depthwise ? 3 : 1;
  const inC = depthwise ? channels : 3;
  const inT = b.addTensor({
    name: 'in',
    type: TensorType.INT8,
    shape: [1, 3, 4, inC],
    quantization: { scale: inScale, zeroPoint: int(g, -128, 127) },
  });
  const filterShape = depthwise ? [1, k, k, channels] : [channels, k, k, inC];
  const wT = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: filterShape,
    data: new Int8Array(filterShape.reduce((a, x) => a * x, 1)),
    quantization: { scale: wScales, zeroPoint: wScales.map(() => 0), quantizedDimension: depthwise ? 3 : 0 },
  });
  const bT = b.addTensor({
    name: 'b',
    type: TensorType.INT32,
    shape: [channels],
    data: bias,
    quantization: { scale: wScales.map((s) => s * inScale), zeroPoint: wScales.map(() => 0) },
  });
  const outT = b.addTensor({
    name: 'out',
    type: TensorType.INT8,
    shape: [1, 3, 4, channels],
    quantization: { scale: outScale, zeroPoint },
  });
  b.addOperator({
    op: depthwise ? BuiltinOperator.DEPTHWISE_CONV_2D : BuiltinOperator.CONV_2D,
    version: 3,
    inputs: [inT, wT, bT],
    outputs: [outT],
    options: {
      padding: Padding.SAME,
      strideH: 1,
      strideW: 1,
      dilationHFactor: 1,
      dilationWFactor: 1,
      fusedActivationFunction: act,
      ...(depthwise ? { depthMultiplier: 1 } : {}),
    },
  });
  b.setInputs([inT]).setOutputs([outT]);
  const input = new Int8Array(12 * inC).map(() => int(g, -128, 127));
  return { def: b.buildDef(), input, rightOnly: fast, desc: JSON.stringify({ seed, depthwise, channels, zeroPoint, act }) };
}

describe('the kernels with requantLanesRight equal ops-reference byte for byte', () => {
  for (const depthwise of [false, true]) {
    it(`${depthwise ? 'DEPTHWISE_CONV_2D 3x3' : 'CONV_2D 1x1'}: 150 layers of accumulators at the bounds, near zero and over the whole int32 range`, () => {
      let fast = 0;
      for (let seed = 1; seed <= 150; seed++) {
        const m = zeroWeightLayer(seed * 31 + (depthwise ? 7 : 0), depthwise);
        if (m.rightOnly) fast++;
        const res = runBoth(m.def, [m.input]);
        expect(res.served, m.desc).toBe(1);
        expect(res.got[0], m.desc).toEqual(res.ref[0]);
      }
      expect(fast).toBeGreaterThan(140);
    });
  }
});
