import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import {
  dequantize,
  expectFloatClose,
  expectWithinSteps,
  f32,
  harness,
  kernelError,
  q,
  quantize,
  run,
} from './__fixtures__/math-testing.js';
import { LOG_SOFTMAX } from './log-softmax.js';
import { logXForXGreaterThanOrEqualTo1 } from './log-softmax-common.js';

const I8 = TensorType.INT8;

function logSoftmax(row: number[]): number[] {
  const max = Math.max(...row);
  const lse = Math.log(row.reduce((s, v) => s + Math.exp(v - max), 0));
  return row.map((v) => v - max - lse);
}

describe('LOG_SOFTMAX', () => {
  it('float32 per row of the last dimension (TFLM log_softmax_test FloatActivationsOpTest values)', () => {
    const x = [0, -6, 2, 4, 3, -2, 10, 1];
    expectFloatClose(run(LOG_SOFTMAX, [f32([2, 4], x), f32([2, 4])], [0], [1]), [...logSoftmax(x.slice(0, 4)), ...logSoftmax(x.slice(4))]);
  });

  it('int8 into q(16/256, 127): within one step of the real result, -128 far below the maximum', () => {
    for (const [scale, zp] of [
      [0.05, 0],
      [0.05, -20],
      [0.25, 10],
    ] as const) {
      const x = [-128, -100, -50, -1, 0, 1, 50, 100, 127, 20];
      const out = run(LOG_SOFTMAX, [q(I8, [2, 5], scale, zp, x), q(I8, [2, 5], 16 / 256, 127)], [0], [1]);
      const real = dequantize(x, scale, zp);
      expectWithinSteps(out, quantize([...logSoftmax(real.slice(0, 5)), ...logSoftmax(real.slice(5))], 16 / 256, 127));
    }
  });

  it('refuses any other int8 output quantization (TFLM accepts only q(16/256, 127)) and int16', () => {
    expect(
      kernelError(() => harness(LOG_SOFTMAX, [q(I8, [2], 0.05, 0, [1, 2]), q(I8, [2], 1 / 16, 0)], [0], [1]).prepare()).message,
    ).toMatch(/must be quantized with scale 16\/256 and zero point 127/);
    const h = harness(LOG_SOFTMAX, [q(TensorType.INT16, [2], 0.05, 0, [1, 2]), q(TensorType.INT16, [2], 0.05, 0)], [0], [1]);
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8, uint8)');
    expect(() => h.prepare()).toThrow(/unsupported input type int16/);
    expect(harness(LOG_SOFTMAX, [f32([2], [1, 2]), f32([2])], [0], [1]).prepare().persistentBytes).toBe(0);
    expect(harness(LOG_SOFTMAX, [q(I8, [2], 0.05, 0, [1, 2]), q(I8, [2], 16 / 256, 127)], [0], [1]).prepare().persistentBytes).toBe(48);
  });
});

describe('logXForXGreaterThanOrEqualTo1', () => {
  it('approximates log(x) of a Q12.19 input as Q5.26', () => {
    for (const x of [1, 1.5, 2, Math.E, 10, 100, 1000, 4095]) {
      const raw = Math.round(x * 2 ** 19);
      expect(Math.abs(logXForXGreaterThanOrEqualTo1(raw, 5, 12) / 2 ** 26 - Math.log(x))).toBeLessThan(1e-6);
    }
  });
});
