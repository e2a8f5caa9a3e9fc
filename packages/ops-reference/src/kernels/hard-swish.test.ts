import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { expectWithinSteps, f32, harness, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { downScaleInt32ToInt16Multiplier } from '@micrort/kernel-support';
import { HARD_SWISH } from './hard-swish.js';

const I8 = TensorType.INT8;
const ALL_INT8 = Array.from({ length: 256 }, (_, i) => i - 128);
const hardSwish = (x: number) => (x * Math.min(6, Math.max(0, x + 3))) / 6;

describe('HARD_SWISH', () => {
  it('float32: x * relu6(x + 3) / 6 in float32', () => {
    const x = [-5, -3, -1.5, 0, 0.5, 3, 4.5];
    const f = Math.fround;
    expect(run(HARD_SWISH, [f32([7], x), f32([7])], [0], [1])).toEqual(
      x.map((v) => f(f(f(v) * Math.min(6, Math.max(0, f(f(v) + 3)))) / 6)),
    );
  });

  it('int8: within one step of the real function over the whole input range, for several scales', () => {
    for (const [inScale, inZp, outScale, outZp] of [
      [0.04, 0, 5.455 / 255, -110],
      [0.1, -20, 0.06, -110],
      [0.02, 30, 0.01, -128],
    ] as const) {
      const out = run(HARD_SWISH, [q(I8, [256], inScale, inZp, ALL_INT8), q(I8, [256], outScale, outZp)], [0], [1]);
      expectWithinSteps(
        out,
        quantize(
          ALL_INT8.map((v) => hardSwish((v - inZp) * inScale)),
          outScale,
          outZp,
        ),
      );
    }
  });

  it('DownScaleInt32ToInt16Multiplier rounds to the top 16 bits and saturates near 2^31', () => {
    expect(downScaleInt32ToInt16Multiplier(1 << 30)).toBe(16384);
    expect(downScaleInt32ToInt16Multiplier((1 << 30) + 32767)).toBe(16384);
    expect(downScaleInt32ToInt16Multiplier((1 << 30) + 32768)).toBe(16385);
    expect(downScaleInt32ToInt16Multiplier(2147483647 - 32768)).toBe(32767);
  });

  it('refuses an output scale below input scale / 128 (TFLM requires exponent <= 0) and int16; keeps HardSwishParams (20 bytes)', () => {
    expect(kernelError(() => harness(HARD_SWISH, [q(I8, [1], 1, 0, [1]), q(I8, [1], 0.001, 0)], [0], [1]).prepare()).message).toMatch(
      /output multiplier exponent 3 > 0: input scale 1 \/ 128 must not exceed the output scale/,
    );
    const h = harness(HARD_SWISH, [q(TensorType.INT16, [1], 0.01, 0, [1]), q(TensorType.INT16, [1], 0.01, 0)], [0], [1]);
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8, uint8)');
    expect(() => h.prepare()).toThrow(/unsupported input type int16/);
    expect(harness(HARD_SWISH, [f32([1], [1]), f32([1])], [0], [1]).prepare().persistentBytes).toBe(32);
  });
});
