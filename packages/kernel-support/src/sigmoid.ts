/**
 * The quantized LOGISTIC and TANH arithmetic every kernel package shares (tflite-micro
 * logistic_common.cc, tanh.cc, reference_integer_ops::Logistic / Tanh; TFLite's uint8 table of
 * activations.cc): gemmlowp's fixed-point logistic, tanh and (1-x)/(1+x) on int32 raw values (on top of
 * core's exp and 1/(1+x)), TFLM's int8 input rescaling, the int8 value of one input, and the 256-entry
 * tables with which a package can look the int8 or uint8 results up instead (the table of an int8 op is
 * its own function evaluated at all 256 inputs, so a lookup equals the computation byte for byte), and
 * TFLM's int16 input rescaling (the int16 evaluation, a 256-entry sigmoid table with linear
 * interpolation, is core's `logisticInt16Run` / `tanhInt16Run`, which the integer LSTMs share).
 *
 * All functions take and return int32 values held in JS numbers and reproduce the C++ results to the bit
 * (wrapping adds as in two's complement, gemmlowp's saturating shifts and rounding).
 */
import {
  calculateInputRadius,
  checkedLog2,
  expF32,
  expOnNegativeValues,
  frexp,
  multiplyByQuantizedMultiplier,
  oneOverOnePlusXForXIn01,
  roundHalfAwayFromZero,
  roundingDivideByPOT,
  roundingHalfSum,
  saturatingRoundingDoublingHighMul,
  saturatingRoundingMultiplyByPOT,
} from '@micrort/core';

/** Which of the two functions. */
export enum SigmoidFunction {
  Logistic = 0,
  Tanh = 1,
}

/** What the quantized LOGISTIC and TANH differ in. */
export interface SigmoidSpec {
  fn: SigmoidFunction;
  /** Required int8 output zero point (LOGISTIC -128, TANH 0). */
  int8OutputZeroPoint: number;
  /** The required int8 output scale is 1 / this (LOGISTIC 256, TANH 128). */
  int8OutputScaleDenominator: number;
  /** Largest left shift for which a power-of-two int16 input scale needs no multiplier (LOGISTIC 0, TANH 1). */
  int16MaxPotLeftShift: number;
}

/** LOGISTIC: int8 output scale 1/256, zero point -128; int16 power-of-two shortcut for input scale 2^-12 only. */
export const LOGISTIC_SPEC: SigmoidSpec = {
  fn: SigmoidFunction.Logistic,
  int8OutputZeroPoint: -128,
  int8OutputScaleDenominator: 256,
  int16MaxPotLeftShift: 0,
};

/** TANH: int8 output scale 1/128, zero point 0; int16 power-of-two shortcut for input scales 2^-12 and 2^-11. */
export const TANH_SPEC: SigmoidSpec = {
  fn: SigmoidFunction.Tanh,
  int8OutputZeroPoint: 0,
  int8OutputScaleDenominator: 128,
  int16MaxPotLeftShift: 1,
};

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
 * The int8 LOGISTIC / TANH of input difference `d` = x − input zero point (reference_integer_ops::Logistic /
 * Tanh): beyond the saturation radius -128 / 127; otherwise rescaled to Q4.27, run through gemmlowp's
 * fixed-point function and rounded to the output scale (LOGISTIC: Q0.31 to 1/256 with zero point -128;
 * TANH: Q0.31 to 1/128), clamped to int8.
 */
export function sigmoidInt8Value(fn: SigmoidFunction, d: number, radius: number, multiplier: number, leftShift: number): number {
  if (d <= -radius) return -128;
  if (d >= radius) return 127;
  const inQ4 = multiplyByQuantizedMultiplier(d, multiplier, leftShift);
  const out =
    fn === SigmoidFunction.Tanh
      ? roundingDivideByPOT(fixedPointTanh(inQ4, 4), 24)
      : roundingDivideByPOT(fixedPointLogistic(inQ4, 4), 23) - 128;
  return out < -128 ? -128 : out > 127 ? 127 : out;
}

/**
 * TFLM's int16 LOGISTIC/TANH input rescaling (logistic_common.cc, tanh.cc). `multiplier === 0` marks
 * the power-of-two scale case, which the eval (core's `logisticInt16Run` / `tanhInt16Run`) turns into
 * `3 << leftShift` with no shift; see `int16SigmoidEvalRescale`.
 */
export interface Int16ActivationParams {
  multiplier: number;
  leftShift: number;
}

/**
 * Computes the int16 LUT input rescaling for an input scale as TFLM's prepare does: a power-of-two scale
 * of 2^-12 (or 2^-11 for TANH, `maxPotLeftShift` 1: `SigmoidSpec.int16MaxPotLeftShift`) needs no
 * multiplier; otherwise the scale times 3*4096 is doubled until above 32767/2 (at most 31 times) and
 * truncated. Returns a string describing the problem when the scale gives a multiplier above 32767.
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

/**
 * What TFLM's int16 eval (reference_integer_ops::Logistic / Tanh, core's `logisticInt16Run` /
 * `tanhInt16Run`) makes of the prepare-time words: each input x is rescaled to
 * `(x * multiplier + round) >> shift` with `round = shift > 0 ? 1 << (shift - 1) : 0`; a stored
 * multiplier of 0 (the power-of-two scale) runs as multiplier `3 << leftShift` (int32, wrapping as C
 * on x86) with no shift.
 */
export function int16SigmoidEvalRescale(p: Int16ActivationParams): { multiplier: number; shift: number; round: number } {
  const pot = p.multiplier === 0;
  const multiplier = pot ? 3 << p.leftShift : p.multiplier;
  const shift = pot ? 0 : p.leftShift;
  return { multiplier, shift, round: shift > 0 ? 1 << (shift - 1) : 0 };
}

/** Entries of a table over every 8-bit input. */
export const SIGMOID_TABLE_SIZE = 256;

/**
 * Fills `table` (256 entries, indexed by the input's byte: entry `x & 255` for int8 input x) with
 * sigmoidInt8Value of every int8 input, for an input zero point and TFLM's rescaling `p`.
 */
export function sigmoidInt8Table(fn: SigmoidFunction, inputZeroPoint: number, p: Int8ActivationParams, table: Int8Array): void {
  for (let x = -128; x < 128; x++) table[x & 255] = sigmoidInt8Value(fn, x - inputZeroPoint, p.radius, p.multiplier, p.leftShift);
}

/**
 * TFLite's uint8 LOGISTIC / TANH table (activations.cc, PopulateLookupTable<uint8_t>, the path its
 * reference and generic kernels share): table[v] = clamp((int32)(roundf(f(input_scale * (v −
 * input_zero_point)) * (1 / output_scale)) + output_zero_point), 0, 255), every step in float32, with
 * f = 1 / (1 + expf(−x)) or tanhf.
 */
export function sigmoidUint8Table(
  fn: SigmoidFunction,
  inputScale: number,
  inputZeroPoint: number,
  outputScale: number,
  outputZeroPoint: number,
  table: Uint8Array,
): void {
  const f = Math.fround;
  const inverseScale = f(1 / outputScale);
  for (let v = 0; v < SIGMOID_TABLE_SIZE; v++) {
    const x = f(inputScale * (v - inputZeroPoint));
    const y = fn === SigmoidFunction.Logistic ? f(1 / f(1 + expF32(-x))) : f(Math.tanh(x));
    const t = f(y * inverseScale);
    const q = Math.trunc(f((t < 0 ? -Math.round(-t) : Math.round(t)) + outputZeroPoint));
    table[v] = q < 0 ? 0 : q > 255 ? 255 : q;
  }
}
