/**
 * Bit helpers of TFLM's signal library (signal/src/msb_32.cc, msb_64.cc), GCC build: the position of the
 * most significant set bit, counted from 1, and 32 (or 64) for zero (the `__builtin_clz` branch).
 */

/** MostSignificantBit32: `32 - clz(x)` for x != 0, 32 for x == 0 (x is taken as uint32). */
export function msb32(x: number): number {
  return x === 0 ? 32 : 32 - Math.clz32(x);
}

/** MostSignificantBit64 of the uint64 `hi * 2^32 + lo`: 64 for zero. */
export function msb64(hi: number, lo: number): number {
  if (hi !== 0) return 64 - Math.clz32(hi);
  return lo === 0 ? 64 : 32 - Math.clz32(lo);
}
