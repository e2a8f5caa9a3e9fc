import { describe, expect, it } from 'vitest';
import { multiplyByQuantizedMultiplier } from '@micrort/core';
import { requantize } from '../intrinsics.js';
import { requantizeClamp, requantizeFast } from './requantize-fast.js';

describe('requantizeFast', () => {
  it('equals arm_nn_requantize and TFLM MultiplyByQuantizedMultiplier at the exact-path boundary and extremes', () => {
    const xs = [0, 1, -1, 4194303, -4194303, 4194304, -4194304, 4194305, -4194305, 2147483647, -2147483648, 123456789, -987654321];
    const ms = [0, 1, 1073741824, 1518500250, 2147483647];
    for (const x of xs)
      for (const m of ms)
        for (let s = -31; s <= 30; s += 3) {
          expect(requantizeFast(x, m, s)).toBe(multiplyByQuantizedMultiplier(x, m, s));
          expect(requantizeFast(x, m, s)).toBe(requantize(x, m, s));
        }
  });

  it('equals them on random operands', () => {
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) | 0);
    for (let i = 0; i < 20000; i++) {
      const x = i % 3 === 0 ? next() : next() >> (8 + (i % 12));
      const m = (next() >>> 1) | 0;
      const s = (Math.abs(next()) % 62) - 31;
      expect(requantizeFast(x, m, s)).toBe(multiplyByQuantizedMultiplier(x, m, s));
    }
  });

  it('requantizeClamp equals arm_nn_requantize + offset + MIN(MAX()) on both of its paths', () => {
    let seed = 777;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) | 0);
    const xs = [0, 1, -1, 4194303, -4194303, 4194304, -4194304, 2147483647, -2147483648];
    for (let i = 0; i < 20000; i++) {
      const x = i < xs.length ? xs[i]! : i % 2 ? next() >> (8 + (i % 16)) : next();
      const m = (next() >>> 1) | 0;
      const s = (Math.abs(next()) % 40) - 31;
      const off = (next() >> 24) | 0;
      const r = requantize(x, m, s) + off;
      expect(requantizeClamp(x, m, s, off, -128, 127)).toBe(Math.min(Math.max(r, -128), 127));
      expect(requantizeClamp(x, m, s, off, 0, 6)).toBe(Math.min(Math.max(r, 0), 6));
    }
  });
});
