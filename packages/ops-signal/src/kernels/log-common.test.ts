import { describe, expect, it } from 'vitest';
import { log32 } from './log-common.js';

describe('log32 (TFLM Log32)', () => {
  it('approximates ln(x) * scale within the table accuracy', () => {
    for (const x of [2, 3, 10, 1000, 65535, 65536, 1e6, 0x7fffffff, 0xffffffff]) {
      const got = log32(x, 1 << 10);
      expect(Math.abs(got - Math.log(x) * 1024), `x = ${x}`).toBeLessThan(2);
    }
  });

  it('is exact on powers of two up to the fixed-point rounding', () => {
    // log2 = k << 16 exactly, loge = round(45426 * k), scaled by 1: round(loge / 2^16)
    expect(log32(1, 65536)).toBe(0);
    expect(log32(2, 65536)).toBe(Math.floor((45426 * 65536 + 32768) / 65536)); // 45426 = ln(2) * 2^16
    expect(log32(1 << 20, 64)).toBe(Math.floor((64 * Math.floor((45426 * (20 << 16) + 32768) / 65536) + 32768) / 65536));
  });

  it('wraps out_scale * loge in uint32 as the C code does', () => {
    // loge of 2^31 is 45426 * 31 = 1408206; times 2^12 overflows 2^32
    const loge = 1408206;
    const scale = 1 << 12;
    expect(log32(0x80000000, scale)).toBe(((((loge * scale) % 2 ** 32) + 32768) / 65536) | 0);
  });
});
