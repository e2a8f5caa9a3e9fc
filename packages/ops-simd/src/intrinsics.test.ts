import { describe, expect, it } from 'vitest';
import { multiplyByQuantizedMultiplier, saturatingRoundingDoublingHighMul } from '@micrort/core';
import {
  clz,
  divideByPowerOfTwo,
  doublingHighMult,
  doublingHighMultNoSat,
  multByPowerOfTwo,
  pack16,
  pkhbt,
  pkhtb,
  qadd,
  qadd16,
  qsub,
  readAndPad,
  readAndPadReordered,
  readQ15x2,
  readS8x4,
  requantize,
  ror,
  sadd16,
  smlabb,
  smlad,
  smladx,
  smlal,
  smlatt,
  smuad,
  smulbb,
  smull,
  smultt,
  ssat,
  sxtab16,
  sxtab16Ror8,
  sxtb16,
  sxtb16Ror8,
  usat,
  writeQ15x2,
  writeS8x4,
} from './intrinsics.js';

const MIN = -2147483648;
const MAX = 2147483647;

/** Deterministic int32 stream (xorshift32). */
function rng(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s | 0;
  };
}

const halves = (w: number): [number, number] => [w >> 16, (w << 16) >> 16];

describe('dual 16-bit multiply instructions', () => {
  it('SMLAD adds both halfword products to the accumulator', () => {
    expect(smlad(pack16(3, -2), pack16(5, 7), 100)).toBe(100 + -2 * 7 + 3 * 5);
    expect(smlad(pack16(-32768, -32768), pack16(-32768, -32768), 0)).toBe(MIN); // 2^31 wraps
  });

  it('SMLAD wraps on accumulator overflow (the Q flag case)', () => {
    expect(smlad(pack16(1, 1), pack16(1, 1), MAX)).toBe(MIN + 1);
    expect(smlad(pack16(-1, 0), pack16(1, 0), MIN)).toBe(MAX);
  });

  it('SMLADX exchanges the halves of the second operand', () => {
    expect(smladx(pack16(3, -2), pack16(5, 7), 1)).toBe(1 + -2 * 5 + 3 * 7);
  });

  it('SMUAD without accumulator, SMLABB/SMLATT/SMULBB/SMULTT single halves', () => {
    expect(smuad(pack16(-4, 6), pack16(9, -3))).toBe(-18 - 36);
    expect(smlabb(pack16(100, -7), pack16(-100, 11), 5)).toBe(5 - 77);
    expect(smlatt(pack16(100, -7), pack16(-100, 11), 5)).toBe(5 - 10000);
    expect(smulbb(pack16(1, -32768), pack16(1, -32768))).toBe(1073741824);
    expect(smultt(pack16(-32768, 0), pack16(32767, 0))).toBe(-32768 * 32767);
  });

  it('agrees with BigInt arithmetic on random operands', () => {
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      const x = r();
      const y = r();
      const acc = r();
      const [xh, xl] = halves(x);
      const [yh, yl] = halves(y);
      const exact = BigInt(acc) + BigInt(xl * yl) + BigInt(xh * yh);
      expect(smlad(x, y, acc)).toBe(Number(BigInt.asIntN(32, exact)));
      const exactX = BigInt(acc) + BigInt(xl * yh) + BigInt(xh * yl);
      expect(smladx(x, y, acc)).toBe(Number(BigInt.asIntN(32, exactX)));
    }
  });
});

describe('sign extension and packing', () => {
  it('SXTB16 takes bytes 0 and 2, ROR #8 variant bytes 1 and 3', () => {
    const w = readS8x4(Int8Array.of(-1, 2, -128, 127), 0); // bytes b0=-1 b1=2 b2=-128 b3=127
    expect(halves(sxtb16(w))).toEqual([-128, -1]);
    expect(halves(sxtb16Ror8(w))).toEqual([127, 2]);
    expect(sxtb16Ror8(w)).toBe(sxtb16(ror(w, 8)));
  });

  it('SXTAB16 adds the extended bytes to each halfword with 16-bit wrap', () => {
    const w = readS8x4(Int8Array.of(-5, 9, 100, -100), 0);
    const off = pkhbt(128, 128, 16);
    expect(halves(sxtab16(off, w))).toEqual([228, 123]);
    expect(halves(sxtab16Ror8(off, w))).toEqual([28, 137]);
    // halfword overflow wraps: 32767 + 100
    expect(halves(sxtab16(pack16(32767, -32768), w))).toEqual([-32669, 32763]);
  });

  it('PKHBT/PKHTB combine bottom and top halves with shifts', () => {
    expect(pkhbt(0x1234abcd, 0x5678, 16)).toBe(0x5678abcd);
    expect(pkhtb(0x1234abcd | 0, 0x56780000, 16) >>> 0).toBe(0x12345678);
    expect(pkhtb(0, -65536, 16) >>> 0).toBe(0x0000ffff); // ASR keeps the sign of b
    expect(pkhbt(-1, 0, 16)).toBe(0xffff);
  });

  it('ROR rotates and handles 0 and 32', () => {
    expect(ror(0x12345678, 8) >>> 0).toBe(0x78123456);
    expect(ror(0x12345678, 0)).toBe(0x12345678);
    expect(ror(0x12345678, 32)).toBe(0x12345678);
    expect(ror(1, 1) >>> 0).toBe(0x80000000);
  });
});

describe('long multiplies', () => {
  const out = new Int32Array(2);
  const as64 = () => (BigInt(out[1]!) << 32n) | BigInt(out[0]! >>> 0);

  it('SMULL gives the exact 64-bit product at the extremes', () => {
    const cases: [number, number][] = [
      [MIN, MIN],
      [MIN, MAX],
      [MAX, MAX],
      [-1, -1],
      [-1, MIN],
      [0, MIN],
      [65535, 65537],
      [-65536, 32768],
    ];
    for (const [a, b] of cases) {
      smull(a, b, out);
      expect(as64()).toBe(BigInt(a) * BigInt(b));
    }
  });

  it('SMLAL accumulates with carry between the words', () => {
    smlal(-1, 0, 1, 1, out); // 0x00000000_FFFFFFFF + 1
    expect([out[0], out[1]]).toEqual([0, 1]);
    smlal(0, 0, -1, 1, out);
    expect([out[0], out[1]]).toEqual([-1, -1]);
    const r = rng(11);
    for (let i = 0; i < 2000; i++) {
      const lo = r();
      const hi = r() >> 4;
      const a = r();
      const b = r();
      smlal(lo, hi, a, b, out);
      const acc = (BigInt(hi) << 32n) | BigInt(lo >>> 0);
      expect(as64()).toBe(BigInt.asIntN(64, acc + BigInt(a) * BigInt(b)));
    }
  });
});

describe('saturating instructions', () => {
  it('QADD/QSUB saturate at the int32 limits', () => {
    expect(qadd(MAX, 1)).toBe(MAX);
    expect(qadd(MIN, -1)).toBe(MIN);
    expect(qadd(-5, 3)).toBe(-2);
    expect(qsub(MIN, 1)).toBe(MIN);
    expect(qsub(MAX, -1)).toBe(MAX);
    expect(qsub(0, MIN)).toBe(MAX);
  });

  it('SSAT/USAT clamp to n-bit ranges', () => {
    expect(ssat(200, 8)).toBe(127);
    expect(ssat(-200, 8)).toBe(-128);
    expect(ssat(5, 8)).toBe(5);
    expect(ssat(MIN, 32)).toBe(MIN);
    expect(ssat(-3, 1)).toBe(-1);
    expect(usat(-3, 8)).toBe(0);
    expect(usat(300, 8)).toBe(255);
    expect(usat(7, 0)).toBe(0);
  });

  it('SADD16 wraps each halfword, QADD16 saturates each', () => {
    expect(halves(sadd16(pack16(32767, -32768), pack16(1, -1)))).toEqual([-32768, 32767]);
    expect(halves(qadd16(pack16(32767, -32768), pack16(1, -1)))).toEqual([32767, -32768]);
    expect(halves(sadd16(pack16(-2, 5), pack16(-3, 7)))).toEqual([-5, 12]);
  });

  it('CLZ counts leading zeros of the bit pattern', () => {
    expect(clz(0)).toBe(32);
    expect(clz(1)).toBe(31);
    expect(clz(-1)).toBe(0);
    expect(clz(0x00010000)).toBe(15);
  });
});

describe('CMSIS-NN read/write helpers', () => {
  it('reads and writes little-endian words', () => {
    const s8 = Int8Array.of(0x11, -2, 0x33, -128, 9);
    expect(readS8x4(s8, 0) >>> 0).toBe(0x8033fe11);
    expect(readS8x4(s8, 1) >>> 0).toBe(0x0980_33fe);
    const s16 = Int16Array.of(-1, 0x1234, 7);
    expect(readQ15x2(s16, 0) >>> 0).toBe(0x1234ffff);
    const d8 = new Int8Array(4);
    writeS8x4(d8, 0, 0x8033fe11 | 0);
    expect(Array.from(d8)).toEqual([0x11, -2, 0x33, -128]);
    const d16 = new Int16Array(2);
    writeQ15x2(d16, 0, pack16(-7, 300));
    expect(Array.from(d16)).toEqual([300, -7]);
  });

  it('read_and_pad keeps the order, read_and_pad_reordered pairs bytes 0/2 and 1/3', () => {
    const src = Int8Array.of(-1, 2, -3, 4);
    const out = new Int32Array(2);
    readAndPad(src, 0, out);
    expect(halves(out[0]!)).toEqual([2, -1]);
    expect(halves(out[1]!)).toEqual([4, -3]);
    readAndPadReordered(src, 0, out);
    expect(halves(out[0]!)).toEqual([-3, -1]);
    expect(halves(out[1]!)).toEqual([4, 2]);
  });
});

describe('requantization helpers', () => {
  it('doubling high multiply rounds half up and saturates only INT32_MIN^2', () => {
    expect(doublingHighMult(MIN, MIN)).toBe(MAX);
    expect(doublingHighMult(1 << 30, 1 << 30)).toBe(1 << 29);
    expect(doublingHighMult(-(1 << 30), 1)).toBe(0); // -0.5 -> 0 as gemmlowp
    expect(doublingHighMult(-3 * (1 << 29), 1)).toBe(-1); // -0.75 -> -1
    expect(doublingHighMultNoSat(1 << 30, 1)).toBe(1); // 0.5 -> 1
  });

  it('doubling high multiply equals gemmlowp SaturatingRoundingDoublingHighMul', () => {
    const r = rng(3);
    for (let i = 0; i < 5000; i++) {
      const a = r();
      const b = i % 3 === 0 ? r() >> (i % 29) : r();
      expect(doublingHighMult(a, b)).toBe(saturatingRoundingDoublingHighMul(a, b));
      if (!(a === MIN && b === MIN)) expect(doublingHighMultNoSat(a, b)).toBe(saturatingRoundingDoublingHighMul(a, b));
    }
  });

  it('divide by power of two rounds ties away from zero', () => {
    expect(divideByPowerOfTwo(5, 1)).toBe(3);
    expect(divideByPowerOfTwo(-5, 1)).toBe(-3);
    expect(divideByPowerOfTwo(-4, 1)).toBe(-2);
    expect(divideByPowerOfTwo(7, 0)).toBe(7);
    expect(divideByPowerOfTwo(MIN, 31)).toBe(-1);
    expect(divideByPowerOfTwo(MAX, 31)).toBe(1);
  });

  it('arm_nn_requantize equals TFLM MultiplyByQuantizedMultiplier for all shift signs', () => {
    const r = rng(99);
    for (let i = 0; i < 5000; i++) {
      const val = i % 2 ? r() : r() >> 12;
      const mult = (r() >>> 1) | 0x40000000; // [2^30, 2^31)
      const shift = (i % 40) - 31 + (i % 3 === 0 ? 10 : 0);
      const s = Math.max(-31, Math.min(30, shift));
      expect(requantize(val, mult, s)).toBe(multiplyByQuantizedMultiplier(val, mult, s));
    }
  });

  it('mult by power of two saturates', () => {
    expect(multByPowerOfTwo(1 << 29, 2)).toBe(MAX);
    expect(multByPowerOfTwo(-(1 << 29) - 1, 2)).toBe(MIN);
    expect(multByPowerOfTwo(-(1 << 28), 2)).toBe(-(1 << 30));
    expect(multByPowerOfTwo(3, 1)).toBe(6);
  });
});
