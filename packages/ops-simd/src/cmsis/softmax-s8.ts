/**
 * arm_softmax_s8 / arm_softmax_s8_s16 (non-Helium builds: arm_nn_softmax_common_s8). Per row: the maximum,
 * then `sum += exp(diff)` in Q12 for every element whose difference to the maximum is at least `diff_min`
 * (exp via arm_nn_exp_on_negative_values on the input scaled to Q5.26), a Newton-Raphson reciprocal of
 * the sum (arm_nn_one_over_one_plus_x_for_x_in_0_1), and each output `exp(diff) * 1/sum` shifted to
 * 8 (or 16) bits and offset by -128 (-32768).
 *
 * These are gemmlowp's exp_on_negative_values, one_over_one_plus_x_for_x_in_0_1 and TFLM's
 * GetReciprocal step by step (same constants, same rounding), so the result equals TFLM's reference
 * softmax bit for bit; no deviation from the reference had to be corrected. No scratch.
 */
import { roundingDivideByPOT, saturatingRoundingDoublingHighMul } from '@micrort/core';
import { multByPowerOfTwo } from '../intrinsics.js';
import type { SimdMachine } from '../machine.js';

const Q31_MAX = 2147483647;
const ACCUM_BITS = 12;
/** exp(-2^k) for k = -2..4 in Q0.31 (the barrel-shifter multipliers). */
const EXP_MULTIPLIERS = Int32Array.of(1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242);

/** Softmax parameters (TFLM's SoftmaxParams for int8 input). */
export interface SoftmaxParams {
  rows: number;
  rowSize: number;
  /** input_multiplier and input_left_shift from PreprocessSoftmaxScaling. */
  mult: number;
  shift: number;
  diffMin: number;
  /** 8 for int8 output, 16 for int16 output. */
  outBits: 8 | 16;
}

/** arm_nn_exp_on_negative_values: exp of a non-positive Q5.26 value, in Q0.31. */
export function expOnNegativeValues(val: number): number {
  const srdhm = saturatingRoundingDoublingHighMul;
  const valModMinusQuarter = ((val & ((1 << 24) - 1)) - (1 << 24)) | 0;
  const remainder = (valModMinusQuarter - val) | 0;
  const x = ((valModMinusQuarter << 5) + (1 << 28)) | 0;
  const x2 = srdhm(x, x);
  const inner = (srdhm((roundingDivideByPOT(srdhm(x2, x2), 2) + srdhm(x2, x)) | 0, 715827883) + x2) | 0;
  let result = (1895147668 + srdhm(1895147668, (x + roundingDivideByPOT(inner, 1)) | 0)) | 0;
  for (let i = 0; i < 7; i++) {
    if ((remainder & (1 << (24 + i))) !== 0) result = srdhm(result, EXP_MULTIPLIERS[i]!);
  }
  return val === 0 ? Q31_MAX : result;
}

/**
 * arm_nn_one_over_one_plus_x_for_x_in_0_1: `1 / (1 + x)` for Q0.31 `x` in [0, 1): three Newton-Raphson
 * steps in Q2.29 on the halved denominator, result in Q0.31.
 */
export function oneOverOnePlusX(val: number): number {
  const srdhm = saturatingRoundingDoublingHighMul;
  const sum = val + Q31_MAX;
  const halfDenominator = Math.trunc((sum + (sum >= 0 ? 1 : -1)) / 2) | 0;
  let x = (1515870810 + srdhm(halfDenominator, -1010580540)) | 0;
  for (let i = 0; i < 3; i++) x = (x + multByPowerOfTwo(srdhm(x, ((1 << 29) - srdhm(halfDenominator, x)) | 0), 2)) | 0;
  return multByPowerOfTwo(x, 1);
}

/** Fast mode: `output` is an Int8Array (outBits 8) or Int16Array (outBits 16). */
export function softmaxS8Fast(g: SoftmaxParams, input: Int8Array, output: Int8Array | Int16Array): void {
  const mask = 1 << g.shift;
  const n = g.rowSize;
  const outMin = g.outBits === 8 ? -128 : -32768;
  const outMax = g.outBits === 8 ? 127 : 32767;
  const extra = g.outBits === 8 ? 23 : 15;
  let base = 0;
  for (let row = 0; row < g.rows; row++) {
    let max = input[base]!;
    for (let c = 1; c < n; c++) if (input[base + c]! > max) max = input[base + c]!;
    let sum = 0;
    for (let c = 0; c < n; c++) {
      const diff = input[base + c]! - max;
      if (diff >= g.diffMin)
        sum =
          (sum + roundingDivideByPOT(expOnNegativeValues(saturatingRoundingDoublingHighMul(Math.imul(diff, mask), g.mult)), ACCUM_BITS)) |
          0;
    }
    const headroom = Math.clz32(sum);
    const shiftedScale = oneOverOnePlusX(((sum > 0 ? sum << headroom : 0) - 2147483648) | 0);
    const bitsOverUnit = ACCUM_BITS - headroom + extra;
    for (let c = 0; c < n; c++) {
      const diff = input[base + c]! - max;
      if (diff >= g.diffMin) {
        const e = expOnNegativeValues(saturatingRoundingDoublingHighMul(Math.imul(diff, mask), g.mult));
        let res = roundingDivideByPOT(saturatingRoundingDoublingHighMul(shiftedScale, e), bitsOverUnit) + outMin;
        res = res < outMax ? res : outMax;
        output[base + c] = res > outMin ? res : outMin;
      } else {
        output[base + c] = outMin;
      }
    }
    base += n;
  }
}

// ---- emulated ---------------------------------------------------------------------------------------

/** DIV_POW2 (arm_nn_divide_by_power_of_two): mask, shift, threshold compare and increment. */
function divPow2Emu(m: SimdMachine, x: number, e: number): number {
  m.alu(7);
  return roundingDivideByPOT(x, e);
}

/** MUL_POW2 (arm_nn_mult_by_power_of_two): shift and two saturation selects. */
function mulPow2Emu(m: SimdMachine, x: number, e: number): number {
  m.alu(6);
  return multByPowerOfTwo(x, e);
}

/** arm_nn_exp_on_negative_values, emulated (9 + up to 7 MUL_SAT). */
export function expOnNegativeValuesEmu(m: SimdMachine, val: number): number {
  m.alu(6);
  const valModMinusQuarter = ((val & ((1 << 24) - 1)) - (1 << 24)) | 0;
  const remainder = (valModMinusQuarter - val) | 0;
  const x = ((valModMinusQuarter << 5) + (1 << 28)) | 0;
  const x2 = m.doublingHighMult(x, x);
  const x4q = divPow2Emu(m, m.doublingHighMult(x2, x2), 2);
  const inner = m.add(m.doublingHighMult(m.add(x4q, m.doublingHighMult(x2, x)), 715827883), x2);
  let result = m.add(1895147668, m.doublingHighMult(1895147668, m.add(x, divPow2Emu(m, inner, 1))));
  for (let i = 0; i < 7; i++) {
    // SELECT_IF_NON_ZERO: the multiply is always computed, then selected with a mask
    const candidate = m.doublingHighMult(result, EXP_MULTIPLIERS[i]!);
    m.alu(5);
    if ((remainder & (1 << (24 + i))) !== 0) result = candidate;
  }
  m.alu(4);
  return val === 0 ? Q31_MAX : result;
}

/** arm_nn_one_over_one_plus_x_for_x_in_0_1, emulated. */
export function oneOverOnePlusXEmu(m: SimdMachine, val: number): number {
  m.alu(6); // 64-bit sum and rounding halving
  const sum = val + Q31_MAX;
  const halfDenominator = Math.trunc((sum + (sum >= 0 ? 1 : -1)) / 2) | 0;
  let x = m.add(1515870810, m.doublingHighMult(halfDenominator, -1010580540));
  for (let i = 0; i < 3; i++) {
    const t = m.doublingHighMult(x, m.add(1 << 29, -m.doublingHighMult(halfDenominator, x)));
    x = m.add(x, mulPow2Emu(m, t, 2));
  }
  return mulPow2Emu(m, x, 1);
}

/** Emulated mode. */
export function softmaxS8Emu(m: SimdMachine, g: SoftmaxParams, input: Int8Array, output: Int8Array | Int16Array): void {
  m.call();
  const mask = 1 << g.shift;
  const n = g.rowSize;
  const outMin = g.outBits === 8 ? -128 : -32768;
  const outMax = g.outBits === 8 ? 127 : 32767;
  const extra = g.outBits === 8 ? 23 : 15;
  m.alu(4);
  let base = 0;
  for (let row = 0; row < g.rows; row++) {
    let max = m.ldS8(input, base);
    for (let c = 1; c < n; c++) {
      max = m.max(max, m.ldS8(input, base + c));
      m.loop();
    }
    let sum = 0;
    for (let c = 0; c < n; c++) {
      const diff = m.add(m.ldS8(input, base + c), -max);
      m.alu(1);
      m.branch();
      if (diff >= g.diffMin) {
        const scaled = m.doublingHighMult(m.mul(diff, mask), g.mult);
        sum = m.add(sum, divPow2Emu(m, expOnNegativeValuesEmu(m, scaled), ACCUM_BITS));
      }
      m.loop();
    }
    m.alu(1); // CLZ
    const headroom = Math.clz32(sum);
    m.alu(4);
    const shiftedScale = oneOverOnePlusXEmu(m, ((sum > 0 ? sum << headroom : 0) - 2147483648) | 0);
    const bitsOverUnit = ACCUM_BITS - headroom + extra;
    m.alu(2);
    for (let c = 0; c < n; c++) {
      const diff = m.add(m.ldS8(input, base + c), -max);
      m.alu(1);
      m.branch();
      if (diff >= g.diffMin) {
        const e = expOnNegativeValuesEmu(m, m.doublingHighMult(m.mul(diff, mask), g.mult));
        let res = m.add(divPow2Emu(m, m.doublingHighMult(shiftedScale, e), bitsOverUnit), outMin);
        res = m.min(res, outMax);
        res = m.max(res, outMin);
        if (g.outBits === 8) m.stB(output as Int8Array, base + c, res);
        else m.stH(output as Int16Array, base + c, res);
      } else if (g.outBits === 8) {
        m.stB(output as Int8Array, base + c, outMin);
      } else {
        m.stH(output as Int16Array, base + c, outMin);
      }
      m.loop();
    }
    base += n;
    m.alu(2);
    m.loop();
  }
}
