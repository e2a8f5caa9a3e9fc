/**
 * int64 arithmetic on int32 word pairs, without BigInt: an int64 element is two words of a tensor's
 * `words` view, low word first (little-endian), the low word read unsigned and the high word signed.
 * Every operation is exact two's-complement arithmetic modulo 2^64 (C++'s wrap-around), proved on the
 * words: additions carry through `>>> 0` comparisons, products are built from 16-bit limbs whose
 * partial products stay below 2^53, divisions are restoring long division over 64 bits.
 *
 * Functions take word arrays and word offsets (2 × the element index) and write their result into an
 * output array at a word offset, so they allocate nothing; `hi`/`lo` return values go through the
 * module's two result words ({@link RESULT}) when a function has two.
 */

const TWO_32 = 4294967296;

/** Two scratch words: where {@link udivmod64} leaves its remainder. */
export const RESULT = new Int32Array(2);

/** The int64 at word offset `i` of `w` as a number: exact within ±2^53, else the nearest double's neighbourhood. */
export function int64ToNumber(w: ArrayLike<number>, i: number): number {
  return w[i + 1]! * TWO_32 + (w[i]! >>> 0);
}

/**
 * Writes the integer `v` (a double holding an integer of magnitude < 2^63, e.g. a truncated float) as
 * int64 words at `o`. Exact: `v / 2^32` and its floor are exact for such doubles, and so is the remainder.
 */
export function setInt64FromNumber(out: Int32Array, o: number, v: number): void {
  const hi = Math.floor(v / TWO_32);
  out[o] = v - hi * TWO_32;
  out[o + 1] = hi;
}

/** out = a + b. */
export function add64(out: Int32Array, o: number, a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): void {
  const al = a[i]! >>> 0;
  const lo = (al + (b[j]! >>> 0)) >>> 0;
  out[o + 1] = (a[i + 1]! + b[j + 1]! + (lo < al ? 1 : 0)) | 0;
  out[o] = lo;
}

/** out = a − b. */
export function sub64(out: Int32Array, o: number, a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): void {
  const al = a[i]! >>> 0;
  const bl = b[j]! >>> 0;
  out[o + 1] = (a[i + 1]! - b[j + 1]! - (al < bl ? 1 : 0)) | 0;
  out[o] = (al - bl) | 0;
}

/** out = −a. */
export function neg64(out: Int32Array, o: number, a: ArrayLike<number>, i: number): void {
  const lo = a[i]! | 0;
  out[o + 1] = (~a[i + 1]! + (lo === 0 ? 1 : 0)) | 0;
  out[o] = -lo | 0;
}

/**
 * out = a · b (the low 64 bits, as C++'s wrapping int64 product). The words split into 16-bit limbs
 * a0…a3, b0…b3; the product's bits below 2^64 are Σ a_k·b_m·2^(16(k+m)) for k + m ≤ 3, each partial
 * product < 2^32 and each column sum < 2^35 with carries, all exact in doubles.
 */
export function mul64(out: Int32Array, o: number, a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): void {
  const al = a[i]! >>> 0;
  const ah = a[i + 1]! >>> 0;
  const bl = b[j]! >>> 0;
  const bh = b[j + 1]! >>> 0;
  const a0 = al & 0xffff,
    a1 = al >>> 16,
    a2 = ah & 0xffff,
    a3 = ah >>> 16;
  const b0 = bl & 0xffff,
    b1 = bl >>> 16,
    b2 = bh & 0xffff,
    b3 = bh >>> 16;
  let c0 = a0 * b0;
  let c1 = a1 * b0 + a0 * b1;
  let c2 = a2 * b0 + a1 * b1 + a0 * b2;
  let c3 = a3 * b0 + a2 * b1 + a1 * b2 + a0 * b3;
  // Normalise the columns to 16 bits, carrying upwards (c3's carry leaves the 64 bits).
  c1 += Math.floor(c0 / 65536);
  c0 %= 65536;
  c2 += Math.floor(c1 / 65536);
  c1 %= 65536;
  c3 += Math.floor(c2 / 65536);
  c2 %= 65536;
  c3 %= 65536;
  out[o] = (c1 << 16) | c0;
  out[o + 1] = (c3 << 16) | c2;
}

/** −1, 0 or 1 as a is below, equal to or above b (signed). */
export function compare64(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number {
  const ah = a[i + 1]! | 0;
  const bh = b[j + 1]! | 0;
  if (ah !== bh) return ah < bh ? -1 : 1;
  const al = a[i]! >>> 0;
  const bl = b[j]! >>> 0;
  return al < bl ? -1 : al > bl ? 1 : 0;
}

/** Copies the int64 at `i` of `a` to `o` of `out`. */
export function copy64(out: Int32Array, o: number, a: ArrayLike<number>, i: number): void {
  out[o] = a[i]!;
  out[o + 1] = a[i + 1]!;
}

/**
 * Unsigned 64-bit division of n = (nhi, nlo) by d = (dhi, dlo) ≠ 0, by restoring long division over the
 * 64 bits: writes the quotient at `o` of `out` and leaves the remainder in {@link RESULT}.
 */
export function udivmod64(out: Int32Array, o: number, nlo: number, nhi: number, dlo: number, dhi: number): void {
  let qlo = 0,
    qhi = 0,
    rlo = 0,
    rhi = 0;
  const dl = dlo >>> 0;
  const dh = dhi >>> 0;
  for (let bit = 63; bit >= 0; bit--) {
    // r = (r << 1) | bit of n
    rhi = ((rhi << 1) | (rlo >>> 31)) >>> 0;
    rlo = ((rlo << 1) | ((bit >= 32 ? nhi >>> (bit - 32) : nlo >>> bit) & 1)) >>> 0;
    if (rhi > dh || (rhi === dh && rlo >= dl)) {
      const borrow = rlo < dl ? 1 : 0;
      rlo = (rlo - dl) >>> 0;
      rhi = (rhi - dh - borrow) >>> 0;
      if (bit >= 32) qhi |= 1 << (bit - 32);
      else qlo |= 1 << bit;
    }
  }
  out[o] = qlo;
  out[o + 1] = qhi;
  RESULT[0] = rlo;
  RESULT[1] = rhi;
}

const TMP = new Int32Array(4);

/**
 * C++'s int64 `a % b` (truncating: the remainder takes the dividend's sign) written at `o`; b ≠ 0.
 * INT64_MIN % −1 is 0, as the magnitudes' division gives.
 */
export function truncMod64(out: Int32Array, o: number, a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): void {
  const aNeg = (a[i + 1]! | 0) < 0;
  const bNeg = (b[j + 1]! | 0) < 0;
  if (aNeg) neg64(TMP, 0, a, i);
  else copy64(TMP, 0, a, i);
  if (bNeg) neg64(TMP, 2, b, j);
  else copy64(TMP, 2, b, j);
  udivmod64(out, o, TMP[0]!, TMP[1]!, TMP[2]!, TMP[3]!);
  if (aNeg) neg64(out, o, RESULT, 0);
  else copy64(out, o, RESULT, 0);
}

/** True when the int64 at `i` is zero. */
export function isZero64(a: ArrayLike<number>, i: number): boolean {
  return (a[i]! | a[i + 1]!) === 0;
}

/**
 * The int64 at `i` rounded to float32 once, as C++'s static_cast<float>(int64_t): bits below the 53
 * that a double holds are folded into one sticky bit first (the value's bits from bit 12 up, with bit
 * 11 set when any lower bit is), so the double is exact and its rounding to float32 — whose rounding
 * bit lies at or above bit 29 for such magnitudes — is the single correct one.
 */
export function int64ToFloat32(a: ArrayLike<number>, i: number): number {
  const hi = a[i + 1]! | 0;
  const lo = a[i]! >>> 0;
  if (hi >= -2097152 && hi < 2097152) return Math.fround(hi * TWO_32 + lo); // |v| < 2^53: exact as a double
  const neg = hi < 0;
  let mlo = lo,
    mhi = hi >>> 0;
  if (neg) {
    mlo = -lo >>> 0;
    mhi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  if ((mlo & 0xfff) !== 0) mlo = ((mlo & ~0xfff) | 0x800) >>> 0;
  const v = Math.fround(mhi * TWO_32 + mlo);
  return neg ? -v : v;
}

const TWO_63 = 9223372036854775808;

/**
 * static_cast<int64_t>(x) of a float or double as x86-64 computes it (cvttss2si / cvttsd2si with a 64-bit
 * destination): truncation toward zero, and INT64_MIN for NaN and values outside [−2^63, 2^63).
 */
export function setInt64FromFloatX86(out: Int32Array, o: number, x: number): void {
  if (x > -TWO_63 - 1 && x < TWO_63) setInt64FromNumber(out, o, Math.trunc(x));
  else {
    out[o] = 0;
    out[o + 1] = -2147483648;
  }
}
