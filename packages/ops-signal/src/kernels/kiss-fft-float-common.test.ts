import { describe, expect, it } from 'vitest';
import { ArenaRegion } from '@micrort/core';
import { KissFftrFloat, kissFftrFloatStateBytes } from './kiss-fft-float-common.js';

function run(n: number, input: number[]): Float32Array {
  const bytes = kissFftrFloatStateBytes(n);
  const out = new Float32Array(n + 2);
  new KissFftrFloat(n, new ArenaRegion(new ArrayBuffer(bytes), 0, bytes)).forward(Float32Array.from(input), out, 0);
  return out;
}

describe('kissfft float32 real FFT', () => {
  it('turns an impulse into a flat, unscaled spectrum (TFLM RfftTestSize64Float)', () => {
    const input = new Array<number>(64).fill(0);
    input[0] = 16384;
    // -0 and +0 are the same value here (TFLM compares with EXPECT_NEAR)
    expect(Array.from(run(64, input), (v) => v + 0)).toEqual(Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 16384 : 0)));
  });

  it('matches a float64 DFT for radix-2, 3, 4 and 5 lengths', () => {
    for (const n of [8, 24, 40, 120, 512]) {
      let s = 99;
      const input = Array.from({ length: n }, () => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return Math.fround(((s >>> 8) / 2 ** 24) * 2 - 1);
      });
      const out = run(n, input);
      for (let k = 0; k <= n / 2; k++) {
        let re = 0;
        let im = 0;
        for (let t = 0; t < n; t++) {
          re += input[t]! * Math.cos((-2 * Math.PI * k * t) / n);
          im += input[t]! * Math.sin((-2 * Math.PI * k * t) / n);
        }
        expect(Math.abs(out[2 * k]! - re), `n=${n} bin ${k} re`).toBeLessThan(1e-4 * Math.sqrt(n));
        expect(Math.abs(out[2 * k + 1]! - im), `n=${n} bin ${k} im`).toBeLessThan(1e-4 * Math.sqrt(n));
      }
    }
  });
});
