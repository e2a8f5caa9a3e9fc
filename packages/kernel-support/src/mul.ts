/**
 * The quantized op data of MUL (TFLM's kernels/mul_common.cc CalculateOpDataMul), shared by the
 * reference, CMSIS-NN-style and WebAssembly kernels: one multiplier, QuantizeMultiplier(double(scale_1) *
 * double(scale_2) / double(output scale)), applied to the product of the offset inputs.
 */
import { TensorType, checkedQuantizeMultiplier, type ActivationFunctionType, type Node, type Tensor } from '@micrort/core';
import { activationRangeQuantized } from './activation.js';
import { expectQuantized, expectZeroPoint } from './checks.js';

/** The quantized fields of TFLM's OpDataMul. */
export interface OpDataMul {
  input1ZeroPoint: number;
  input2ZeroPoint: number;
  outputZeroPoint: number;
  outputMultiplier: number;
  /** TFLM's convention: positive = left shift. */
  outputShift: number;
  actMin: number;
  actMax: number;
}

/**
 * TFLM CalculateOpDataMul for a quantized node (int8, int16 with zero points 0, TFLite's uint8): inputs
 * and output quantized, the output multiplier, the zero points and the output's quantized activation range.
 */
export function calculateOpDataMul(
  op: string,
  node: Node,
  input1: Tensor,
  input2: Tensor,
  output: Tensor,
  activation: ActivationFunctionType,
): OpDataMul {
  expectQuantized(op, node, 'input 1', input1);
  expectQuantized(op, node, 'input 2', input2);
  expectQuantized(op, node, 'output', output);
  if (output.type === TensorType.INT16) {
    expectZeroPoint(op, node, 'input 1', input1, 0);
    expectZeroPoint(op, node, 'input 2', input2, 0);
    expectZeroPoint(op, node, 'output', output, 0);
  }
  const [actMin, actMax] = activationRangeQuantized(op, node, activation, output);
  // TFLM: double(s1) * double(s2) / double(s_out)
  const m = checkedQuantizeMultiplier(op, node, (input1.params.scale * input2.params.scale) / output.params.scale, 'output multiplier');
  return {
    input1ZeroPoint: input1.params.zeroPoint,
    input2ZeroPoint: input2.params.zeroPoint,
    outputZeroPoint: output.params.zeroPoint,
    outputMultiplier: m.multiplier,
    outputShift: m.shift,
    actMin,
    actMax,
  };
}
