/**
 * Shared math of the activation reference kernels (LOGISTIC, TANH) and of DIV: gemmlowp's fixed-point
 * logistic / tanh / (1-x)/(1+x) on int32 raw values (on top of core's exp and 1/(1+x)), and the
 * prepare-time input rescaling of the int16 kernels (whose sigmoid-table evaluation is core's
 * `logisticInt16Run` / `tanhInt16Run`).
 *
 * All functions take and return int32 values held in JS numbers and reproduce the C++ results to the bit
 * (wrapping adds as in two's complement, gemmlowp's saturating shifts and rounding).
 */
import {
  calculateInputRadius,
  checkedLog2,
  expOnNegativeValues,
  frexp,
  oneOverOnePlusXForXIn01,
  roundHalfAwayFromZero,
  roundingHalfSum,
  saturatingRoundingDoublingHighMul,
  saturatingRoundingMultiplyByPOT,
} from '@micrort/core';

/** FixedPoint<int32, 0>::One(). */
const ONE_Q0_31 = 2147483647;

// 48/17 and -32/17 in Q2.29 (gemmlowp's Newton-Raphson starting point).
const CONSTANT_48_OVER_17 = 1515870810;
const CONSTANT_NEG_32_OVER_17 = -1010580540;

/**
 * gemmlowp one_minus_x_over_one_plus_x_for_x_in_0_1(FixedPoint<int32, 0> a): (1 - a) / (1 + a) for a in
 * (0, 1), Q0.31 in and out, by three Newton-Raphson iterations in Q2.29 (core provides the 1 / (1 + a)
 * sibling, oneOverOnePlusXForXIn01).
 */
export function oneMinusXOverOnePlusXForXIn01(a: number): number {
  const halfDenominator = roundingHalfSum(a, ONE_Q0_31);
  let x = (CONSTANT_48_OVER_17 + saturatingRoundingDoublingHighMul(halfDenominator, CONSTANT_NEG_32_OVER_17)) | 0;
  for (let i = 0; i < 3; i++) {
    const halfDenominatorTimesX = saturatingRoundingDoublingHighMul(halfDenominator, x);
    const oneMinus = ((1 << 29) - halfDenominatorTimesX) | 0;
    // x * oneMinus is Q4.27; Rescale<2> brings it back to Q2.29.
    x = (x + saturatingRoundingMultiplyByPOT(saturatingRoundingDoublingHighMul(x, oneMinus), 2)) | 0;
  }
  // x - 1 in Q2.29, then Rescale<0>.
  return saturatingRoundingMultiplyByPOT((x - (1 << 29)) | 0, 2);
}

/** gemmlowp logistic for a FixedPoint<int32, integerBits> input; result in Q0.31. */
export function fixedPointLogistic(a: number, integerBits: number): number {
  if (a === 0) return 1 << 30;
  const positive = a > 0;
  const absInput = positive ? a : -a | 0;
  const resultIfPositive = oneOverOnePlusXForXIn01(expOnNegativeValues(-absInput | 0, integerBits));
  return positive ? resultIfPositive : (ONE_Q0_31 - resultIfPositive) | 0;
}

/** gemmlowp tanh for a FixedPoint<int32, integerBits> input; result in Q0.31. */
export function fixedPointTanh(a: number, integerBits: number): number {
  if (a === 0) return 0;
  const negative = a < 0;
  const n = negative ? a : -a | 0;
  // neg_tanh_on_negative_values: ExactMulByPot<1> adds one integer bit.
  const t = oneMinusXOverOnePlusXForXIn01(expOnNegativeValues(n, integerBits + 1));
  return negative ? -t | 0 : t;
}

/**
 * gemmlowp RoundingDivideByPOT(x, exponent) for any exponent, as TFLM's x86-64 build computes it. For
 * exponents in [0, 31] this is the exact rounding shift. Outside that range (reachable in TFLM's int8
 * DIV, e.g. for a tiny numerator with a large divisor) the C code is undefined; x86 computes the mask
 * `(1ll << exponent) - 1` with the shift count taken modulo 64 and truncates it to 32 bits, and shifts
 * `x >> exponent` with the count taken modulo 32. This reproduces that.
 */
export function roundingDivideByPOTWide(x: number, exponent: number): number {
  const maskShift = exponent & 63;
  const mask = maskShift >= 32 ? -1 : maskShift === 0 ? 0 : ((1 << maskShift) - 1) | 0;
  const remainder = x & mask;
  const threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return ((x >> (exponent & 31)) + (remainder > threshold ? 1 : 0)) | 0;
}

/**
 * TFLM's int8 LOGISTIC/TANH input rescaling (CalculateArithmeticOpDataLogistic / Tanh's
 * CalculateArithmeticOpData): frexp(scale * 2^27) gives the Q4.27 multiplier and left shift; the radius
 * is the input difference beyond which the output saturates.
 */
export interface Int8ActivationParams {
  multiplier: number;
  leftShift: number;
  radius: number;
}

/** Computes `Int8ActivationParams` for an input scale (4 integer bits, as TFLM). */
export function int8ActivationParams(inputScale: number): Int8ActivationParams {
  const kInputIntegerBits = 4;
  const [q, shift] = frexp(inputScale * (1 << (31 - kInputIntegerBits)));
  // static_cast<int32_t>(TfLiteRound(q * 2^31)); 2^31 wraps to INT32_MIN as on x86.
  const multiplier = roundHalfAwayFromZero(q * 2147483648) | 0;
  return { multiplier, leftShift: shift, radius: calculateInputRadius(kInputIntegerBits, shift, 31) };
}

/**
 * TFLM's int16 LOGISTIC/TANH input rescaling. `multiplier === 0` marks the power-of-two scale case,
 * which the eval turns into `3 << leftShift` with no shift.
 */
export interface Int16ActivationParams {
  multiplier: number;
  leftShift: number;
}

/**
 * Computes the int16 LUT input rescaling for an input scale as TFLM's prepare does: a power-of-two scale
 * of 2^-12 (or 2^-11 for TANH, `maxPotLeftShift` 1) needs no multiplier; otherwise the scale times 3*4096
 * is doubled until above 32767/2 and truncated. Returns a string describing the problem when the scale
 * gives a multiplier above 32767.
 */
export function int16ActivationParams(inputScale: number, maxPotLeftShift: number): Int16ActivationParams | string {
  const kInputIntegerBits = 3;
  const log2 = checkedLog2(inputScale);
  let leftShift = 15 - kInputIntegerBits + log2.log2;
  const pot = log2.isPowerOfTwo && leftShift >= 0 && leftShift <= maxPotLeftShift;
  if (pot) return { multiplier: 0, leftShift };
  let multiplier = inputScale * 4096 * 3;
  leftShift = 0;
  while (multiplier <= 32767 / 2 && leftShift <= 30) {
    leftShift++;
    multiplier *= 2;
  }
  const m = Math.trunc(multiplier);
  if (m > 32767) return `input scale ${inputScale} is too large for the int16 lookup (multiplier ${m} > 32767)`;
  return { multiplier: m, leftShift };
}
