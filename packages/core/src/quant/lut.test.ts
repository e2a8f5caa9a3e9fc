import { describe, expect, it } from 'vitest';
import { genLutInt16, INT16_LUT_SIZE, lutLookupInt16 } from './lut.js';
import { expF32 } from './float32-math.js';

const expLut = () => {
  const lut = new Int16Array(INT16_LUT_SIZE);
  genLutInt16(expF32, -10, 0, -1, 1, lut);
  return lut;
};
const recipLut = () => {
  const lut = new Int16Array(INT16_LUT_SIZE);
  genLutInt16((x) => Math.fround(1 / Math.fround(1 + x)), 0, 1, -1, 1, lut);
  return lut;
};

describe('genLutInt16', () => {
  it('builds the softmax exp table: endpoints, monotonicity', () => {
    const lut = expLut();
    expect(lut[512]).toBe(32767); // exp(0) * 32768 = 32768, clamped
    // sample round(1.487) = 1; midpoint: interpolated round((1.517 + 1) / 2) = 1 vs round(1.502) = 2,
    // error -1, bias round(-0.5) = -1 → 1 - (-1) = 2
    expect(lut[0]).toBe(2);
    for (let i = 1; i < INT16_LUT_SIZE; i++) expect(lut[i]!).toBeGreaterThanOrEqual(lut[i - 1]!);
  });
  it('builds the 1/(1+x) table: 1 → 32767 (clamped), 0.5 at the end', () => {
    const lut = recipLut();
    expect(lut[0]).toBe(32767);
    expect(lut[512]).toBe(16384);
    expect(Math.abs(lut[256]! - (1 / 1.5) * 32768)).toBeLessThanOrEqual(1); // ≈ 21845
  });
  it('rejects a short table', () => {
    expect(() => genLutInt16(expF32, -10, 0, -1, 1, new Int16Array(512))).toThrow(RangeError);
  });
});

describe('lutLookupInt16', () => {
  it('interpolates linearly between entries with rounding', () => {
    const lut = new Int16Array(INT16_LUT_SIZE);
    for (let i = 0; i < INT16_LUT_SIZE; i++) lut[i] = Math.min(32767, i * 100 - 25600);
    // value 0 → index 256 exactly → 0; value 64 → halfway (slope 100, offset 64) → 50
    expect(lutLookupInt16(0, lut)).toBe(0);
    expect(lutLookupInt16(64, lut)).toBe(50);
    expect(lutLookupInt16(-32768, lut)).toBe(-25600);
    expect(lutLookupInt16(1, lut)).toBe(1); // (100 + 64) >> 7 = 1
    expect(lutLookupInt16(-1, lut)).toBe(-1); // index 255, offset 127: -100 + ((100*127+64)>>7 = 99)
  });
  it('approximates exp over the whole input range within 3 LSB', () => {
    const lut = expLut();
    let worst = 0;
    for (let v = -32768; v <= 32767; v += 37) {
      const x = -10 + ((v + 32768) / 65536) * 10;
      worst = Math.max(worst, Math.abs(lutLookupInt16(v, lut) - Math.exp(x) * 32768));
    }
    expect(worst).toBeLessThan(3);
  });
});
