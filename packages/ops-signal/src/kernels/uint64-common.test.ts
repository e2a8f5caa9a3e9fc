import { describe, expect, it } from 'vitest';
import { U64, compareU64 } from './uint64-common.js';

const M64 = (1n << 64n) - 1n;
const value = (a: U64) => (BigInt(a.hi) << 32n) | BigInt(a.lo);

/** xorshift32: deterministic uint32 test values. */
function* uint32s(seed: number, n: number): Generator<number> {
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    yield s;
  }
}

describe('U64 (exact uint64 arithmetic without BigInt)', () => {
  it('multiplies uint32 pairs exactly, including the extremes', () => {
    const a = new U64();
    const edges = [0, 1, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];
    for (const x of edges) for (const y of edges) expect(value(a.setMul(x, y))).toBe(BigInt(x) * BigInt(y));
    const vals = [...uint32s(7, 400)];
    for (let i = 0; i + 1 < vals.length; i += 2)
      expect(value(a.setMul(vals[i]!, vals[i + 1]!))).toBe(BigInt(vals[i]!) * BigInt(vals[i + 1]!));
  });

  it('accumulates products modulo 2^64', () => {
    const a = new U64();
    let ref = 0n;
    const vals = [...uint32s(99, 200)];
    for (let i = 0; i + 1 < vals.length; i += 2) {
      a.addMul(vals[i]!, vals[i + 1]!);
      ref = (ref + BigInt(vals[i]!) * BigInt(vals[i + 1]!)) & M64;
      expect(value(a)).toBe(ref);
    }
    a.set(0xffffffff, 0xffffffff).addWords(0, 2);
    expect(value(a)).toBe(1n);
  });

  it('adds signed values below 2^53 modulo 2^64 (a signed product converted to uint64)', () => {
    const a = new U64();
    let ref = 0n;
    const vals = [...uint32s(3, 300)];
    for (let i = 0; i + 1 < vals.length; i += 2) {
      const w = (vals[i]! << 16) >> 16; // an int16 weight
      const v = w * vals[i + 1]!;
      a.addSigned(v);
      ref = (ref + BigInt(v)) & M64;
      expect(value(a)).toBe(ref);
    }
    a.set(0, 5).addSigned(-7);
    expect(value(a)).toBe(M64 - 1n);
  });

  it('shifts right and keeps the low 32 bits for every shift 0..63', () => {
    const a = new U64().set(0xdeadbeef, 0x12345678);
    const v = value(a);
    for (let s = 0; s < 64; s++) expect(a.shiftRightLow32(s)).toBe(Number((v >> BigInt(s)) & 0xffffffffn));
  });

  it('compares (hi, lo) pairs', () => {
    expect(compareU64(1, 0, 0, 0xffffffff)).toBeGreaterThan(0);
    expect(compareU64(1, 5, 1, 5)).toBe(0);
    expect(compareU64(1, 4, 1, 5)).toBeLessThan(0);
  });
});
