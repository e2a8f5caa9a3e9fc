/**
 * The quantized op data of ADD (TFLM's kernels/add_common.cc CalculateOpDataAdd), shared by the
 * reference, CMSIS-NN-style and WebAssembly kernels: both inputs are rescaled to twice the larger input
 * scale after a left shift of 20 (int8, uint8) or 15 (int16), summed, and the sum rescaled to the
 * output, every multiplier from QuantizeMultiplierSmallerThanOneExp with the ratios in double.
 */
import {
  KernelError,
  TensorType,
  quantizeMultiplierSmallerThanOneExp,
  type ActivationFunctionType,
  type Node,
  type Tensor,
} from '@micrort/core';
import { activationRangeQuantized } from './activation.js';
import { expectQuantized } from './checks.js';

/** The quantized fields of TFLM's OpDataAdd (shifts in TFLM's convention: <= 0, a right shift). */
export interface OpDataAdd {
  leftShift: number;
  /** -input1 zero point. */
  input1Offset: number;
  input2Offset: number;
  /** output zero point. */
  outputOffset: number;
  input1Multiplier: number;
  input1Shift: number;
  input2Multiplier: number;
  input2Shift: number;
  outputMultiplier: number;
  outputShift: number;
  actMin: number;
  actMax: number;
}

/** The scales and zero points the quantized ADD parameters come from. */
export interface QuantizedAddScales {
  input1Scale: number;
  input1ZeroPoint: number;
  input2Scale: number;
  input2ZeroPoint: number;
  outputScale: number;
  outputZeroPoint: number;
}

/**
 * CalculateOpDataAdd's arithmetic for int8/uint8 (left shift 20) and int16 (15; TFLM takes this general
 * path for int16 whatever pot_scale_int16 says): input i rescaled by scale_i / (2 * max(scale1, scale2)),
 * the sum by 2 * max(scale1, scale2) / (2^left_shift * output_scale). Activation bounds are left 0.
 * RangeError when a multiplier is not in (0, 1), where TFLite's checks abort.
 */
export function quantizedAddParams(s: QuantizedAddScales, int16: boolean): OpDataAdd {
  const leftShift = int16 ? 15 : 20;
  const twiceMaxInputScale = 2 * Math.max(s.input1Scale, s.input2Scale);
  const m1 = quantizeMultiplierSmallerThanOneExp(s.input1Scale / twiceMaxInputScale);
  const m2 = quantizeMultiplierSmallerThanOneExp(s.input2Scale / twiceMaxInputScale);
  const mo = quantizeMultiplierSmallerThanOneExp(twiceMaxInputScale / (2 ** leftShift * s.outputScale));
  return {
    leftShift,
    input1Offset: -s.input1ZeroPoint,
    input2Offset: -s.input2ZeroPoint,
    outputOffset: s.outputZeroPoint,
    input1Multiplier: m1.multiplier,
    input1Shift: m1.shift,
    input2Multiplier: m2.multiplier,
    input2Shift: m2.shift,
    outputMultiplier: mo.multiplier,
    outputShift: mo.shift,
    actMin: 0,
    actMax: 0,
  };
}

/**
 * TFLM CalculateOpDataAdd for a quantized node (int8, int16, TFLite's uint8): inputs and output quantized,
 * `quantizedAddParams` from their scales, the output's quantized activation range. A rescale TFLite
 * would abort on is a `KernelError` ("cannot rescale: ...").
 */
export function calculateOpDataAdd(
  op: string,
  node: Node,
  input1: Tensor,
  input2: Tensor,
  output: Tensor,
  activation: ActivationFunctionType,
): OpDataAdd {
  expectQuantized(op, node, 'input 1', input1);
  expectQuantized(op, node, 'input 2', input2);
  expectQuantized(op, node, 'output', output);
  let p: OpDataAdd;
  try {
    p = quantizedAddParams(
      {
        input1Scale: input1.params.scale,
        input1ZeroPoint: input1.params.zeroPoint,
        input2Scale: input2.params.scale,
        input2ZeroPoint: input2.params.zeroPoint,
        outputScale: output.params.scale,
        outputZeroPoint: output.params.zeroPoint,
      },
      output.type === TensorType.INT16,
    );
  } catch (e) {
    if (e instanceof RangeError) throw new KernelError(op, node.index, `cannot rescale: ${e.message}`);
    throw e;
  }
  [p.actMin, p.actMax] = activationRangeQuantized(op, node, activation, output);
  return p;
}
