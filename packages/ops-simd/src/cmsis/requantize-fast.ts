/**
 * arm_nn_requantize for the fast mode: the same result as intrinsics.ts `requantize` (and TFLM's
 * MultiplyByQuantizedMultiplier) for a non-negative multiplier, computed with as few double operations as
 * possible and no data-dependent branch in the rounding. When `|x| < 2^22` the product `x * multiplier`
 * (< 2^53) is exact in a double, so the doubling high multiply is one multiply, one add, one exact scale
 * by 2^-31 and a floor; larger values split `x` and the multiplier into 16-bit halves so that every
 * partial sum stays exact.
 */

const TWO_POW_MINUS_31 = 4.656612873077393e-10;

/** `divide_by_pot(doubling_high_mult_no_sat(x << left, multiplier), right)`; `multiplier` in [0, 2^31). */
export function requantizeFast(x: number, multiplier: number, shift: number): number {
  if (shift > 0) x = Math.imul(x, 1 << shift);
  let hi: number;
  if (x > -4194304 && x < 4194304) {
    hi = Math.floor((x * multiplier + 1073741824) * TWO_POW_MINUS_31);
  } else {
    const xh = x >> 16;
    const xl = x & 0xffff;
    const mh = multiplier >>> 16;
    const ml = multiplier & 0xffff;
    hi = 2 * xh * mh + Math.floor(((xh * ml + xl * mh) * 65536 + xl * ml + 1073741824) * TWO_POW_MINUS_31);
  }
  hi |= 0;
  if (shift >= 0) return hi;
  // arm_nn_divide_by_power_of_two without branches: the rounding decision depends on the data, so a branch
  // would be mispredicted about half the time. `threshold - remainder` is negative exactly when the
  // remainder exceeds the threshold (both lie in [0, 2^31)), so its sign bit is the rounding increment.
  const right = -shift;
  const mask = ~(-1 << right);
  const threshold = (mask >> 1) + (hi >>> 31);
  return (hi >> right) + ((threshold - (hi & mask)) >>> 31);
}

/**
 * The output stage of the CMSIS-NN kernels in fast mode: `arm_nn_requantize`, plus the output offset,
 * then `MIN(MAX(r, min), max)`. Small enough for V8 to inline at every call site: the common case (a
 * right shift and `|acc| < 2^22`, where `acc * multiplier` is exact in a double) is computed here with
 * no data-dependent branch, everything else by `requantizeFast`.
 */
export function requantizeClamp(acc: number, multiplier: number, shift: number, offset: number, min: number, max: number): number {
  let r: number;
  if (shift < 0 && acc > -4194304 && acc < 4194304) {
    const hi = Math.floor((acc * multiplier + 1073741824) * TWO_POW_MINUS_31) | 0;
    const right = -shift;
    const mask = ~(-1 << right);
    r = (hi >> right) + (((mask >> 1) + (hi >>> 31) - (hi & mask)) >>> 31);
  } else {
    r = requantizeFast(acc, multiplier, shift);
  }
  r += offset;
  return r < min ? min : r > max ? max : r;
}
