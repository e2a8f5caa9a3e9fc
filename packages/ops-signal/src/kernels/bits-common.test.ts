import { describe, expect, it } from 'vitest';
import { msb32, msb64 } from './bits-common.js';

describe('msb32 / msb64 (TFLM MostSignificantBit32/64, GCC build)', () => {
  it('counts bit positions from 1', () => {
    expect(msb32(1)).toBe(1);
    expect(msb32(2)).toBe(2);
    expect(msb32(3)).toBe(2);
    expect(msb32(0x7fff)).toBe(15);
    expect(msb32(0x80000000)).toBe(32);
    expect(msb32(0xffffffff)).toBe(32);
    expect(msb64(0, 1)).toBe(1);
    expect(msb64(1, 0)).toBe(33);
    expect(msb64(0x80000000, 0)).toBe(64);
  });

  it('returns the full width for zero (the __builtin_clz branch)', () => {
    expect(msb32(0)).toBe(32);
    expect(msb64(0, 0)).toBe(64);
  });
});
