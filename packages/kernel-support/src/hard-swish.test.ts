import { describe, expect, it } from 'vitest';
import { hardSwishQuantized, hardSwishTable, type HardSwishQuantParams } from './hard-swish.js';

describe('hardSwishTable', () => {
  it('holds hardSwishQuantized of each input byte (int8: bytes 128-255 are -128..-1), near x * relu6(x + 3) / 6', () => {
    // input scale 0.05 (zero point 3), output scale 0.03 (zero point -100): TFLM's prepare of these
    const d: HardSwishQuantParams = {
      inputZeroPoint: 3,
      outputZeroPoint: -100,
      outputMultiplier: 27307,
      outputExponent: -6,
      reluishMultiplier: 17476,
      reluishExponent: 3,
    };
    for (const unsigned of [false, true]) {
      const table = new Uint8Array(256);
      hardSwishTable(d, unsigned, table);
      for (let b = 0; b < 256; b++) {
        const x = unsigned || b < 128 ? b : b - 256;
        const v = hardSwishQuantized(x, d, unsigned ? 0 : -128, unsigned ? 255 : 127);
        expect(table[b], `byte ${b}`).toBe(v & 255);
        if (!unsigned) {
          const real = 0.05 * (x - 3);
          const want = (real * Math.min(6, Math.max(0, real + 3))) / 6 / 0.03 - 100;
          expect(Math.abs(v - Math.min(127, Math.max(-128, want))), `x ${x}`).toBeLessThanOrEqual(1.5);
        }
      }
    }
  });
});
