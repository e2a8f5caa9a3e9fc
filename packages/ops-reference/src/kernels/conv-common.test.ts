import { describe, expect, it } from 'vitest';
import { AllocationType, Tensor, TensorType, multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplierInt64 } from '@micrort/core';
import { Int64Words, endTap, firstTap, int64At } from './conv-common.js';

describe('filter tap bounds of the convolution loops', () => {
  it('filter tap ranges match the per-tap inside-image test', () => {
    for (let origin = -7; origin <= 9; origin++) {
      for (let dil = 1; dil <= 3; dil++) {
        for (const extent of [1, 4, 6]) {
          const size = 4;
          const inside: number[] = [];
          for (let k = 0; k < size; k++) {
            const v = origin + k * dil;
            if (v >= 0 && v < extent) inside.push(k);
          }
          const k0 = firstTap(origin, dil);
          const k1 = endTap(origin, dil, extent, size);
          const got: number[] = [];
          for (let k = k0; k < k1; k++) got.push(k);
          expect(got, `origin ${origin} dilation ${dil} extent ${extent}`).toEqual(inside);
        }
      }
    }
  });
});

describe('Int64Words', () => {
  it('reads int64 tensor elements as exact numbers', () => {
    const t = new Tensor(0, 'b', TensorType.INT64, Int32Array.from([4]), null, false);
    t.bind(new ArrayBuffer(32), 0, AllocationType.MmapRo);
    const values = [0n, -1n, 123456789012345n, -(2n ** 40n) - 5n];
    (t.data as BigInt64Array).set(values);
    const w = new Int64Words();
    const words = w.of(t);
    expect(w.of(t)).toBe(words); // cached
    expect([0, 1, 2, 3].map((i) => int64At(words, i))).toEqual(values.map(Number));
  });
});

// Independent BigInt statement of TFLM's requantization, to cross-check the core functions the kernels use.
const I32_MIN = -2147483648;
function mbqmRef(x: number, m: number, shift: number): number {
  const left = shift > 0 ? shift : 0;
  const right = shift > 0 ? 0 : -shift;
  const xs = BigInt.asIntN(32, BigInt(x) << BigInt(left));
  let high: bigint;
  if (xs === BigInt(I32_MIN) && m === I32_MIN) high = 2147483647n;
  else {
    const ab = xs * BigInt(m);
    const nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
    high = (ab + nudge) / (1n << 31n); // BigInt division truncates like C
  }
  if (right === 0) return Number(high);
  const d = 1n << BigInt(right);
  let q = high / d;
  const r = high - q * d;
  if (2n * (r < 0n ? -r : r) >= d) q += high < 0n ? -1n : 1n; // round half away from zero
  return Number(q);
}
function mbqm64Ref(x: number, m: number, shift: number): number {
  const reduced = m < 0x7fff0000 ? BigInt((m + 32768) >> 16) : 0x7fffn;
  const total = BigInt(15 - shift);
  return Number(BigInt.asIntN(32, (BigInt(x) * reduced + (1n << (total - 1n))) >> total));
}

describe('requantization used by the kernels (cross-check with BigInt)', () => {
  it('matches TFLM MultiplyByQuantizedMultiplier for int32 and int64 accumulators', () => {
    let s = 12345;
    const rnd = () => {
      s = (Math.imul(s, 1103515245) + 12345) | 0;
      return s;
    };
    for (let i = 0; i < 400; i++) {
      const m = 1073741824 + (rnd() & 0x3fffffff);
      const shift = ((rnd() >>> 0) % 20) - 14;
      const x = rnd() >> ((rnd() >>> 0) % 24);
      expect(multiplyByQuantizedMultiplier(x, m, shift), `x=${x} m=${m} s=${shift}`).toBe(mbqmRef(x, m, shift));
      const x64 = x * 1024 + (rnd() & 1023);
      const s64 = shift > 7 ? 7 : shift;
      expect(multiplyByQuantizedMultiplierInt64(x64, m, s64), `x64=${x64} m=${m} s=${s64}`).toBe(mbqm64Ref(x64, m, s64));
    }
  });
});
