import { describe, expect, it } from 'vitest';
import {
  RESULT,
  add64,
  compare64,
  int64ToFloat32,
  int64ToNumber,
  mul64,
  neg64,
  setInt64FromFloatX86,
  sub64,
  truncMod64,
  udivmod64,
} from './int64.js';

/** Deterministic int64 values: edges, small numbers and full-range bit patterns. */
function values(): bigint[] {
  const out = [0n, 1n, -1n, 2n, -2n, 7n, -7n, 2n ** 31n, -(2n ** 31n), 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n + 1n, -(2n ** 53n) - 3n];
  out.push(2n ** 63n - 1n, -(2n ** 63n), 2n ** 62n + 12345n, -(2n ** 62n) + 999n);
  let s = 0x9e3779b97f4a7c15n;
  for (let i = 0; i < 60; i++) {
    s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    out.push(BigInt.asIntN(64, s >> BigInt(i % 40)));
  }
  return out;
}
const words = (v: bigint) => Int32Array.from([Number(BigInt.asIntN(32, v)), Number(BigInt.asIntN(32, v >> 32n))]);
const big = (w: ArrayLike<number>, i = 0) => (BigInt(w[i + 1]!) << 32n) | BigInt(w[i]! >>> 0);

describe('int64 on int32 word pairs (BigInt as the reference)', () => {
  const vs = values();
  const out = new Int32Array(2);
  it('add, sub, mul wrap modulo 2^64; neg; compare', () => {
    for (const a of vs) {
      neg64(out, 0, words(a), 0);
      expect(big(out)).toBe(BigInt.asIntN(64, -a));
      for (const b of vs) {
        add64(out, 0, words(a), 0, words(b), 0);
        expect(big(out)).toBe(BigInt.asIntN(64, a + b));
        sub64(out, 0, words(a), 0, words(b), 0);
        expect(big(out)).toBe(BigInt.asIntN(64, a - b));
        mul64(out, 0, words(a), 0, words(b), 0);
        expect(big(out), `${a} * ${b}`).toBe(BigInt.asIntN(64, a * b));
        expect(compare64(words(a), 0, words(b), 0)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }
    }
  });

  it('unsigned division and C++ remainder', () => {
    for (const a of vs)
      for (const b of vs) {
        if (b === 0n) continue;
        const ua = BigInt.asUintN(64, a);
        const ub = BigInt.asUintN(64, b);
        const wa = words(a);
        const wb = words(b);
        udivmod64(out, 0, wa[0]!, wa[1]!, wb[0]!, wb[1]!);
        expect(BigInt.asUintN(64, big(out))).toBe(ua / ub);
        expect(BigInt.asUintN(64, big(RESULT))).toBe(ua % ub);
        truncMod64(out, 0, wa, 0, wb, 0);
        expect(big(out), `${a} % ${b}`).toBe(BigInt.asIntN(64, a % b));
      }
  });

  it('conversions: to number, to float32 (one rounding), from floats (x86 truncation)', () => {
    for (const a of vs) {
      expect(int64ToNumber(words(a), 0)).toBe(Number(a));
      // The correctly rounded float32 of a: round the exact BigInt to 24 significant bits, ties to even.
      expect(int64ToFloat32(words(a), 0), `${a}`).toBe(float32Of(a));
    }
    for (const x of [0, -0.5, 1.9, -1.9, 3e9, -3e9, 2 ** 62, -(2 ** 63), 2 ** 63, NaN, Infinity, -Infinity]) {
      setInt64FromFloatX86(out, 0, x);
      const expected = Number.isFinite(x) && x >= -(2 ** 63) && x < 2 ** 63 ? BigInt(Math.trunc(x)) : -(2n ** 63n);
      expect(big(out), `${x}`).toBe(expected);
    }
  });
});

/** The float32 nearest to the integer `v` (ties to even), computed on BigInts. */
function float32Of(v: bigint): number {
  if (v === 0n) return 0;
  const neg = v < 0n;
  let m = neg ? -v : v;
  const bits = m.toString(2).length;
  if (bits > 24) {
    const shift = BigInt(bits - 24);
    const rest = m & ((1n << shift) - 1n);
    const halfway = 1n << (shift - 1n);
    m >>= shift;
    if (rest > halfway || (rest === halfway && (m & 1n) === 1n)) m += 1n;
    m <<= shift;
  }
  return neg ? -Number(m) : Number(m);
}
