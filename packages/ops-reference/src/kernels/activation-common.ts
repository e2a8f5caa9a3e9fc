/**
 * Shared math of the activation reference kernels (LOGISTIC, TANH) and of DIV: gemmlowp's fixed-point
 * logistic / tanh / (1-x)/(1+x) on int32 raw values (on top of core's exp and 1/(1+x)), TFLM's int16
 * sigmoid lookup table with linear interpolation, and the prepare-time input rescaling of both.
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
 * sigmoid(i / 24) for i = 0..255 in unsigned Q0.16 (65535 at the end): the lookup table of TFLM's int16
 * LOGISTIC and TANH (tanh(x) = 2 * sigmoid(2x) - 1).
 */
export const SIGMOID_TABLE_UINT16: Uint16Array = Uint16Array.from([
  32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
  43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
  51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
  57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
  61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
  63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
  64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
  64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
  65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
  65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
  65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
  65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
  65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
  65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
  65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
  65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
]);

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

/** TFLM int16 LOGISTIC of one value (sigmoid LUT, 9 fractional interpolation bits). */
export function logisticInt16(x: number, multiplier: number, leftShift: number, round: number): number {
  const input = (x * multiplier + round) >> leftShift;
  const absInput = input < 0 ? -input : input;
  const uh = absInput >>> 9;
  let result: number;
  if (uh >= 255) {
    result = 0x7fff << 10;
  } else {
    const ua = SIGMOID_TABLE_UINT16[uh]!;
    const ub = SIGMOID_TABLE_UINT16[uh + 1]!;
    result = ua * 512 + (absInput & 0x1ff) * (ub - ua);
  }
  result = input >= 0 ? result + 512 : (1 << 25) - result + 512 - 1;
  return ((result >>> 10) << 16) >> 16;
}

/** TFLM int16 TANH of one value (same LUT as sigmoid, 8 interpolation bits). */
export function tanhInt16(x: number, multiplier: number, leftShift: number, round: number): number {
  const input = (x * multiplier + round) >> leftShift;
  const absInput = input < 0 ? -input : input;
  const uh = absInput >>> 8;
  let result: number;
  if (uh >= 255) {
    result = 0xffff << 8;
  } else {
    const ua = SIGMOID_TABLE_UINT16[uh]!;
    const ub = SIGMOID_TABLE_UINT16[uh + 1]!;
    result = ua * 256 + (absInput & 0xff) * (ub - ua);
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  return ((result >> 8) << 16) >> 16;
}

/**
 * TFLM int16 LOGISTIC (reference_integer_ops::Logistic) over `count` values from `input[inOffset ..]` to
 * `output[outOffset ..]` (they may be the same array at the same offset), with the prepare-time
 * `multiplier` and `leftShift` of `Int16ActivationParams` (multiplier 0: power-of-two input scale, which
 * runs as multiplier 3 << leftShift with no shift).
 */
export function logisticInt16Run(input: Int16Array, inOffset: number, output: Int16Array, outOffset: number, count: number, multiplier: number, leftShift: number): void {
  const pot = multiplier === 0;
  const m = pot ? 3 << leftShift : multiplier;
  const shift = pot ? 0 : leftShift;
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  for (let i = 0; i < count; i++) output[outOffset + i] = logisticInt16(input[inOffset + i]!, m, shift, round);
}

/** TFLM int16 TANH (reference_integer_ops::Tanh), with the conventions of `logisticInt16Run`. */
export function tanhInt16Run(input: Int16Array, inOffset: number, output: Int16Array, outOffset: number, count: number, multiplier: number, leftShift: number): void {
  const pot = multiplier === 0;
  const m = pot ? 3 << leftShift : multiplier;
  const shift = pot ? 0 : leftShift;
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  for (let i = 0; i < count; i++) output[outOffset + i] = tanhInt16(input[inOffset + i]!, m, shift, round);
}
