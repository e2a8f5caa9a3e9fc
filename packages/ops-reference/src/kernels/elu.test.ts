import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { expectFloatClose, expectWithinSteps, f32, harness, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { tflmLutPopulateInt8 } from '@micrort/kernel-support';
import { ELU } from './elu.js';

const I8 = TensorType.INT8;
const ALL_INT8 = Array.from({ length: 256 }, (_, i) => i - 128);

describe('ELU', () => {
  it('float32: x < 0 ? expm1(x) : x (TFLM elu_test values)', () => {
    const x = [0, -6, 2, -4, 3, -2, 10, -0.1];
    expectFloatClose(
      run(ELU, [f32([8], x), f32([8])], [0], [1]),
      x.map((v) => (v < 0 ? Math.expm1(v) : v)),
    );
  });

  it('int8: the 256-entry table is within one step of the real ELU for every input, and saturates', () => {
    const inScale = 0.03;
    const outScale = 4.51 / 255;
    const out = run(ELU, [q(I8, [256], inScale, 10, ALL_INT8), q(I8, [256], outScale, -71)], [0], [1]);
    const real = ALL_INT8.map((v) => (v - 10) * inScale).map((x) => (x < 0 ? Math.expm1(x) : x));
    expectWithinSteps(out, quantize(real, outScale, -71));
    // A small output scale saturates the positive side at 127 and the negative side at -128.
    const sat = run(ELU, [q(I8, [3], 0.5, 0, [-128, 0, 127]), q(I8, [3], 0.005, 0)], [0], [1]);
    expect(sat).toEqual([-128, 0, 127]);
  });

  it('int8: an out-of-range rescaled value becomes INT32_MIN as on x86 and clamps to -128', () => {
    const table = new Int8Array(256);
    tflmLutPopulateInt8(1, 0, 1e-30, 0, (x) => x, table);
    expect(table[1]).toBe(-128);
    expect(table[0]).toBe(0);
  });

  it('refuses int16 as TFLM does (ELU only supports float32 and int8), and keeps its 256-byte table in the arena', () => {
    const h = harness(ELU, [q(TensorType.INT16, [1], 0.01, 0, [1]), q(TensorType.INT16, [1], 0.01, 0)], [0], [1]);
    expect(h.supportsAnswer()).toBe('int16 input (handles float32, int8)');
    expect(kernelError(() => h.prepare()).message).toMatch(/unsupported input type int16/);
    expect(harness(ELU, [f32([1], [1]), f32([1])], [0], [1]).prepare().persistentBytes).toBe(256);
  });
});
