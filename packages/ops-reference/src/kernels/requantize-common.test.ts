import { describe, expect, it } from 'vitest';
import { multiplyByQuantizedMultiplier, quantizeMultiplier } from '@micrort/core';
import { multiplyByQuantizedMultiplierFast } from './requantize-common.js';

/** A small deterministic generator (xorshift32) for reproducible samples. */
function xorshift(seed: number) {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s | 0;
  };
}

const EDGE_X = [
  0, 1, -1, 2, -2, 4194303, -4194303, 4194304, -4194304, 4194305, -4194305, 65535, -65536, 65536, 32768, -32768,
  2147483647, -2147483648, 2147483646, -2147483647, 1073741824, -1073741824, 123456789, -987654321,
];
const EDGE_M = [
  0, 1, 2, 1073741824, 1073741825, 2147483647, 2147483646, 1518500250, 1342177280, 65535, 65536,
  -1, -1073741824, -1518500250, -2147483647, -2147483648, -65536,
];

describe('multiplyByQuantizedMultiplierFast', () => {
  it('equals core multiplyByQuantizedMultiplier on edge values for every shift from -31 to 30', () => {
    for (const x of EDGE_X)
      for (const m of EDGE_M)
        for (let shift = -31; shift <= 30; shift++) {
          const want = multiplyByQuantizedMultiplier(x, m, shift);
          const got = multiplyByQuantizedMultiplierFast(x, m, shift);
          if (got !== want) expect({ x, m, shift, got }).toEqual({ x, m, shift, got: want });
        }
  });

  it('equals core on random accumulators, multipliers from QuantizeMultiplier, and negative multipliers', () => {
    const rnd = xorshift(12345);
    let mismatches = 0;
    for (let i = 0; i < 20000; i++) {
      const r = rnd();
      // Mix small accumulators (the common int8 case) with full-range ones.
      const x = i % 3 === 0 ? r : i % 3 === 1 ? r >> 8 : r >> 14;
      const scale = Math.pow(2, (rnd() % 24) - 16) * (1 + ((rnd() >>> 0) % 1000) / 1000);
      const { multiplier, shift } = quantizeMultiplier(scale);
      const m = i % 50 === 0 ? -multiplier : multiplier;
      if (multiplyByQuantizedMultiplierFast(x, m, shift) !== multiplyByQuantizedMultiplier(x, m, shift)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});
