/**
 * gemmlowp fixed-point math (fixedpoint/fixedpoint.h) on scalar int32 raw values, plus the helpers from
 * TFLite's internal/common.h that softmax needs. A `FixedPoint<int32_t, IntegerBits>` is represented by
 * its raw int32 value; functions that depend on the format take the integer-bit counts as arguments.
 * Everything is exact and allocation-free (no BigInt): products go through
 * `saturatingRoundingDoublingHighMul`, sums wrap like the C code (`| 0`).
 */
import { roundingDivideByPOT, saturatingRoundingDoublingHighMul } from './fixed-point.js';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * gemmlowp SaturatingRoundingMultiplyByPOT<exponent>(x) (and TFLite's ...Param runtime variant):
 * exponent > 0 is a saturating left shift, exponent < 0 a rounding right shift (RoundingDivideByPOT),
 * 0 the identity. `exponent` in [-31, 31].
 */
export function saturatingRoundingMultiplyByPOT(x: number, exponent: number): number {
  if (exponent === 0) return x;
  if (exponent < 0) return roundingDivideByPOT(x, -exponent);
  const threshold = (1 << (31 - exponent)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return x << exponent;
}

/**
 * gemmlowp Rescale<dstIntegerBits>(FixedPoint<int32, srcIntegerBits>): changes the format, i.e.
 * SaturatingRoundingMultiplyByPOT<src - dst> on the raw value.
 */
export function rescale(raw: number, srcIntegerBits: number, dstIntegerBits: number): number {
  return saturatingRoundingMultiplyByPOT(raw, srcIntegerBits - dstIntegerBits);
}

/** gemmlowp RoundingHalfSum(int32 a, int32 b): (a + b + sign(a + b)) / 2, truncated toward zero. */
export function roundingHalfSum(a: number, b: number): number {
  const sum = a + b; // exact in a double
  const r = (sum + (sum >= 0 ? 1 : -1)) / 2;
  return (r < 0 ? Math.ceil(r) : Math.floor(r)) | 0;
}

/** TFLite SaturatingAddNonGemmlowp(int32, int32): a + b clamped to the int32 range. */
export function saturatingAddInt32(a: number, b: number): number {
  const s = a + b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
}

/** TFLite SaturatingSub(int32, int32): a - b clamped to the int32 range. */
export function saturatingSubInt32(a: number, b: number): number {
  const s = a - b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
}

/** gemmlowp SaturatingAdd(int16, int16): a + b clamped to the int16 range. */
export function saturatingAddInt16(a: number, b: number): number {
  const s = a + b;
  return s > 32767 ? 32767 : s < -32768 ? -32768 : s;
}

/** TFLite SaturatingSub(int16, int16): a - b clamped to the int16 range. */
export function saturatingSubInt16(a: number, b: number): number {
  const s = a - b;
  return s > 32767 ? 32767 : s < -32768 ? -32768 : s;
}

/** gemmlowp SaturatingRoundingDoublingHighMul(int16 a, int16 b) (the 16-bit VQRDMULH). */
export function saturatingRoundingDoublingHighMulInt16(a: number, b: number): number {
  if (a === -32768 && b === -32768) return 32767;
  const ab = a * b;
  const nudge = ab >= 0 ? 16384 : -16383;
  const q = (ab + nudge) / 32768;
  return ((q < 0 ? Math.ceil(q) : Math.floor(q)) << 16) >> 16;
}

/** `FixedPoint<int32, integerBits>::One()` raw value (INT32_MAX for 0 integer bits). */
export function fixedPointOne(integerBits: number): number {
  return integerBits === 0 ? INT32_MAX : 1 << (31 - integerBits);
}

/** TFLite CountLeadingZeros for uint32 (32 for 0); `x` is taken modulo 2^32. */
export function countLeadingZeros32(x: number): number {
  return Math.clz32(x);
}

/** TFLite CountLeadingSignBits(int32): leading bits equal to the sign bit, excluding it (31 for 0 and -1). */
export function countLeadingSignBits32(x: number): number {
  return x >= 0 ? Math.clz32(x) - 1 : x !== INT32_MIN ? Math.clz32(2 * -x - 1) : 0;
}

// exp(-1/8) and 1/3 in Q0.31, as gemmlowp's constants.
const EXP_MINUS_ONE_EIGHTH = 1895147668;
const ONE_THIRD = 715827883;

/**
 * gemmlowp exp_on_interval_between_negative_one_quarter_and_0_excl(FixedPoint<int32, 0> a): exp(a) for
 * a in [-1/4, 0), Q0.31 in and out, via the Taylor expansion around -1/8.
 */
export function expOnIntervalBetweenNegativeOneQuarterAnd0Excl(a: number): number {
  const x = (a + (1 << 28)) | 0;
  const x2 = saturatingRoundingDoublingHighMul(x, x);
  const x3 = saturatingRoundingDoublingHighMul(x2, x);
  const x4 = saturatingRoundingDoublingHighMul(x2, x2);
  const x4Over4 = roundingDivideByPOT(x4, 2);
  const poly = roundingDivideByPOT((saturatingRoundingDoublingHighMul((x4Over4 + x3) | 0, ONE_THIRD) + x2) | 0, 1);
  return (EXP_MINUS_ONE_EIGHTH + saturatingRoundingDoublingHighMul(EXP_MINUS_ONE_EIGHTH, (x + poly) | 0)) | 0;
}

// exp(-2^k) in Q0.31 for k = -2..4 (gemmlowp's barrel-shifter constants).
const EXP_BARREL_MULTIPLIERS = new Int32Array([1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242]);

/**
 * gemmlowp exp_on_negative_values(FixedPoint<int32, integerBits> a): exp(a) for a <= 0 as Q0.31
 * (INT32_MAX for a == 0, 0 below -32 when integerBits > 5). `integerBits` in [0, 29] (softmax uses 5).
 */
export function expOnNegativeValues(a: number, integerBits: number): number {
  const fractionalBits = 31 - integerBits;
  const oneQuarter = 1 << (fractionalBits - 2);
  const mask = oneQuarter - 1;
  const aModQuarterMinusOneQuarter = ((a & mask) - oneQuarter) | 0;
  let result = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(rescale(aModQuarterMinusOneQuarter, integerBits, 0));
  const remainder = (aModQuarterMinusOneQuarter - a) | 0;
  for (let k = 0; k < 7; k++) {
    const exponent = k - 2;
    if (integerBits > exponent && (remainder & (1 << (fractionalBits + exponent))) !== 0)
      result = saturatingRoundingDoublingHighMul(result, EXP_BARREL_MULTIPLIERS[k]!);
  }
  if (integerBits > 5) {
    const clamp = -(1 << (36 - integerBits)); // -32.0 in this format
    if (a < clamp) result = 0;
  }
  if (a === 0) result = INT32_MAX;
  return result;
}

// 48/17 and -32/17 in Q2.29 (Newton-Raphson starting point).
const CONSTANT_48_OVER_17 = 1515870810;
const CONSTANT_NEG_32_OVER_17 = -1010580540;
const F2_ONE = 1 << 29;

/**
 * gemmlowp one_over_one_plus_x_for_x_in_0_1(FixedPoint<int32, 0> a): 1 / (1 + a) for a in [0, 1),
 * Q0.31 in and out, by three Newton-Raphson iterations in Q2.29.
 */
export function oneOverOnePlusXForXIn01(a: number): number {
  const halfDenominator = roundingHalfSum(a, INT32_MAX);
  let x = (CONSTANT_48_OVER_17 + saturatingRoundingDoublingHighMul(halfDenominator, CONSTANT_NEG_32_OVER_17)) | 0;
  for (let i = 0; i < 3; i++) {
    const halfDenominatorTimesX = saturatingRoundingDoublingHighMul(halfDenominator, x);
    const oneMinus = (F2_ONE - halfDenominatorTimesX) | 0;
    // x * oneMinus is Q4.27; Rescale<2> brings it back to Q2.29.
    x = (x + saturatingRoundingMultiplyByPOT(saturatingRoundingDoublingHighMul(x, oneMinus), 2)) | 0;
  }
  // ExactMulByPot<-1> turns Q2.29 into Q1.30 (same raw), then Rescale<0>.
  return saturatingRoundingMultiplyByPOT(x, 1);
}

/**
 * TFLite GetReciprocal(x, x_integer_digits, &num_bits_over_unit): 1/x as Q0.31 (of x normalised into
 * [1, 2)), with the normalisation exponent written to `numBitsOverUnitOut[0]` (so that invoke-time
 * callers allocate nothing).
 */
export function getReciprocal(x: number, xIntegerDigits: number, numBitsOverUnitOut: Int32Array): number {
  const headroomPlusOne = Math.clz32(x);
  numBitsOverUnitOut[0] = xIntegerDigits - headroomPlusOne;
  // (uint32(x) << headroom_plus_one) - (1u << 31), reinterpreted as int32.
  const shiftedSumMinusOne = ((x << headroomPlusOne) - 0x80000000) | 0;
  return oneOverOnePlusXForXIn01(shiftedSumMinusOne);
}
