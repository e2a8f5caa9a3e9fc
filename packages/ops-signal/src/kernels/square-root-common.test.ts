import { describe, expect, it } from 'vitest';
import { sqrt32, sqrt64 } from './square-root-common.js';

/** TFLM's Sqrt32/Sqrt64 bit-by-bit loops, transcribed literally with BigInt as the oracle. */
function msb(x: bigint): number {
  return x === 0n ? -1 : x.toString(2).length;
}
function refSqrt(num: bigint, bits: 32 | 64, cap: bigint): bigint {
  if (num === 0n) return 0n;
  let res = 0n;
  let maxBit = bits - msb(num);
  maxBit |= 1;
  let bit = 1n << BigInt(bits - 1 - maxBit);
  let iterations = Math.floor((bits - 1 - maxBit) / 2) + 1;
  while (iterations--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1n) + bit;
    } else {
      res >>= 1n;
    }
    bit >>= 2n;
  }
  if (num > res && res !== cap) res++;
  return res;
}
const refSqrt64 = (n: bigint) => (n >> 32n === 0n ? refSqrt(n, 32, 0xffffn) : refSqrt(n, 64, 0xffffffffn));

describe('sqrt32 / sqrt64 (TFLM Sqrt32, Sqrt64)', () => {
  it('rounds to nearest: examples', () => {
    expect(sqrt32(0)).toBe(0);
    expect(sqrt32(1)).toBe(1);
    expect(sqrt32(2)).toBe(1);
    expect(sqrt32(3)).toBe(2); // remainder 2 > root 1
    expect(sqrt32(6)).toBe(2);
    expect(sqrt32(7)).toBe(3);
    expect(sqrt32(0xffffffff)).toBe(0xffff); // capped: would round to 65536
  });

  it('matches the bit-by-bit algorithm around squares and at the word boundaries', () => {
    const samples: bigint[] = [];
    for (const r of [1n, 2n, 255n, 65535n, 65536n, 1n << 20n, 0xfffffffen, 0xffffffffn])
      for (const d of [-2n, -1n, 0n, 1n, 2n]) samples.push(r * r + r + d, r * r + d);
    samples.push((1n << 32n) - 1n, 1n << 32n, (1n << 64n) - 1n, 1n << 63n, 0xfffffffe00000001n);
    for (const n of samples) {
      if (n < 0n || n >= 1n << 64n) continue;
      const hi = Number(n >> 32n);
      const lo = Number(n & 0xffffffffn);
      expect(sqrt64(hi, lo), `n = ${n}`).toBe(Number(refSqrt64(n)));
      if (hi === 0) expect(sqrt32(lo)).toBe(Number(refSqrt(n, 32, 0xffffn)));
    }
  });

  it('matches the bit-by-bit algorithm on spread-out 64-bit values', () => {
    let s = 0x9e3779b97f4a7c15n;
    for (let i = 0; i < 300; i++) {
      s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
      const n = s >> BigInt(i % 40); // values of every magnitude
      expect(sqrt64(Number(n >> 32n), Number(n & 0xffffffffn)), `n = ${n}`).toBe(Number(refSqrt64(n)));
    }
  });
});
