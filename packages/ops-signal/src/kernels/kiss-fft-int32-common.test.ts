import { describe, expect, it } from 'vitest';
import { ArenaRegion } from '@micrort/core';
import { KissFftrInt32, cmulI32, cmulR32, kissFftrInt32StateBytes, mulShift31 } from './kiss-fft-int32-common.js';
import {
  IRFFT_INT32_512_GOLDEN,
  IRFFT_INT32_512_INPUT,
  RFFT_INT32_512_GOLDEN,
  RFFT_INT32_512_INPUT,
} from './__fixtures__/tflm-fft-test-data.js';

/** kissfft's sround on an exact int64 value, truncated to int32 (BigInt oracle). */
const sround = (x: bigint) => Number(BigInt.asIntN(32, (x + (1n << 30n)) >> 31n));

function make(fftLength: number, inverse = false): KissFftrInt32 {
  const bytes = kissFftrInt32StateBytes(fftLength);
  return new KissFftrInt32(fftLength, new ArenaRegion(new ArrayBuffer(bytes), 0, bytes), inverse);
}

describe('kissfft 32-bit fixed point', () => {
  it('mulShift31 / cmulR32 / cmulI32 equal the int64 arithmetic (BigInt oracle), extremes included', () => {
    const special = [0, 1, -1, 2147483647, -2147483648, -2147483647, 1073741823, -1073741824, 65535, 65536, -65536, 715827882];
    let s = 99;
    const rnd = () => {
      s = (Math.imul(s, 1664525) + 1013904223) | 0;
      return s;
    };
    const values = [...special, ...Array.from({ length: 60 }, rnd)];
    for (const a of values)
      for (const b of values) {
        expect(mulShift31(a, b), `${a} * ${b}`).toBe(sround(BigInt(a) * BigInt(b)));
      }
    for (let i = 0; i < 3000; i++) {
      const [ar, ai, br, bi] = [rnd(), rnd(), rnd() | 1, rnd()].map((v, k) => (k >= 2 && v === -2147483648 ? -2147483647 : v)) as [
        number,
        number,
        number,
        number,
      ];
      expect(cmulR32(ar, ai, br, bi)).toBe(sround(BigInt(ar) * BigInt(br) - BigInt(ai) * BigInt(bi)));
      expect(cmulI32(ar, ai, br, bi)).toBe(sround(BigInt(ar) * BigInt(bi) + BigInt(ai) * BigInt(br)));
    }
  });

  it('forward: TFLM RfftTestSize512Int32 (exact) and RfftTestSize64Int32 (impulse -> flat 256)', () => {
    const out = new Int32Array(514);
    make(512).forward(RFFT_INT32_512_INPUT, out, 0);
    expect(Array.from(out)).toEqual(Array.from(RFFT_INT32_512_GOLDEN));
    const impulse = new Int32Array(64);
    impulse[0] = 16384;
    const out64 = new Int32Array(66);
    make(64).forward(impulse, out64, 0);
    expect(Array.from(out64)).toEqual(Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 256 : 0)));
  });

  it('inverse: TFLM IrfftTestLength512Int32 (exact) and IrfftTestLength64Int32 (flat 256 -> impulse)', () => {
    const out = new Int32Array(512);
    make(512, true).inverse(IRFFT_INT32_512_INPUT, 0, out, 0);
    expect(Array.from(out)).toEqual(Array.from(IRFFT_INT32_512_GOLDEN));
    const flat = Int32Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 256 : 0));
    const out64 = new Int32Array(64);
    make(64, true).inverse(flat, 0, out64, 0);
    expect(Array.from(out64)).toEqual(Array.from({ length: 64 }, (_, i) => (i === 0 ? 256 : 0)));
  });

  it('matches a float DFT (scaled by 1/N) for radix-2, 3, 4 and 5 lengths, both directions', () => {
    for (const n of [8, 24, 40, 120, 512]) {
      let s = 4321 + n;
      const input = Array.from({ length: n }, () => {
        s = (Math.imul(s, 1103515245) + 12345) | 0;
        return s >> 1;
      });
      const freq = new Int32Array(n + 2);
      make(n).forward(Int32Array.from(input), freq, 0);
      const tol = 8 * n;
      for (let k = 0; k <= n / 2; k++) {
        let re = 0;
        let im = 0;
        for (let t = 0; t < n; t++) {
          re += input[t]! * Math.cos((-2 * Math.PI * k * t) / n);
          im += input[t]! * Math.sin((-2 * Math.PI * k * t) / n);
        }
        expect(Math.abs(freq[2 * k]! - re / n), `n=${n} bin ${k} re`).toBeLessThanOrEqual(tol);
        expect(Math.abs(freq[2 * k + 1]! - im / n), `n=${n} bin ${k} im`).toBeLessThanOrEqual(tol);
      }
      // inverse of the spectrum: the normalized inverse DFT of `freq`
      const time = new Int32Array(n);
      make(n, true).inverse(freq, 0, time, 0);
      for (let t = 0; t < n; t++) {
        let x = freq[0]! + (n % 2 === 0 ? freq[n]! * Math.cos(Math.PI * t) : 0);
        for (let k = 1; k < n / 2; k++)
          x += 2 * (freq[2 * k]! * Math.cos((2 * Math.PI * k * t) / n) - freq[2 * k + 1]! * Math.sin((2 * Math.PI * k * t) / n));
        expect(Math.abs(time[t]! - x / n), `n=${n} inverse sample ${t}`).toBeLessThanOrEqual(tol);
      }
    }
  });

  it('refuses to run a state in the other direction', () => {
    expect(() => make(64).inverse(new Int32Array(66), 0, new Int32Array(64), 0)).toThrow(/forward/);
    expect(() => make(64, true).forward(new Int32Array(64), new Int32Array(66), 0)).toThrow(/inverse/);
  });
});
