/**
 * ARMv7E-M DSP ("SIMD") instructions with their exact 32-bit semantics, and the CMSIS-NN helpers built on
 * them (arm_nnsupportfunctions.h). Every value is an int32 held in a JS number; packed halfwords are
 * `[hi:lo]` = `(hi << 16) | (lo & 0xffff)`. The Q (sticky saturation) flag is not modelled: instructions
 * that set it on real hardware return the same wrapped or saturated value here.
 *
 * Functions returning two words (SMULL, SMLAL, read_and_pad) write them into a caller-provided
 * `Int32Array` so nothing is allocated per call.
 */

/** Signed low halfword of `x` (bits 15:0). */
function lo16(x: number): number {
  return (x << 16) >> 16;
}

/** Signed high halfword of `x` (bits 31:16). */
function hi16(x: number): number {
  return x >> 16;
}

/** Packs two halfwords, each truncated to 16 bits, into `[hi:lo]`. */
export function pack16(hi: number, lo: number): number {
  return (hi << 16) | (lo & 0xffff);
}

/** SMLAD Rd, Rn, Rm, Ra: `acc + lo(x)*lo(y) + hi(x)*hi(y)`, wrapped to 32 bits (hardware sets Q on overflow). */
export function smlad(x: number, y: number, acc: number): number {
  return (acc + Math.imul(lo16(x), lo16(y)) + Math.imul(hi16(x), hi16(y))) | 0;
}

/** SMLADX: dual multiply-accumulate with the halves of `y` exchanged: `acc + lo(x)*hi(y) + hi(x)*lo(y)`. */
export function smladx(x: number, y: number, acc: number): number {
  return (acc + Math.imul(lo16(x), hi16(y)) + Math.imul(hi16(x), lo16(y))) | 0;
}

/** SMUAD: `lo(x)*lo(y) + hi(x)*hi(y)`, wrapped (only 0x8000*0x8000 twice overflows). */
export function smuad(x: number, y: number): number {
  return (Math.imul(lo16(x), lo16(y)) + Math.imul(hi16(x), hi16(y))) | 0;
}

/** SMLABB: `acc + lo(x)*lo(y)`. */
export function smlabb(x: number, y: number, acc: number): number {
  return (acc + Math.imul(lo16(x), lo16(y))) | 0;
}

/** SMLATT: `acc + hi(x)*hi(y)`. */
export function smlatt(x: number, y: number, acc: number): number {
  return (acc + Math.imul(hi16(x), hi16(y))) | 0;
}

/** SMULBB: `lo(x)*lo(y)`. */
export function smulbb(x: number, y: number): number {
  return Math.imul(lo16(x), lo16(y));
}

/** SMULTT: `hi(x)*hi(y)`. */
export function smultt(x: number, y: number): number {
  return Math.imul(hi16(x), hi16(y));
}

/** SXTB16: sign-extends bytes 0 and 2 of `x` to halfwords: `[sext(x[23:16]) : sext(x[7:0])]`. */
export function sxtb16(x: number): number {
  return (((x << 8) >> 24) << 16) | (((x << 24) >> 24) & 0xffff);
}

/** SXTB16 Rd, Rm, ROR #8 (CMSIS `SXTB16_RORn(x, 8)`): sign-extends bytes 1 and 3. */
export function sxtb16Ror8(x: number): number {
  return ((x >> 24) << 16) | (((x << 16) >> 24) & 0xffff);
}

/**
 * SXTAB16: adds the sign-extended bytes 0 and 2 of `x` to the halfwords of `a`, each halfword wrapping
 * at 16 bits: `[a.hi + sext(x[23:16]) : a.lo + sext(x[7:0])]`.
 */
export function sxtab16(a: number, x: number): number {
  const lo = (a + ((x << 24) >> 24)) & 0xffff;
  const hi = ((a >> 16) + ((x << 8) >> 24)) & 0xffff;
  return (hi << 16) | lo;
}

/** SXTAB16 Rd, Rn, Rm, ROR #8 (CMSIS `SXTAB16_RORn(a, x, 8)`): the same on bytes 1 and 3 of `x`. */
export function sxtab16Ror8(a: number, x: number): number {
  const lo = (a + ((x << 16) >> 24)) & 0xffff;
  const hi = ((a >> 16) + (x >> 24)) & 0xffff;
  return (hi << 16) | lo;
}

/** PKHBT Rd, Rn, Rm, LSL #sh: bottom halfword of `a`, top halfword of `b << sh`. */
export function pkhbt(a: number, b: number, sh: number): number {
  return (a & 0xffff) | ((b << sh) & ~0xffff);
}

/** PKHTB Rd, Rn, Rm, ASR #sh: top halfword of `a`, bottom halfword of `b >> sh` (arithmetic). `sh` in 0..31. */
export function pkhtb(a: number, b: number, sh: number): number {
  return (a & ~0xffff) | ((b >> sh) & 0xffff);
}

/** ROR: rotates `x` right by `n` (mod 32) bits. */
export function ror(x: number, n: number): number {
  const s = n & 31;
  return s === 0 ? x | 0 : (x >>> s) | (x << (32 - s));
}

const TWO_POW_32 = 4294967296;

/**
 * SMULL RdLo, RdHi, Rn, Rm: the exact signed 64-bit product `a*b`, written as `out[0]` = low word,
 * `out[1]` = high word (both as int32). Exact without BigInt: `a` and `b` are split into 16-bit halves.
 */
export function smull(a: number, b: number, out: Int32Array): void {
  const a0 = a & 0xffff;
  const a1 = a >> 16;
  const b0 = b & 0xffff;
  const b1 = b >> 16;
  // a*b = a1*b1*2^32 + mid*2^16 + a0*b0 with |mid| < 2^32 and 0 <= a0*b0 < 2^32: every term is exact.
  const mid = a1 * b0 + a0 * b1;
  const low = mid * 65536 + a0 * b0; // |low| < 2^49, exact
  const carry = Math.floor(low / TWO_POW_32);
  out[0] = Math.imul(a, b);
  out[1] = (Math.imul(a1, b1) + carry) | 0;
}

/** SMLAL RdLo, RdHi, Rn, Rm: `(hi:lo) += a*b` on a signed 64-bit accumulator; result in `out[0]`, `out[1]`. */
export function smlal(lo: number, hi: number, a: number, b: number, out: Int32Array): void {
  smull(a, b, out);
  const sumLo = (out[0]! >>> 0) + (lo >>> 0);
  const carry = sumLo >= TWO_POW_32 ? 1 : 0;
  out[0] = sumLo | 0;
  out[1] = (out[1]! + hi + carry) | 0;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** QADD: saturating signed 32-bit addition. */
export function qadd(a: number, b: number): number {
  const s = (a | 0) + (b | 0);
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
}

/** QSUB: saturating signed 32-bit subtraction `a - b`. */
export function qsub(a: number, b: number): number {
  const s = (a | 0) - (b | 0);
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
}

/** SSAT Rd, #n, Rm: saturates the signed `x` to `n` bits (`n` in 1..32): [-2^(n-1), 2^(n-1) - 1]. */
export function ssat(x: number, n: number): number {
  const max = Math.pow(2, n - 1) - 1;
  const min = -max - 1;
  return x > max ? max : x < min ? min : x;
}

/** USAT Rd, #n, Rm: saturates the signed `x` to the unsigned range of `n` bits (`n` in 0..31): [0, 2^n - 1]. */
export function usat(x: number, n: number): number {
  const max = Math.pow(2, n) - 1;
  return x > max ? max : x < 0 ? 0 : x;
}

/** SADD16: halfword-wise addition, each half wrapping at 16 bits. */
export function sadd16(a: number, b: number): number {
  return (((a >> 16) + (b >> 16)) << 16) | ((a + b) & 0xffff);
}

/** QADD16: halfword-wise saturating addition (each half to [-32768, 32767]). */
export function qadd16(a: number, b: number): number {
  let lo = lo16(a) + lo16(b);
  let hi = hi16(a) + hi16(b);
  lo = lo > 32767 ? 32767 : lo < -32768 ? -32768 : lo;
  hi = hi > 32767 ? 32767 : hi < -32768 ? -32768 : hi;
  return (hi << 16) | (lo & 0xffff);
}

/** CLZ: count of leading zero bits of the 32-bit pattern of `x`. */
export function clz(x: number): number {
  return Math.clz32(x);
}

// ---------------------------------------------------------------------------------------------------
// CMSIS-NN support helpers (arm_nnsupportfunctions.h)
// ---------------------------------------------------------------------------------------------------

/** arm_nn_read_s8x4: four int8 from `src[i..i+3]` as one little-endian word (byte 0 in bits 7:0). */
export function readS8x4(src: Int8Array, i: number): number {
  return (src[i]! & 0xff) | ((src[i + 1]! & 0xff) << 8) | ((src[i + 2]! & 0xff) << 16) | (src[i + 3]! << 24);
}

/** arm_nn_read_q15x2 / arm_nn_read_s16x2: two int16 from `src[i..i+1]` as one word (`src[i]` in the low half). */
export function readQ15x2(src: Int16Array, i: number): number {
  return (src[i]! & 0xffff) | (src[i + 1]! << 16);
}

/** arm_nn_write_q15x2: stores the two halfwords of `v` to `dst[i]` (low) and `dst[i+1]` (high). */
export function writeQ15x2(dst: Int16Array, i: number, v: number): void {
  dst[i] = v;
  dst[i + 1] = v >> 16;
}

/** arm_nn_write_s8x4: stores the four bytes of `v` to `dst[i..i+3]`, byte 0 first. */
export function writeS8x4(dst: Int8Array, i: number, v: number): void {
  dst[i] = v;
  dst[i + 1] = v >> 8;
  dst[i + 2] = v >> 16;
  dst[i + 3] = v >> 24;
}

/**
 * read_and_pad: four int8 `[b0 b1 b2 b3]` from `src[i..]` widened in order: `out[0]` = `[b1:b0]`,
 * `out[1]` = `[b3:b2]` (SXTB16, SXTB16 ROR #8, then PKHBT/PKHTB to restore the order).
 */
export function readAndPad(src: Int8Array, i: number, out: Int32Array): void {
  const inA = readS8x4(src, i);
  const odd = sxtb16Ror8(inA); // [b3:b1]
  const even = sxtb16(inA); // [b2:b0]
  out[1] = pkhtb(odd, even, 16); // [b3:b2]
  out[0] = pkhbt(even, odd, 16); // [b1:b0]
}

/**
 * read_and_pad_reordered: four int8 widened without reordering: `out[0]` = `[b2:b0]` (SXTB16),
 * `out[1]` = `[b3:b1]` (SXTB16 ROR #8). Pairs with arm_s8_to_s16_unordered_with_offset.
 */
export function readAndPadReordered(src: Int8Array, i: number, out: Int32Array): void {
  const inA = readS8x4(src, i);
  out[1] = sxtb16Ror8(inA);
  out[0] = sxtb16(inA);
}

const MULL = new Int32Array(2);

/**
 * arm_nn_doubling_high_mult_no_sat: `((1 << 30) + m1*m2) >> 31` on 64 bits (one SMLAL), i.e. the rounded
 * doubling high half, without the saturation of m1 = m2 = INT32_MIN (never met by requantization).
 */
export function doublingHighMultNoSat(m1: number, m2: number): number {
  smlal(1 << 30, 0, m1, m2, MULL);
  return (MULL[1]! << 1) | (MULL[0]! >>> 31);
}

/**
 * arm_nn_doubling_high_mult (gemmlowp SaturatingRoundingDoublingHighMul / NEON VQRDMULH): rounding
 * half away from zero of `2*m1*m2 / 2^32`, saturating the single overflow m1 = m2 = INT32_MIN.
 */
export function doublingHighMult(m1: number, m2: number): number {
  if (m1 === INT32_MIN && m2 === INT32_MIN) return INT32_MAX;
  const nudge = m1 < 0 !== m2 < 0 ? 1 - (1 << 30) : 1 << 30;
  smlal(nudge, nudge < 0 ? -1 : 0, m1, m2, MULL);
  const lo = MULL[0]!;
  const hi = MULL[1]!;
  // C's int64 division by 2^31 truncates toward zero: floor, then +1 for a negative inexact quotient.
  let q = (hi << 1) | (lo >>> 31);
  if (hi < 0 && (lo & 0x7fffffff) !== 0) q = (q + 1) | 0;
  return q;
}

/**
 * arm_nn_divide_by_power_of_two: `dividend / 2^exponent` rounded to nearest, ties away from zero
 * (`exponent` in 0..31).
 */
export function divideByPowerOfTwo(dividend: number, exponent: number): number {
  const remainderMask = ((1 << exponent) - 1) | 0;
  const remainder = remainderMask & dividend;
  let result = dividend >> exponent;
  let threshold = remainderMask >> 1;
  if (result < 0) threshold++;
  if (remainder > threshold) result++;
  return result | 0;
}

/**
 * arm_nn_requantize (default build, not CMSIS_NN_USE_SINGLE_ROUNDING): left shift for a positive `shift`,
 * doubling high multiply by `multiplier` (SMLAL), then rounding right shift for a negative `shift`.
 * Bit-exact with TFLM's MultiplyByQuantizedMultiplier.
 */
export function requantize(val: number, multiplier: number, shift: number): number {
  const left = shift > 0 ? shift : 0;
  const right = shift > 0 ? 0 : -shift;
  return divideByPowerOfTwo(doublingHighMultNoSat(Math.imul(val, 1 << left), multiplier), right);
}

/**
 * arm_nn_mult_by_power_of_two (gemmlowp SaturatingRoundingMultiplyByPOT with a positive exponent):
 * `val << exp`, saturated to int32.
 */
export function multByPowerOfTwo(val: number, exp: number): number {
  const thresh = (1 << (31 - exp)) - 1;
  if (val > thresh) return INT32_MAX;
  if (val < -thresh) return INT32_MIN;
  return val << exp;
}
