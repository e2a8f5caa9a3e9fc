import { describe, expect, it } from 'vitest';
import { leakyReluQuantized, leakyReluTable, type LeakyReluQuantParams } from './leaky-relu.js';

describe('leakyReluTable', () => {
  it('holds leakyReluQuantized of each input byte (int8: bytes 128-255 are -128..-1), near max(x, 0.2 x)', () => {
    // input scale 0.05 (zero point 3), output scale 0.04 (zero point -10), alpha 0.2:
    // identity 1.25 = 0.625 * 2^1, alpha 0.25 = 0.5 * 2^-1
    const p: LeakyReluQuantParams = {
      multiplierIdentity: 1342177280,
      shiftIdentity: 1,
      multiplierAlpha: 1073741824,
      shiftAlpha: -1,
      inputZeroPoint: 3,
      outputZeroPoint: -10,
    };
    for (const unsigned of [false, true]) {
      const table = new Uint8Array(256);
      leakyReluTable(p, unsigned, table);
      for (let b = 0; b < 256; b++) {
        const x = unsigned || b < 128 ? b : b - 256;
        const v = leakyReluQuantized(x, p, unsigned ? 0 : -128, unsigned ? 255 : 127);
        expect(table[b], `byte ${b}`).toBe(v & 255);
        const real = 0.05 * (x - 3);
        const want = (real >= 0 ? real : 0.2 * real) / 0.04 - 10;
        const lo = unsigned ? 0 : -128;
        const hi = unsigned ? 255 : 127;
        expect(Math.abs(v - Math.min(hi, Math.max(lo, want))), `x ${x}`).toBeLessThanOrEqual(0.5 + 1e-9);
      }
    }
  });
});
