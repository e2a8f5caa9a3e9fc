import { describe, expect, it } from 'vitest';
import { SIGMOID_TABLE_UINT16, logisticInt16, tanhInt16 } from './int16-activation.js';

describe('int16 sigmoid lookup', () => {
  it('the table is sigmoid(i / 24) in Q0.16 within 2, increasing', () => {
    expect(SIGMOID_TABLE_UINT16.length).toBe(256);
    for (let i = 0; i < 256; i++) {
      expect(Math.abs(SIGMOID_TABLE_UINT16[i]! - 65536 / (1 + Math.exp(-i / 24)))).toBeLessThanOrEqual(2);
      if (i > 0) expect(SIGMOID_TABLE_UINT16[i]!).toBeGreaterThanOrEqual(SIGMOID_TABLE_UINT16[i - 1]!);
    }
  });

  it('logistic and tanh at 0 and at the ends of the int16 range (power-of-two scale 2^-12)', () => {
    // multiplier 3, no shift. For LOGISTIC the int16 end 8.0 maps to table index 192 < 255, so it is
    // interpolated, not saturated (values from TFLM's reference algorithm); TANH doubles it and saturates.
    expect(logisticInt16(0, 3, 0, 0)).toBe(16384);
    expect(logisticInt16(32767, 3, 0, 0)).toBe(32757);
    expect(logisticInt16(-32768, 3, 0, 0)).toBe(11);
    expect(tanhInt16(0, 3, 0, 0)).toBe(0);
    expect(tanhInt16(32767, 3, 0, 0)).toBe(32767);
    expect(tanhInt16(-32768, 3, 0, 0)).toBe(-32767);
  });
});
