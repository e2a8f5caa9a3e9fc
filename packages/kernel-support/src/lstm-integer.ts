/**
 * The int16 arithmetic of TFLite's integer LSTM kernels: gemmlowp's fixed-point logistic and tanh on
 * `FixedPoint<int16_t, N>` (fixedpoint.h, as tensor_utils' ApplySigmoid / ApplyTanh and reference_ops'
 * quantized LstmCell call them) and the element-wise helpers of tensor_utils (portable_tensor_utils.cc,
 * TFLite 2.9) the 8x8_16 LSTM step uses. Every value is a plain JS number holding the C int16/int32
 * value; int16 sums and negations wrap as the C casts do, the saturating ones saturate.
 *
 * Math only (no tensors, no allocation): called element by element from the kernels' invoke.
 */
import {
  getInvSqrtQuantizedMultiplierExp,
  multiplyByQuantizedMultiplier,
  roundingDivideByPOT,
  saturatingRoundingDoublingHighMulInt16,
} from '@micrort/core';

const I16_MAX = 32767;
const I16_MIN = -32768;

/** int16_t(x): wraps to 16 bits. */
function wrap16(x: number): number {
  return (x << 16) >> 16;
}

/** gemmlowp SaturatingRoundingDoublingHighMul on int16 (the FixedPoint<int16_t> product). */
const mul16 = saturatingRoundingDoublingHighMulInt16;

/**
 * gemmlowp SaturatingRoundingMultiplyByPOT<exponent> on int16 (left: saturating; right: rounding), i.e.
 * `Rescale` between int16 fixed-point formats.
 */
export function saturatingRoundingMultiplyByPOTInt16(x: number, exponent: number): number {
  if (exponent === 0) return x;
  if (exponent < 0) return roundingDivideByPOT(x, -exponent);
  const threshold = (1 << (15 - exponent)) - 1;
  if (x > threshold) return I16_MAX;
  if (x < -threshold) return I16_MIN;
  return wrap16(x << exponent);
}

/** gemmlowp RescaleConstantInitializer<int16>: an int32 Q0.31-style constant rounded to 16 bits. */
function constant16(int32Value: number): number {
  return wrap16(roundingDivideByPOT(int32Value | 0, 16));
}

const EXP_CONSTANT_TERM = constant16(1895147668); // exp(-1/8)
const ONE_THIRD = constant16(715827883);
/** exp(-2^k) for k = -2 .. 4, the barrel shifter's multipliers. */
const EXP_BARREL = [1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242].map(constant16);
const C48_OVER_17 = constant16(1515870810); // F2
const CNEG32_OVER_17 = constant16(-1010580540); // F2
const HALF = constant16(1 << 30); // F0 0.5
const F0_ONE = I16_MAX;
const F2_ONE = 1 << 13;

/** exp(a) for a in [-1/4, 0), F0 in, F0 out. */
function expOnQuarterInterval(a: number): number {
  const x = wrap16(a + (1 << 12));
  const x2 = mul16(x, x);
  const x3 = mul16(x2, x);
  const x4 = mul16(x2, x2);
  const x4Over4 = saturatingRoundingMultiplyByPOTInt16(x4, -2);
  const poly = saturatingRoundingMultiplyByPOTInt16(wrap16(mul16(wrap16(x4Over4 + x3), ONE_THIRD) + x2), -1);
  const sum = EXP_CONSTANT_TERM + mul16(EXP_CONSTANT_TERM, wrap16(x + poly));
  return sum > I16_MAX ? I16_MAX : sum < I16_MIN ? I16_MIN : sum;
}

/** gemmlowp exp_on_negative_values: `a` (a <= 0) with `integerBits` integer bits in, F0 out. */
function expOnNegative(a: number, integerBits: number): number {
  const fractionalBits = 15 - integerBits;
  const quarter = 1 << (fractionalBits - 2);
  const mask = quarter - 1;
  const aModQuarterMinusQuarter = wrap16((a & mask) - quarter);
  let result = expOnQuarterInterval(saturatingRoundingMultiplyByPOTInt16(aModQuarterMinusQuarter, integerBits));
  const remainder = wrap16(aModQuarterMinusQuarter - a);
  for (let e = -2; e <= 4; e++) {
    if (integerBits > e && (remainder & (1 << (fractionalBits + e))) !== 0) result = mul16(result, EXP_BARREL[e + 2]!);
  }
  if (integerBits > 5) {
    const clamp = constant16(-(1 << (36 - integerBits)));
    if (a < clamp) result = 0;
  }
  return a === 0 ? F0_ONE : result;
}

/** The three Newton-Raphson steps of 1 / (1 + a) on F2, `a` F0 in (0, 1). */
function newtonReciprocal(halfDenominator: number): number {
  let x = wrap16(C48_OVER_17 + mul16(halfDenominator, CNEG32_OVER_17));
  for (let i = 0; i < 3; i++) {
    const oneMinus = wrap16(F2_ONE - mul16(halfDenominator, x));
    x = wrap16(x + saturatingRoundingMultiplyByPOTInt16(mul16(x, oneMinus), 2));
  }
  return x;
}

/** gemmlowp RoundingHalfSum on int16. */
function roundingHalfSum16(a: number, b: number): number {
  const sum = a + b;
  return wrap16(((sum + (sum >= 0 ? 1 : -1)) / 2) | 0);
}

/**
 * gemmlowp::logistic on `FixedPoint<int16_t, integerBits>` (raw int16 in, Q0.15 raw out): TFLite's
 * ApplySigmoid is `integerBits` 3.
 */
export function gemmlowpLogisticInt16(raw: number, integerBits: number): number {
  if (raw === 0) return HALF;
  const positive = raw > 0;
  const abs = positive ? raw : wrap16(-raw);
  const e = expOnNegative(wrap16(-abs), integerBits);
  // one_over_one_plus_x_for_x_in_0_1: Rescale<0>(ExactMulByPot<-1>(x)), F1 -> F0.
  const resultIfPositive = saturatingRoundingMultiplyByPOTInt16(newtonReciprocal(roundingHalfSum16(e, F0_ONE)), 1);
  return positive ? resultIfPositive : wrap16(F0_ONE - resultIfPositive);
}

/**
 * gemmlowp::tanh on `FixedPoint<int16_t, integerBits>` (raw int16 in, Q0.15 raw out), as TFLite's
 * ApplyTanh(integerBits, ..) and the quantized LstmCell compute it.
 */
export function gemmlowpTanhInt16(raw: number, integerBits: number): number {
  if (raw === 0) return 0;
  const negative = raw < 0;
  const n = negative ? raw : wrap16(-raw);
  // neg_tanh_on_negative_values: exp of 2n (ExactMulByPot<1>: one more integer bit), then (1 - x) / (1 + x).
  const e = expOnNegative(n, integerBits + 1);
  const t = saturatingRoundingMultiplyByPOTInt16(wrap16(newtonReciprocal(roundingHalfSum16(e, F0_ONE)) - F2_ONE), 2);
  return negative ? wrap16(-t) : t;
}

/*
 * The helpers below take their quantized multiplier and shift as `params[at]` and `params[at + 1]`:
 * multipliers lie in [2^30, 2^31), beyond V8's small integers, so passed as arguments to a call V8 does
 * not inline they would be boxed (allocated) on every call.
 */

/**
 * tensor_utils::MatrixBatchVectorMultiplyAccumulate (int8 × int8 → int16/int8 with an int32 bias):
 * out[b, r] = clamp(MBQM(bias[r] + Σ x[b, c]·w[r, c]) + outZp + out[b, r]), the multiplier and shift at
 * `params[at]`, `params[at + 1]`.
 */
export function matrixBatchVectorMultiplyAccumulateInt(
  x: Int8Array,
  bias: Int32Array,
  w: Int8Array,
  params: Int32Array,
  at: number,
  batches: number,
  cols: number,
  rows: number,
  outZp: number,
  out: Int16Array | Int8Array,
  lo: number,
  hi: number,
): void {
  const multiplier = params[at]!;
  const shift = params[at + 1]!;
  for (let b = 0; b < batches; b++) {
    const xb = b * cols;
    for (let r = 0; r < rows; r++) {
      let acc = bias[r]!;
      const wr = r * cols;
      for (let c = 0; c < cols; c++) acc = (acc + x[xb + c]! * w[wr + c]!) | 0;
      let v = multiplyByQuantizedMultiplier(acc, multiplier, shift) + outZp + out[b * rows + r]!;
      v = v > hi ? hi : v < lo ? lo : v;
      out[b * rows + r] = v;
    }
  }
}

/** tensor_utils::CwiseMul (int16 × int16 → int16, rounding shift right by `shift`, wrapping). */
export function cwiseMulShiftInt16(a: Int16Array, b: Int16Array, n: number, shift: number, out: Int16Array): void {
  for (let i = 0; i < n; i++) out[i] = roundingDivideByPOT(a[i]! * b[i]!, shift);
}

/**
 * tensor_utils::CwiseMul (int16 × int16 → int8): clamp(MBQM(a·b) - outZp) as TFLite 2.9 writes it, the
 * multiplier and shift at `params[at]`, `params[at + 1]`.
 */
export function cwiseMulToInt8(
  a: Int16Array,
  b: Int16Array,
  n: number,
  params: Int32Array,
  at: number,
  outZp: number,
  out: Int8Array,
): void {
  const multiplier = params[at]!;
  const shift = params[at + 1]!;
  for (let i = 0; i < n; i++) {
    const v = multiplyByQuantizedMultiplier(a[i]! * b[i]!, multiplier, shift) - outZp;
    out[i] = v < -128 ? -128 : v > 127 ? 127 : v;
  }
}

/** tensor_utils::CwiseAdd on int16 (saturating), `out` may alias. */
export function cwiseAddInt16(a: Int16Array, b: Int16Array, n: number, out: Int16Array): void {
  for (let i = 0; i < n; i++) {
    const s = a[i]! + b[i]!;
    out[i] = s > I16_MAX ? I16_MAX : s < I16_MIN ? I16_MIN : s;
  }
}

/**
 * tensor_utils::ApplyLayerNorm (integer, in place over `batches` rows of `size`): each row normalized by
 * its mean and inverse standard deviation (GetInvSqrtQuantizedMultiplierExp; `varianceLimit` when the
 * variance is below 1), times `weights`, plus `bias`, rescaled by the multiplier and shift at
 * `params[at]`, `params[at + 1]` (+ 12). `invSqrt`: 2 words of scratch. TFLite's int32 product of the
 * rescaled value and the weight wraps; the int64 sums are exact in doubles.
 */
export function applyLayerNormInt16(
  v: Int16Array,
  weights: Int16Array,
  bias: Int32Array,
  params: Int32Array,
  at: number,
  varianceLimit: number,
  batches: number,
  size: number,
  invSqrt: Int32Array,
): void {
  const scaleA = params[at]!;
  const scaleB = params[at + 1]! + 12;
  const temp = (1048576 / size) | 0;
  for (let b = 0; b < batches; b++) {
    const row = b * size;
    let sum = 0;
    let sumSq = 0;
    for (let j = 0; j < size; j++) {
      const x = v[row + j]!;
      sum += x;
      sumSq += x * x;
    }
    // `| 0`: the int32 truncations TFLite makes (and ints, not doubles, where they cross a call).
    const mean = ((sum * 1024) / size) | 0;
    let variance = ((sumSq * temp - mean * mean) / 1048576) | 0;
    if (variance < 1) variance = varianceLimit;
    getInvSqrtQuantizedMultiplierExp(variance, -1, invSqrt);
    const invA = invSqrt[0]!;
    const invB = invSqrt[1]!;
    for (let j = 0; j < size; j++) {
      const rescaled = multiplyByQuantizedMultiplier(1024 * v[row + j]! - mean, invA, invB);
      const val3 = (Math.imul(rescaled, weights[j]!) + bias[j]!) | 0;
      const val4 = ((val3 > 0 ? val3 + 512 : val3 - 512) / 1024) | 0;
      const val5 = multiplyByQuantizedMultiplier(val4, scaleA, scaleB);
      v[row + j] = val5 > I16_MAX ? I16_MAX : val5 < I16_MIN ? I16_MIN : val5;
    }
  }
}
