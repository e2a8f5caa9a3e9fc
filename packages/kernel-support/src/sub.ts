/**
 * The quantized op data of SUB (TFLM's kernels/sub_common.cc CalculateOpDataSub): ADD's scheme (both
 * inputs rescaled to twice the larger input scale after a left shift of 20 for int8, 15 for int16, the
 * difference rescaled to the output) with the ratios computed in float before widening to double, as
 * TFLM's SUB does — and in double for TFLite's uint8 SUB (kernels/sub.cc).
 */
import { KernelError, TensorType, checkedQuantizeMultiplier, type ActivationFunctionType, type Node, type Tensor } from '@micrort/core';
import { activationRangeQuantized } from './activation.js';
import { expectQuantized } from './checks.js';
import type { OpDataAdd } from './add.js';

/** The quantized fields of TFLM's OpDataSub: those of OpDataAdd. */
export type OpDataSub = OpDataAdd;

/**
 * TFLM CalculateOpDataSub for a quantized node (int8, int16, TFLite's uint8): inputs and output quantized,
 * the three multipliers (the output one below 1, as QuantizeMultiplierSmallerThanOneExp requires), the
 * offsets and the output's quantized activation range.
 */
export function calculateOpDataSub(
  op: string,
  node: Node,
  input1: Tensor,
  input2: Tensor,
  output: Tensor,
  activation: ActivationFunctionType,
): OpDataSub {
  expectQuantized(op, node, 'input 1', input1);
  expectQuantized(op, node, 'input 2', input2);
  expectQuantized(op, node, 'output', output);
  const leftShift = output.type === TensorType.INT16 ? 15 : 20;
  // TFLM computes these ratios in float before widening to double; TFLite (uint8) in double.
  const r = output.type === TensorType.UINT8 ? (x: number) => x : Math.fround;
  const twiceMaxInputScale = Math.fround(2 * Math.max(input1.params.scale, input2.params.scale));
  const m1 = checkedQuantizeMultiplier(op, node, r(input1.params.scale / twiceMaxInputScale), 'input 1 multiplier');
  const m2 = checkedQuantizeMultiplier(op, node, r(input2.params.scale / twiceMaxInputScale), 'input 2 multiplier');
  const mo = checkedQuantizeMultiplier(
    op,
    node,
    r(twiceMaxInputScale / Math.fround((1 << leftShift) * output.params.scale)),
    'output multiplier',
  );
  if (mo.shift > 0)
    throw new KernelError(
      op,
      node.index,
      `output scale ${output.params.scale} is too small for the input scales (rescale multiplier >= 1)`,
    );
  const [actMin, actMax] = activationRangeQuantized(op, node, activation, output);
  return {
    leftShift,
    input1Offset: -input1.params.zeroPoint,
    input2Offset: -input2.params.zeroPoint,
    outputOffset: output.params.zeroPoint,
    input1Multiplier: m1.multiplier,
    input1Shift: m1.shift,
    input2Multiplier: m2.multiplier,
    input2Shift: m2.shift,
    outputMultiplier: mo.multiplier,
    outputShift: mo.shift,
    actMin,
    actMax,
  };
}
