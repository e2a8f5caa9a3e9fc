import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { dequantize, expectWithinSteps, harness, kernelError, q, quantize, run } from './__fixtures__/math-testing.js';
import { EXP } from './exp.js';
import { LOG } from './log.js';
import { SQRT } from './sqrt.js';

const I8 = TensorType.INT8;
const I16 = TensorType.INT16;
const all8 = Array.from({ length: 256 }, (_, i) => i - 128);

describe('quantized EXP, LOG, SQRT (TFLite after 2.9)', () => {
  it('EXP int8: a table of expf, rounded, clamped to int8', () => {
    const out = run(EXP, [q(I8, [256], 0.05, 3, all8), q(I8, [256], 0.1, -100)], [0], [1]);
    expect(out[3 + 128]).toBe(-90); // exp(0) = 1 = 10 steps above −100
    expect(out[0]).toBe(-100); // exp(−6.55) ≈ 0.0014 rounds to 0 steps
    expect(out[255]).toBe(127); // exp(6.2) ≈ 493: clamped
    expectWithinSteps(out, quantize(dequantize(all8, 0.05, 3).map(Math.exp), 0.1, -100, I8), 0);
  });

  it('EXP int16: the interpolated 513-entry table, within 1 step + 0.03 % of the real result where it does not saturate', () => {
    const xs = Array.from({ length: 200 }, (_, i) => -32768 + i * 300);
    const out = run(EXP, [q(I16, [200], 1 / 4096, 0, xs), q(I16, [200], 1 / 8192, 0)], [0], [1]);
    // Linear interpolation over 1/32-wide intervals of a convex function: the error grows with exp(x).
    xs.forEach((x, i) => {
      const want = Math.exp(x / 4096) * 8192;
      if (want < 32767) expect(Math.abs(out[i]! - want), `x ${x}`).toBeLessThanOrEqual(1 + 3e-4 * want);
    });
    expect(out[0]).toBe(Math.round(Math.exp(-8) * 8192));
    expect(out[199]).toBe(32767);
  });

  it('LOG int8: inputs at or below the zero point give the output minimum (LogLUTPrepare), the others logf', () => {
    const out = run(LOG, [q(I8, [256], 0.1, -20, all8), q(I8, [256], 0.05, 10)], [0], [1]);
    for (let v = -128; v <= -20; v++) expect(out[v + 128]).toBe(-128);
    expect(out[-10 + 128]).toBe(10); // log(1) = 0
    const pos = all8.filter((v) => v > -20);
    expectWithinSteps(
      pos.map((v) => out[v + 128]!),
      quantize(
        pos.map((v) => Math.log(0.1 * (v + 20))),
        0.05,
        10,
        I8,
      ),
      0,
    );
  });

  it('LOG int16 requires zero points 0', () => {
    expect(kernelError(() => harness(LOG, [q(I16, [1], 0.1, 1, [1]), q(I16, [1], 0.1, 0)], [0], [1]).prepare()).message).toMatch(
      /zero point/,
    );
  });

  it('SQRT int8 truncates sqrtf(d) / output scale toward zero (no rounding)', () => {
    const out = run(SQRT, [q(I8, [5], 0.01, 0, [0, 2, 90, 96, 100]), q(I8, [5], 0.1, 0)], [0], [1]);
    // sqrt(0.96) / 0.1 = 9.798 → 9; sqrt(0.9) / 0.1 = 9.487 → 9.
    expect(out).toEqual([0, 1, 9, 9, 10]);
  });

  it('SQRT fails invoke on an input below the zero point, with the element, and runs again on valid input', () => {
    const h = harness(SQRT, [q(I16, [3], 1 / 4096, 0, [4096, -1, 16384]), q(I16, [3], 1 / 4096, 0)], [0], [1]);
    h.prepare();
    expect(kernelError(() => h.invoke()).message).toMatch(/SQRT \(node 0\): input element 1 is -1, below the input zero point 0/);
    h.setInput(0, [4096, 0, 16384]);
    expect(Array.from(h.invoke().outputArray())).toEqual([4096, 0, 8192]);
  });
});
