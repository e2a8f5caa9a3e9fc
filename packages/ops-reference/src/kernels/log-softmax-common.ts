/**
 * Fixed-point math of the int8 LOG_SOFTMAX kernel: TFLite's log_x_for_x_greater_than_or_equal_to_1
 * (kernels/internal/common.h) on gemmlowp raw int32 values, exact to the bit (wrapping adds, gemmlowp's
 * rounding products and saturating shifts from core).
 */
import {
  oneOverOnePlusXForXIn01,
  roundingHalfSum,
  saturatingAddInt32,
  saturatingRoundingDoublingHighMul as mul,
  saturatingRoundingMultiplyByPOT,
  saturatingSubInt32,
} from '@micrort/core';

// Q0.31 constants of TFLite's implementation.
const LOG_2 = 1488522236;
const SQRT_SQRT_HALF = 1805811301;
const SQRT_HALF = 1518500250;
const ONE_QUARTER = 536870912;
const ALPHA_N = 117049297;
const ALPHA_D = 127690142;
const ALPHA_I = 1057819769;
const ALPHA_F = 638450708;

/**
 * log(x) for a FixedPoint<int32, inputIntegerBits> x >= 1 (it also handles x down to 1 / x_max), as a
 * FixedPoint<int32, outputIntegerBits> raw value: TFLite's
 * log_x_for_x_greater_than_or_equal_to_1_impl<outputIntegerBits, inputIntegerBits>.
 */
export function logXForXGreaterThanOrEqualTo1(input: number, outputIntegerBits: number, inputIntegerBits: number): number {
  const accumIntegerBits = outputIntegerBits + 1;
  const shiftedQuarter = saturatingRoundingMultiplyByPOT(ONE_QUARTER, -accumIntegerBits);
  const za = input | 0;
  const zaHeadroomPlus1 = Math.clz32(za);
  const raTmp = saturatingRoundingMultiplyByPOT(za, zaHeadroomPlus1 - 1);
  const ra = saturatingRoundingMultiplyByPOT(mul(raTmp, SQRT_HALF), 1);
  const zaPow2Adj = saturatingAddInt32(
    saturatingRoundingMultiplyByPOT(inputIntegerBits - zaHeadroomPlus1, 31 - accumIntegerBits),
    shiftedQuarter,
  );
  const zb = mul(za, SQRT_HALF);
  const zbHeadroom = Math.clz32(zb) - 1;
  const rb = saturatingRoundingMultiplyByPOT(za, zbHeadroom);
  const zbPow2Adj = saturatingSubInt32(
    saturatingRoundingMultiplyByPOT(inputIntegerBits - zbHeadroom, 31 - accumIntegerBits),
    shiftedQuarter,
  );
  const r = ra < rb ? ra : rb;
  const zPow2Adj = zaPow2Adj > zbPow2Adj ? zaPow2Adj : zbPow2Adj;
  const p = roundingHalfSum(r, SQRT_SQRT_HALF);
  let q = (r - SQRT_SQRT_HALF) | 0;
  q = (q + q) | 0;
  const commonSq = mul(q, q);
  const num = (mul(q, r) + mul(mul(q, commonSq), ALPHA_N)) | 0;
  const denomMinusOne = (mul(p, (((ALPHA_I + q) | 0) + mul(ALPHA_D, commonSq)) | 0) + mul(ALPHA_F, q)) | 0;
  const recipDenom = oneOverOnePlusXForXIn01(denomMinusOne);
  const numScaled = saturatingRoundingMultiplyByPOT(num, -accumIntegerBits);
  const sum = (mul(zPow2Adj, LOG_2) + mul(numScaled, recipDenom)) | 0;
  return saturatingRoundingMultiplyByPOT(sum, accumIntegerBits - outputIntegerBits);
}
