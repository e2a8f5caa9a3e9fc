import { describe, expect, it } from 'vitest';
import { ArenaRegion } from '@micrort/core';
import { KissFftrInt16, kissFactor, kissFftrInt16StateBytes, kissFftrUnsupportedReason } from './kiss-fft-int16-common.js';

function makeFft(fftLength: number): KissFftrInt16 {
  const bytes = kissFftrInt16StateBytes(fftLength);
  return new KissFftrInt16(fftLength, new ArenaRegion(new ArrayBuffer(bytes + 16), 16, bytes));
}

function run(fftLength: number, input: number[]): Int16Array {
  const out = new Int16Array(fftLength + 2);
  makeFft(fftLength).forward(Int16Array.from(input), out, 0);
  return out;
}

describe('kissfft 16-bit fixed point real FFT', () => {
  it('factors like kf_factor: 4s first, then 2, then odd radices', () => {
    expect(kissFactor(256)).toEqual([4, 64, 4, 16, 4, 4, 4, 1]);
    expect(kissFactor(32)).toEqual([4, 8, 4, 2, 2, 1]);
    expect(kissFactor(60)).toEqual([4, 15, 3, 5, 5, 1]);
    expect(kissFactor(7)).toEqual([7, 1]);
  });

  it('says which lengths TFLM cannot run', () => {
    expect(kissFftrUnsupportedReason(512)).toBeNull();
    expect(kissFftrUnsupportedReason(120)).toBeNull();
    expect(kissFftrUnsupportedReason(511)).toMatch(/even/);
    expect(kissFftrUnsupportedReason(2)).toMatch(/>= 4/);
    expect(kissFftrUnsupportedReason(14)).toMatch(/prime factor 7/);
  });

  it('turns an impulse into a flat spectrum scaled by 1/N (TFLM RfftTestSize64Int16)', () => {
    const input = new Array<number>(64).fill(0);
    input[0] = 16384;
    const expected = new Array<number>(66).fill(0).map((_, i) => (i % 2 === 0 ? 256 : 0));
    expect(Array.from(run(64, input))).toEqual(expected);
  });

  it('puts a constant into the DC bin only', () => {
    const out = run(512, new Array<number>(512).fill(1024));
    expect(out[0]).toBe(1024);
    for (let i = 2; i < out.length; i++) expect(Math.abs(out[i]!), `element ${i}`).toBeLessThanOrEqual(1);
  });

  it('computes twiddles as floor(0.5 + 32767 cos/sin)', () => {
    // a cosine at bin 1 of a 16-point FFT: X[1] = N/2 * A / N = A/2 after the 1/N scaling
    const n = 16;
    const a = 16000;
    const out = run(
      n,
      Array.from({ length: n }, (_, t) => Math.round(a * Math.cos((2 * Math.PI * t) / n))),
    );
    expect(Math.abs(out[2]! - a / 2)).toBeLessThanOrEqual(4);
    expect(Math.abs(out[3]!)).toBeLessThanOrEqual(4);
  });

  it('matches a float DFT (scaled by 1/N) for radix-2, 3, 4 and 5 lengths', () => {
    for (const n of [8, 24, 40, 120, 512]) {
      let s = 12345;
      const input = Array.from({ length: n }, () => {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        return ((s >>> 16) & 0x7fff) - 16384;
      });
      const out = run(n, input);
      for (let k = 0; k <= n / 2; k++) {
        let re = 0;
        let im = 0;
        for (let t = 0; t < n; t++) {
          re += input[t]! * Math.cos((-2 * Math.PI * k * t) / n);
          im += input[t]! * Math.sin((-2 * Math.PI * k * t) / n);
        }
        expect(Math.abs(out[2 * k]! - re / n), `n=${n} bin ${k} re`).toBeLessThanOrEqual(6);
        expect(Math.abs(out[2 * k + 1]! - im / n), `n=${n} bin ${k} im`).toBeLessThanOrEqual(6);
      }
    }
  });

  it('rejects a state region that is too small', () => {
    expect(() => new KissFftrInt16(64, new ArenaRegion(new ArrayBuffer(64), 0, 64))).toThrow(/needs \d+ bytes/);
  });
});
