/**
 * Float32 arithmetic as TFLM's C++ performs it on x86-64 (SSE, no x87 excess precision): every
 * operation on `float` rounds to float32, which `Math.fround` reproduces exactly for +, -, *, / of
 * float32 operands. These helpers cover the library calls and conversions kernels need.
 */

const TWO_POW_31 = 2147483648;
const INT32_MIN = -2147483648;

/** C `roundf` / TfLiteRound(float): round half away from zero; the result is an integral float. */
export function roundF32(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * `static_cast<int32_t>(float_or_double)` as x86-64 compiles it (cvttss2si / cvttsd2si): truncation
 * toward zero; NaN and values outside the int32 range give INT32_MIN (0x80000000), the "integer
 * indefinite" value, instead of C's undefined behaviour.
 */
export function truncToInt32X86(x: number): number {
  if (!(x > -TWO_POW_31 - 1 && x < TWO_POW_31)) return INT32_MIN;
  return Math.trunc(x) | 0;
}

/** `std::exp(float)` (expf), as float32. Math.exp is within 1 ulp in double, so this matches expf except in rare rounding-boundary cases. */
export function expF32(x: number): number {
  return Math.fround(Math.exp(x));
}
