/**
 * Exact unsigned 64-bit arithmetic (modulo 2^64) on a pair of uint32 words, without BigInt, for the
 * `uint64_t` expressions of TFLM's signal library. Values are plain numbers; every intermediate stays
 * below 2^53 so double arithmetic is exact.
 */

const TWO_POW_16 = 65536;
const TWO_POW_32 = 4294967296;

/** A mutable uint64 accumulator `hi * 2^32 + lo` (both uint32). Methods return `this` or a uint32. */
export class U64 {
  hi = 0;
  lo = 0;

  /** Sets the value from two uint32 words. */
  set(hi: number, lo: number): this {
    this.hi = hi >>> 0;
    this.lo = lo >>> 0;
    return this;
  }

  /** this = a * b for uint32 a, b (exact 64-bit product). */
  setMul(a: number, b: number): this {
    const aLo = a & 0xffff;
    const aHi = a >>> 16;
    const bLo = b & 0xffff;
    const bHi = b >>> 16;
    const mid = aHi * bLo + aLo * bHi; // < 2^33
    const low = aLo * bLo + (mid % TWO_POW_16) * TWO_POW_16; // < 2^33
    this.lo = low % TWO_POW_32;
    this.hi = (aHi * bHi + Math.floor(mid / TWO_POW_16) + Math.floor(low / TWO_POW_32)) >>> 0;
    return this;
  }

  /** this += a * b for uint32 a, b, modulo 2^64. */
  addMul(a: number, b: number): this {
    const hi = this.hi;
    const lo = this.lo;
    this.setMul(a, b);
    return this.addWords(hi, lo);
  }

  /** this += hi * 2^32 + lo (uint32 words), modulo 2^64. */
  addWords(hi: number, lo: number): this {
    const sum = this.lo + (lo >>> 0);
    const carry = sum >= TWO_POW_32 ? 1 : 0;
    this.lo = sum - carry * TWO_POW_32;
    this.hi = (this.hi + (hi >>> 0) + carry) >>> 0;
    return this;
  }

  /**
   * this += v for an integer |v| < 2^53 (negative values wrap modulo 2^64, as a signed product converted
   * to uint64 in C).
   */
  addSigned(v: number): this {
    const vHi = Math.floor(v / TWO_POW_32);
    const vLo = v - vHi * TWO_POW_32;
    const sum = this.lo + vLo;
    const carry = sum >= TWO_POW_32 ? 1 : 0;
    this.lo = sum - carry * TWO_POW_32;
    this.hi = (this.hi + vHi + carry) >>> 0;
    return this;
  }

  /** The low 32 bits of `this >> shift` (0 <= shift <= 63), as uint32: `(uint32_t)(x >> shift)`. */
  shiftRightLow32(shift: number): number {
    if (shift === 0) return this.lo;
    if (shift < 32) return ((this.lo >>> shift) | (this.hi << (32 - shift))) >>> 0;
    return this.hi >>> (shift - 32);
  }
}

/** Compares the uint64 values (aHi, aLo) and (bHi, bLo): negative, zero or positive. */
export function compareU64(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return aHi !== bHi ? aHi - bHi : aLo - bLo;
}
