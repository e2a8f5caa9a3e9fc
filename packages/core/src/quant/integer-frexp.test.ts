import { describe, expect, it } from 'vitest';
import { INTEGER_FREXP_BAD_SHIFT, integerFrExp, quantizeMultiplierIntegerFrExp } from './integer-frexp.js';
import { quantizeMultiplier } from './quantize-multiplier.js';
import { conformanceMultipliers } from './__tests__/conformance-scales.js';

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** A double from its two 32-bit halves. */
function fromBits(hi: number, lo: number): number {
  U32[1] = hi >>> 0;
  U32[0] = lo >>> 0;
  return F64[0]!;
}

/** Whether the 22 bits below the 31-bit fraction of `x` are exactly one half (a rounding tie). */
function isTie(x: number): boolean {
  F64[0] = x;
  return (U32[0]! & 0x3fffff) === 0x200000;
}

/**
 * Exact oracle with BigInt (tests only): real = M * 2^(E - 52) with the 53-bit integer mantissa M, so
 * q * 2^31 = M / 2^22. frexp path: round half away from zero; IntegerFrExp path: ties round down.
 */
function oracle(x: number, tiesDown: boolean): { multiplier: number; shift: number } {
  if (x === 0) return { multiplier: 0, shift: 0 };
  F64[0] = Math.abs(x);
  const hi = U32[1]!;
  const lo = U32[0]!;
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  const m = biased === 0 ? frac : frac | (1n << 52n);
  let shift = biased === 0 ? -1021 : biased - 1022;
  let q = m >> 22n;
  const rem = m & 0x3fffffn;
  if (rem > 0x200000n || (rem === 0x200000n && !tiesDown)) q += 1n;
  if (biased === 0) {
    // subnormal: frexp normalises, but any subnormal gives shift < -31 and is flushed to zero anyway
    return { multiplier: 0, shift: 0 };
  }
  if (q === 1n << 31n && x > 0) {
    // TFLite only halves +2^31; a negative multiplier keeps -2^31 (a valid int32)
    q >>= 1n;
    shift++;
  }
  if (shift < -31) return { multiplier: 0, shift: 0 };
  return { multiplier: x < 0 ? -Number(q) : Number(q), shift };
}

/** Deterministic xorshift32 stream. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

function edgeMultipliers(): number[] {
  const xs: number[] = [];
  for (let e = -40; e <= 40; e++) {
    const p = 2 ** e;
    xs.push(p, p * (1 - 2 ** -53), p * (1 + 2 ** -52), p * (1 - 2 ** -31), p * (1 - 2 ** -32), p * 0.75, -p);
  }
  xs.push(Number.MIN_VALUE, 2 ** -1022, 2 ** -31, 2 ** -32, 2 ** -32 * 1.5, 1e-300, 1e300, Number.MAX_VALUE, -Number.MAX_VALUE);
  xs.push(0.1, 1 / 3, 2 / 3, 0.999999, 0.9999999999, 1.0000001, 2147483647, 2147483648, 4294967295, 1e-10, 1e10);
  // exact ties and their neighbours: 2^30 + k + 1/2 over 2^31, and the carry case 2^31 - 1/2
  for (const k of [0, 1, 12345, 0x3ffffffe]) {
    const t = (2 ** 30 + k + 0.5) / 2 ** 31;
    xs.push(t, t * (1 + 2 ** -52), t * (1 - 2 ** -53));
  }
  xs.push((2 ** 31 - 0.5) / 2 ** 31, (2 ** 31 - 0.5) / 2 ** 20);
  return xs;
}

describe('integerFrExp', () => {
  it('splits 1.0, 0.5 and -3 like frexp', () => {
    expect(integerFrExp(1)).toEqual({ fraction: 2 ** 30, shift: 1 });
    expect(integerFrExp(0.5)).toEqual({ fraction: 2 ** 30, shift: 0 });
    expect(integerFrExp(-3)).toEqual({ fraction: -(2 ** 30 + 2 ** 29), shift: 2 });
  });
  it('returns 0 for ±0 and flags NaN / infinities with INT_MAX shift', () => {
    expect(integerFrExp(0)).toEqual({ fraction: 0, shift: 0 });
    expect(integerFrExp(-0)).toEqual({ fraction: 0, shift: 0 });
    expect(integerFrExp(Number.NaN)).toEqual({ fraction: 0, shift: INTEGER_FREXP_BAD_SHIFT });
    expect(integerFrExp(Infinity)).toEqual({ fraction: Infinity, shift: INTEGER_FREXP_BAD_SHIFT });
    expect(integerFrExp(-Infinity)).toEqual({ fraction: -Infinity, shift: INTEGER_FREXP_BAD_SHIFT });
  });
  it('rounds up only when the discarded 22 bits exceed one half', () => {
    const base = fromBits(0x3ff00000, 0); // 1.0
    expect(integerFrExp(fromBits(0x3ff00000, 0x200000)).fraction).toBe(2 ** 30); // tie: down
    expect(integerFrExp(fromBits(0x3ff00000, 0x200001)).fraction).toBe(2 ** 30 + 1);
    expect(integerFrExp(fromBits(0x3ff00000, 0x1fffff)).fraction).toBe(2 ** 30);
    expect(integerFrExp(base).fraction).toBe(2 ** 30);
    // all 30 kept bits set and a round-up: carries to 2^31
    expect(integerFrExp(fromBits(0x3fffffff, 0xffffffff)).fraction).toBe(2 ** 31);
  });
});

describe('quantizeMultiplierIntegerFrExp vs quantizeMultiplier (frexp)', () => {
  const rand = rng(0x5eed);
  const randoms: number[] = [];
  // random bit patterns with exponents spread over [2^-45, 2^45]
  for (let i = 0; i < 8000; i++) {
    const exp = 1023 - 45 + (rand() % 91);
    randoms.push((rand() & 1 ? -1 : 1) * fromBits((exp << 20) | (rand() & 0xfffff), rand()));
  }
  // random products of float32 "scales", as kernels form them
  for (let i = 0; i < 4000; i++) {
    const s = () => Math.fround(2 ** -((rand() % 2000) / 100) * (1 + (rand() % 1000) / 1000));
    randoms.push((s() * s()) / s());
  }
  const edges = edgeMultipliers();

  it(`agrees on ${randoms.length + edges.length} random and edge multipliers except at exact ties`, () => {
    let ties = 0;
    for (const x of [...randoms, ...edges]) {
      const a = quantizeMultiplier(x);
      const b = quantizeMultiplierIntegerFrExp(x);
      expect(a, `frexp path for ${x}`).toEqual(oracle(x, false));
      expect(b, `IntegerFrExp path for ${x}`).toEqual(oracle(x, true));
      if (isTie(x) && a.multiplier !== 0) {
        ties++;
        // one lower, or (carry case) 2^31 - 1 at the old shift, or flushed where the carry crossed shift -31
        expect(b, `tie ${x}`).not.toEqual(a);
      } else {
        expect(b, `paths differ for ${x}`).toEqual(a);
      }
    }
    expect(randoms.length + edges.length).toBeGreaterThan(10_000);
    expect(ties).toBeGreaterThan(0); // the edge list contains explicit ties
  });

  it('differs by one at an exact tie: (2^30 + 1/2) / 2^31', () => {
    const t = (2 ** 30 + 0.5) / 2 ** 31;
    expect(quantizeMultiplier(t)).toEqual({ multiplier: 2 ** 30 + 1, shift: 0 });
    expect(quantizeMultiplierIntegerFrExp(t)).toEqual({ multiplier: 2 ** 30, shift: 0 });
  });

  it('flushes tiny multipliers and does not clamp large shifts', () => {
    expect(quantizeMultiplierIntegerFrExp(2 ** -33)).toEqual({ multiplier: 0, shift: 0 });
    expect(quantizeMultiplierIntegerFrExp(2 ** -32)).toEqual({ multiplier: 2 ** 30, shift: -31 });
    expect(quantizeMultiplierIntegerFrExp(2 ** -31)).toEqual({ multiplier: 2 ** 30, shift: -30 });
    expect(quantizeMultiplierIntegerFrExp(2 ** 40)).toEqual({ multiplier: 2 ** 30, shift: 41 });
    expect(quantizeMultiplier(2 ** 40)).toEqual({ multiplier: 2 ** 30, shift: 41 });
    expect(() => quantizeMultiplierIntegerFrExp(Number.NaN)).toThrow(RangeError);
    expect(() => quantizeMultiplier(Infinity)).toThrow(RangeError);
  });

  const fromModels = conformanceMultipliers();
  it.skipIf(fromModels.length === 0)(`agrees on all ${fromModels.length} multipliers of the conformance models`, () => {
    let checked = 0;
    for (const m of fromModels) {
      if (!Number.isFinite(m.value)) continue;
      expect(isTie(m.value), `${m.model} ${m.what} is a rounding tie`).toBe(false);
      expect(quantizeMultiplierIntegerFrExp(m.value), `${m.model} ${m.what} = ${m.value}`).toEqual(quantizeMultiplier(m.value));
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
