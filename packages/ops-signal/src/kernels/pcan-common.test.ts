import { describe, expect, it } from 'vitest';
import { applyPcanAutoGainControl, pcanShrink, wideDynamicFunction } from './pcan-common.js';
import { U64 } from './uint64-common.js';

describe('PCAN fixed-point helpers (TFLM pcan_argc_fixed.cc)', () => {
  const lut = Int16Array.from({ length: 125 }, (_, i) => (i % 4 === 3 ? 0 : 1000 * ((i % 4) + 1) - i));

  it('wideDynamicFunction returns the LUT directly for x <= 2', () => {
    expect(wideDynamicFunction(0, lut)).toBe(lut[0]);
    expect(wideDynamicFunction(2, lut)).toBe(lut[2]);
  });

  it('wideDynamicFunction evaluates the octave polynomial (hand-checked)', () => {
    // x = 3: interval = msb(3) = 2, coefficients at 4 * 2 - 6 = 2: c0 = lut[2], c1 = lut[3], c2 = lut[4];
    // frac = (3 << 9) & 0x3ff = 512; result = ((((c2 * 512) >> 5) + c1 * 32) * 512 + 2^14) >> 15 + c0
    const c0 = lut[2]!;
    const c1 = lut[3]!;
    const c2 = lut[4]!;
    const expected = (((((((c2 * 512) >> 5) + c1 * 32) * 512 + (1 << 14)) >> 15) + c0) << 16) >> 16;
    expect(wideDynamicFunction(3, lut)).toBe(expected);
    // a large x uses the last octave: interval 32 -> coefficients at 122..124, frac from x >> 21
    const x = 0xfff00000;
    const frac = (x >>> 21) & 0x3ff;
    const r = (((((((lut[124]! * frac) >> 5) + lut[123]! * 32) * frac + (1 << 14)) >> 15) + lut[122]!) << 16) >> 16;
    expect(wideDynamicFunction(x, lut)).toBe(r);
  });

  it('pcanShrink: x^2/4 below 2.0, x - 1 above (12 -> 6 fractional bits)', () => {
    expect(pcanShrink(0)).toBe(0);
    expect(pcanShrink(4096)).toBe(16); // 1.0 -> 0.25 = 16/64
    expect(pcanShrink(8191)).toBe(Math.floor((8191 * 8191) / 2 ** 20));
    expect(pcanShrink(8192)).toBe(64); // 2.0 -> 1.0
    expect(pcanShrink(3 * 4096)).toBe(128); // 3.0 -> 2.0
  });

  it('applies gain = WDF(noise) and shifts the 64-bit product', () => {
    const noise = Uint32Array.of(7310, 1, 0xffffffff);
    const out = Uint32Array.of(286, 0xffffffff, 1000);
    const expected = Array.from(out, (x, i) => {
      const gain = BigInt(wideDynamicFunction(noise[i]!, lut) >>> 0);
      const snr = Number(((BigInt(x) * gain) >> 6n) & 0xffffffffn);
      return pcanShrink(snr);
    });
    applyPcanAutoGainControl(lut, 6, noise, out, 3, new U64());
    expect(Array.from(out)).toEqual(expected);
  });
});
