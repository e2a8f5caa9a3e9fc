import { describe, expect, it } from 'vitest';
import {
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierGreaterThanOne,
  multiplyByQuantizedMultiplierInt64,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  roundingDivideByPOT,
  saturatingRoundingDoublingHighMul,
} from './fixed-point.js';

const MIN = -2147483648;
const MAX = 2147483647;

/** C++ int64 division (truncates toward zero), as BigInt division does. */
function srdhmOracle(a: number, b: number): number {
  if (a === MIN && b === MIN) return MAX;
  const ab = BigInt(a) * BigInt(b);
  const nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
  return Number((ab + nudge) / (1n << 31n));
}

function rdbpotOracle(x: number, e: number): number {
  const mask = (1n << BigInt(e)) - 1n;
  const rem = BigInt(x) & mask;
  const threshold = (mask >> 1n) + (x < 0 ? 1n : 0n);
  return Number((BigInt(x) >> BigInt(e)) + (rem > threshold ? 1n : 0n));
}

/** The TFLM result, or null where it does not fit int32 (outside the function's contract). */
function int64Oracle(x: bigint, m: number, shift: number): number | null {
  const reduced = m < 0x7fff0000 ? (m + 32768) >> 16 : 0x7fff;
  const total = BigInt(15 - shift);
  const r = (x * BigInt(reduced) + (1n << (total - 1n))) >> total;
  return r >= -(1n << 31n) && r < 1n << 31n ? Number(r) : null;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s | 0;
  };
}

describe('saturatingRoundingDoublingHighMul', () => {
  it('saturates INT32_MIN * INT32_MIN only', () => {
    expect(saturatingRoundingDoublingHighMul(MIN, MIN)).toBe(MAX);
    expect(saturatingRoundingDoublingHighMul(MIN, MAX)).toBe(-MAX);
    expect(saturatingRoundingDoublingHighMul(MAX, MAX)).toBe(MAX - 1);
  });
  it('rounds positive ties up and negative ties toward zero (nudge 2^30 / 1 - 2^30)', () => {
    // a*b = ±2^30: 2ab / 2^32 = ±0.5
    expect(saturatingRoundingDoublingHighMul(1 << 15, 1 << 15)).toBe(1);
    expect(saturatingRoundingDoublingHighMul(-(1 << 15), 1 << 15)).toBe(0);
    expect(saturatingRoundingDoublingHighMul(-(1 << 15) - 1, 1 << 15)).toBe(-1);
    expect(saturatingRoundingDoublingHighMul(1, 1 << 29)).toBe(0);
  });
  it('matches a BigInt oracle on random and edge operands', () => {
    const r = rng(7);
    const edges = [0, 1, -1, 2, -2, MIN, MAX, MIN + 1, 1 << 30, -(1 << 30), 65535, 65536, -65536, 0x7fff0000];
    for (const a of edges) for (const b of edges) expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
    for (let i = 0; i < 3000; i++) {
      const a = r();
      const b = i % 3 === 0 ? r() >> (i % 31) : r();
      expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
    }
  });

  it('matches the BigInt oracle for accumulator-sized a (|a| < 2^22, the uncorrected path) and at its edge', () => {
    const r = rng(11);
    const lim = 1 << 22;
    for (const a of [lim - 1, -(lim - 1), lim, -lim, lim + 1, -(lim + 1)])
      for (const b of [MIN, MAX, MIN + 1, 1 << 30, -(1 << 30), 0x7fff0000, 1])
        expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
    for (let i = 0; i < 3000; i++) {
      const a = r() >> (10 + (i % 12));
      const b = r();
      expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
    }
  });
});

describe('roundingDivideByPOT', () => {
  it('rounds half away from zero', () => {
    expect(roundingDivideByPOT(5, 1)).toBe(3);
    expect(roundingDivideByPOT(-5, 1)).toBe(-3);
    expect(roundingDivideByPOT(3, 1)).toBe(2);
    expect(roundingDivideByPOT(-3, 1)).toBe(-2);
    expect(roundingDivideByPOT(-1, 1)).toBe(-1);
    expect(roundingDivideByPOT(1, 1)).toBe(1);
    expect(roundingDivideByPOT(7, 0)).toBe(7);
  });
  it('handles exponent 31 and INT32 extremes', () => {
    expect(roundingDivideByPOT(MIN, 31)).toBe(-1);
    expect(roundingDivideByPOT(MAX, 31)).toBe(1);
    expect(roundingDivideByPOT(1 << 30, 31)).toBe(1); // 0.5 → 1
    expect(roundingDivideByPOT(-(1 << 30), 31)).toBe(-1);
  });
  it('matches a BigInt oracle', () => {
    const r = rng(11);
    for (let i = 0; i < 2000; i++) {
      const x = r();
      const e = i % 32;
      expect(roundingDivideByPOT(x, e), `${x} >> ${e}`).toBe(rdbpotOracle(x, e));
    }
  });
});

describe('multiplyByQuantizedMultiplier (double rounding)', () => {
  it('applies left shifts with C wrapping and right shifts with rounding', () => {
    expect(multiplyByQuantizedMultiplier(100, 1 << 30, 0)).toBe(50);
    expect(multiplyByQuantizedMultiplier(3, 1 << 30, -1)).toBe(1); // SRDHM: 1.5 → 2, then 2 / 2 = 1
    expect(multiplyByQuantizedMultiplier(100, 1 << 30, 2)).toBe(200);
    expect(multiplyByQuantizedMultiplier(-7, 1 << 30, 1)).toBe(-7);
    // double rounding: 5 * 0.75 = 3.75 → 4 (SRDHM) then /2 = 2
    expect(multiplyByQuantizedMultiplier(5, 3 << 29, -1)).toBe(2);
  });
  it('is SRDHM then RoundingDivideByPOT', () => {
    const r = rng(3);
    for (let i = 0; i < 1000; i++) {
      const x = r() >> 8;
      const m = (r() >>> 1) | (1 << 30);
      const shift = -(i % 31);
      expect(multiplyByQuantizedMultiplier(x, m, shift)).toBe(rdbpotOracle(srdhmOracle(x, m), -shift));
      expect(multiplyByQuantizedMultiplierSmallerThanOneExp(x, m, shift)).toBe(rdbpotOracle(srdhmOracle(x, m), -shift));
    }
    expect(multiplyByQuantizedMultiplierGreaterThanOne(3, 1 << 30, 4)).toBe(24);
  });
});

describe('multiplyByQuantizedMultiplierInt64', () => {
  it('matches a BigInt oracle over the documented range |x| < 2^47', () => {
    const r = rng(99);
    const xs: bigint[] = [0n, 1n, -1n, (1n << 47n) - 1n, -(1n << 47n), 123456789012n, -98765432109n];
    for (let i = 0; i < 1500; i++) xs.push(BigInt(r()) * BigInt(r() & 0xffff) + BigInt(r() & 0xff));
    const mults = [1 << 30, 0x7fffffff, 0x7fff0000, 0x7ffeffff, 1518500250, 1073774592];
    let checked = 0;
    for (const x of xs)
      for (const m of mults)
        for (const shift of [-31, -20, -15, -1, 0, 3, 7]) {
          const want = int64Oracle(x, m, shift);
          if (want === null) continue;
          checked++;
          expect(multiplyByQuantizedMultiplierInt64(Number(x), m, shift), `${x} ${m} ${shift}`).toBe(want);
        }
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('saturatingRoundingDoublingHighMul (double estimate + imul correction)', () => {
  it('matches the BigInt oracle on large operands, exact ties and near-ties', () => {
    const r = rng(20261121);
    const big = [MIN, MIN + 1, MIN + 2, MAX, MAX - 1, MAX - 2, 0x40000000, -0x40000000, 0x7fff0000, 0x3fffffff, -0x3fffffff];
    for (const a of big) for (const b of big) expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
    for (let i = 0; i < 2000; i++) {
      // Products within a few units of k * 2^30 (ties of the rounding) with large magnitudes, both signs.
      const e = 1 + (i % 30);
      const a = (r() | 1) >> (i % 7);
      const b = ((1 << e) + ((i >> 5) % 5) - 2) * (i & 1 ? -1 : 1);
      expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
      expect(saturatingRoundingDoublingHighMul(1 << (i % 31), b), `2^${i % 31}*${b}`).toBe(srdhmOracle(1 << (i % 31), b));
    }
    for (let i = 0; i < 4000; i++) {
      const a = r();
      const b = r() >> (i % 24);
      expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
      expect(saturatingRoundingDoublingHighMul(-a | 0, b), `${-a}*${b}`).toBe(srdhmOracle(-a | 0, b));
    }
  });
  it('matches the BigInt oracle where a*b + 2^30 lies within 2^11 of a multiple of 2^31', () => {
    // b = (s - 2^30) * a^-1 mod 2^31 for odd a, so a*b + 2^30 = s (mod 2^31): the double estimate of
    // the quotient is most often off right there.
    const M = 1n << 31n;
    const inverse = (a: bigint): bigint => {
      let x = 1n;
      for (let i = 0; i < 31; i++) x = (x * (2n - a * x)) % M;
      return ((x % M) + M) % M;
    };
    const r = rng(424242);
    for (let i = 0; i < 1500; i++) {
      const a = r() | 1;
      const s = BigInt((r() % 2048) + (i & 1 ? 1 << 30 : 0));
      let b = Number((((((s - (1n << 30n)) % M) + M) % M) * inverse(((BigInt(a) % M) + M) % M)) % M);
      if (i & 2) b -= 2 ** 31;
      expect(saturatingRoundingDoublingHighMul(a, b), `${a}*${b}`).toBe(srdhmOracle(a, b));
    }
  });
});

describe('roundingDivideByPOT (branch-free)', () => {
  it('matches the BigInt oracle on exact ties, tie neighbours and extremes at every exponent', () => {
    for (let e = 0; e < 32; e++) {
      const half = e === 0 ? 0 : 2 ** (e - 1);
      for (const k of [0, 1, 2, 3, 1000]) {
        for (const d of [-1, 0, 1]) {
          const base = k * 2 ** e + half + d;
          for (const x of [base, -base]) {
            if (x < MIN || x > MAX) continue;
            expect(roundingDivideByPOT(x, e), `${x} >> ${e}`).toBe(rdbpotOracle(x, e));
          }
        }
      }
      for (const x of [MIN, MIN + 1, MAX, MAX - 1, -1, 0, 1]) expect(roundingDivideByPOT(x, e), `${x} >> ${e}`).toBe(rdbpotOracle(x, e));
    }
  });
});
