import { describe, expect, it } from 'vitest';
import { BuiltinOperator, KernelError, TensorType, calculateInputRadius, preprocessSoftmaxScaling } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import { MUL_LONG } from '../counters.js';
import { expOnNegativeValues, oneOverOnePlusX } from '../cmsis/softmax-s8.js';
import { kernelFor } from '../__tests__/harness-cases.js';
import { gemmlowpExpOnNegative, gemmlowpOneOverOnePlusX, randomInt8, refSoftmax, rng } from '../__tests__/reference-math.js';
import type { SimdMode } from '../options.js';

function buildSoftmax(shape: number[], inScale: number, beta: number, outBits: 8 | 16, mode: SimdMode, seed = 1, data?: Int8Array) {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  const input = data ?? randomInt8(r, n);
  const { reg, counters } = kernelFor(BuiltinOperator.SOFTMAX, mode);
  const harness = new KernelHarness({
    registration: reg,
    tensors: [
      { type: TensorType.INT8, shape, data: input, scale: inScale, zeroPoint: 4 },
      outBits === 8
        ? { type: TensorType.INT8, shape, scale: 1 / 256, zeroPoint: -128 }
        : { type: TensorType.INT16, shape, scale: 1 / 65536, zeroPoint: -32768 },
    ],
    inputs: [0],
    outputs: [1],
    builtinData: { beta },
  });
  // TFLite's PreprocessSoftmaxScaling / CalculateInputRadius (core's), Q5.26 differences
  const q = preprocessSoftmaxScaling(Math.fround(beta), Math.fround(inScale), 5);
  const expected = refSoftmax(input, shape[shape.length - 1]!, q.multiplier, q.shift, -calculateInputRadius(5, q.shift), outBits);
  return { harness, expected, counters };
}

describe('SOFTMAX (arm_softmax_s8) matches the TFLM reference', () => {
  const cases: { name: string; shape: number[]; scale: number; beta: number; out: 8 | 16 }[] = [
    { name: 'rows of 10, scale 0.1', shape: [3, 10], scale: 0.1, beta: 1, out: 8 },
    { name: 'wide scale: most elements below diff_min', shape: [2, 17], scale: 0.9, beta: 1, out: 8 },
    { name: 'small scale, beta 0.5, 4-D', shape: [1, 2, 3, 7], scale: 0.02, beta: 0.5, out: 8 },
    { name: 'int16 output (arm_softmax_s8_s16)', shape: [4, 9], scale: 0.07, beta: 1, out: 16 },
  ];
  for (const c of cases) {
    for (const mode of ['fast', 'emulated'] as SimdMode[]) {
      it(`${c.name} [${mode}]`, () => {
        const { harness, expected, counters } = buildSoftmax(c.shape, c.scale, c.beta, c.out, mode, c.shape.length);
        harness.invoke();
        expect(Array.from(harness.output<Int8Array | Int16Array>())).toEqual(Array.from(expected));
        expect(harness.scratchSizes).toEqual([]);
        if (mode === 'emulated') {
          expect(counters.get(0)!.kernel).toBe(c.out === 8 ? 'arm_softmax_s8' : 'arm_softmax_s8_s16');
          expect(counters.get(0)!.counts[MUL_LONG]).toBeGreaterThan(0);
        }
      });
    }
  }

  it('a row of equal values gives 1/n', () => {
    const { harness, expected } = buildSoftmax([1, 8], 0.1, 1, 8, 'fast', 1, new Int8Array(8).fill(50));
    harness.invoke();
    expect(Array.from(harness.output<Int8Array>())).toEqual(Array.from(expected));
    expect(harness.output<Int8Array>()[0]).toBe(-96); // round(256/8) - 128
  });

  it('exp and reciprocal helpers equal gemmlowp on random arguments', () => {
    const r = rng(17);
    for (let i = 0; i < 3000; i++) {
      const v = -((r() >>> 1) >> (i % 24));
      expect(expOnNegativeValues(v)).toBe(gemmlowpExpOnNegative(v));
      const x = r() >>> 1;
      expect(oneOverOnePlusX(x)).toBe(gemmlowpOneOverOnePlusX(x));
    }
    expect(expOnNegativeValues(0)).toBe(2147483647);
  });

  it('rejects an int8 output that is not scale 1/256, zero point -128', () => {
    const { reg } = kernelFor(BuiltinOperator.SOFTMAX, 'fast');
    const h = new KernelHarness({
      registration: reg,
      tensors: [
        { type: TensorType.INT8, shape: [1, 4], scale: 0.1, zeroPoint: 0 },
        { type: TensorType.INT8, shape: [1, 4], scale: 1 / 128, zeroPoint: 0 },
      ],
      inputs: [0],
      outputs: [1],
      builtinData: { beta: 1 },
    });
    expect(() => h.prepare()).toThrow(KernelError);
  });
});
