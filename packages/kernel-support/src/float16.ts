/**
 * IEEE half (float16) and bfloat16 conversions as TFLite's kernels do them: half ↔ float32 with the FP16
 * library's `fp16_ieee_to_fp32_value` / `fp16_ieee_from_fp32_value` (round to nearest even, overflow to
 * infinity, every NaN to the quiet NaN 0x7E00 with its sign), bfloat16 with Eigen's
 * `float_to_bfloat16_rtne` (round to nearest even on the float's bits, NaN to 0x7FC0 with its sign) and
 * its exact widening. All take and return raw bit patterns where a JavaScript number would lose them
 * (NaN payloads), and allocate nothing.
 */

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The bits of float32 `x` (x rounded to float32 first). */
export function float32Bits(x: number): number {
  F32[0] = x;
  return U32[0]!;
}

/** The float32 whose bits are `bits`. */
export function float32FromBits(bits: number): number {
  U32[0] = bits;
  return F32[0]!;
}

/** 2^(e − 25) for the half exponents e = 0 … 31 (a normal half is (1024 + m) · 2^(e − 25)). */
const HALF_POW2 = Float64Array.from({ length: 32 }, (_, e) => 2 ** (e - 25));

/** The value of half `h` (exact; NaN for every NaN). */
export function halfToFloat(h: number): number {
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  let v: number;
  if (e === 0)
    v = m * 5.960464477539063e-8; // 2^-24
  else if (e === 0x1f) v = m !== 0 ? NaN : Infinity;
  else v = (1024 + m) * HALF_POW2[e]!;
  return h & 0x8000 ? -v : v;
}

/** The float32 bits of half `h` (fp16_ieee_to_fp32_value: exact, NaN payloads kept). */
export function halfToFloat32Bits(h: number): number {
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0x1f) return ((h & 0x8000) << 16) | 0x7f800000 | (m << 13);
  return float32Bits(halfToFloat(h));
}

/** The half bits of float32 bits `w` (fp16_ieee_from_fp32_value). */
export function halfFromFloat32Bits(w: number): number {
  const sign = (w >>> 16) & 0x8000;
  const exp = (w >>> 23) & 0xff;
  let mant = w & 0x7fffff;
  if (exp === 0xff) return sign | (mant !== 0 ? 0x7e00 : 0x7c00);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1) !== 0)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  // A carry out of the mantissa rounds up into the exponent (up to infinity), as it should.
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1) !== 0)) h++;
  return sign | h;
}

/** The half bits of `x` rounded to float32 first (TFLite casts every type to float, then to half). */
export function halfFromNumber(x: number): number {
  return halfFromFloat32Bits(float32Bits(x));
}

/** The float32 bits of bfloat16 `b` (exact). */
export function bfloat16ToFloat32Bits(b: number): number {
  return (b << 16) | 0;
}

/** The bfloat16 bits of float32 bits `w` (Eigen float_to_bfloat16_rtne). */
export function bfloat16FromFloat32Bits(w: number): number {
  if ((w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0) return w >>> 31 !== 0 ? 0xffc0 : 0x7fc0;
  const u = w >>> 0;
  return ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) & 0xffff;
}

let HALF_TABLE: Float32Array | null = null;

/**
 * Every half's value as a float32, indexed by its bits (256 KiB, made at the first call — in a kernel's
 * prepare): kernels read `table[h]` in their loops instead of calling a function that returns a double
 * (which V8 boxes when it does not inline the call).
 */
export function halfToFloatTable(): Float32Array {
  if (!HALF_TABLE) {
    HALF_TABLE = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) HALF_TABLE[h] = halfToFloat(h);
  }
  return HALF_TABLE;
}
