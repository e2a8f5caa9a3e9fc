/**
 * Integer square roots of TFLM's signal library (signal/src/square_root_32.cc, square_root_64.cc):
 * the bit-by-bit method gives floor(sqrt(n)) and the remainder n - floor(sqrt(n))^2; the result is then
 * rounded up when the remainder exceeds the root, unless the root is already the largest value of the
 * result type (0xFFFF for Sqrt32, 0xFFFFFFFF for Sqrt64). Sqrt64 uses Sqrt32 when the high word is zero,
 * including its 0xFFFF cap ("slight off by one issue for numbers close to 2^32").
 *
 * Here floor(sqrt) comes from Math.sqrt, corrected with exact integer comparisons, which gives the same
 * root and remainder as the bit-by-bit loop.
 */

const TWO_POW_16 = 65536;
const TWO_POW_32 = 4294967296;

/** Sqrt32(num) for a uint32 `num`: the rounded root, at most 0xFFFF. */
export function sqrt32(num: number): number {
  if (num === 0) return 0;
  let r = Math.floor(Math.sqrt(num));
  while (r * r > num) r--;
  while ((r + 1) * (r + 1) <= num) r++;
  const rem = num - r * r;
  if (rem > r && r !== 0xffff) r++;
  return r;
}

/** Sqrt64 of the uint64 `hi * 2^32 + lo`: the rounded root as uint32. */
export function sqrt64(hi: number, lo: number): number {
  if (hi === 0) return sqrt32(lo);
  // Math.sqrt of the (rounded) double is within 1 of floor(sqrt(n)); correct it exactly
  let r = Math.floor(Math.sqrt(hi * TWO_POW_32 + lo));
  if (r > 0xffffffff) r = 0xffffffff;
  while (squareDiff(r, hi, lo) < 0) r--;
  while (r < 0xffffffff && squareDiff(r + 1, hi, lo) >= 0) r++;
  const rem = squareDiff(r, hi, lo);
  if (rem > r && r !== 0xffffffff) r++;
  return r;
}

/**
 * n - r^2 for n = hi * 2^32 + lo and 0 <= r <= 2^32, exact while |n - r^2| < 2^53 (r within a few units
 * of sqrt(n)).
 */
function squareDiff(r: number, hi: number, lo: number): number {
  const a = Math.floor(r / TWO_POW_16);
  const b = r - a * TWO_POW_16;
  const low = 2 * a * b * TWO_POW_16 + b * b; // < 2^50
  const lowHi = Math.floor(low / TWO_POW_32);
  return (hi - a * a - lowHi) * TWO_POW_32 + (lo - (low - lowHi * TWO_POW_32));
}
