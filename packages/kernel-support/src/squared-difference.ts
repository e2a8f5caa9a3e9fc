/**
 * SQUARED_DIFFERENCE's quantized parameters (tflite-micro kernels/squared_difference.cc PrepareQuantized),
 * computed once for ops-reference and ops-wasm: each input (x − zero point) · 2^leftShift is rescaled by
 * its scale / (2 · max input scale) (QuantizeMultiplierSmallerThanOneExp), the difference squared in int32
 * and rescaled by (2 · max input scale)² / (2^(2 · leftShift) · output scale) (QuantizeMultiplier), plus
 * the output zero point, clamped to the output type.
 */
import {
  checkedQuantizeMultiplier,
  quantizeMultiplierSmallerThanOneExp,
  type Node,
  type QuantizedMultiplier,
  type Tensor,
} from '@micrort/core';
import { typeRange } from './activation.js';

/** TFLM's ArithmeticParams of a quantized SQUARED_DIFFERENCE. */
export interface SquaredDifferenceQuantParams {
  /** −input 1 zero point. */
  input1Offset: number;
  /** −input 2 zero point. */
  input2Offset: number;
  outputZeroPoint: number;
  /** 7 for int8 (255² · 2^14 stays within int32), 0 for int16. */
  leftShift: number;
  /** Input rescales (shift ≤ 0: MultiplyByQuantizedMultiplierSmallerThanOneExp). */
  input1: QuantizedMultiplier;
  input2: QuantizedMultiplier;
  /** The squared difference's rescale. */
  output: QuantizedMultiplier;
  /** The output type's range. */
  actMin: number;
  actMax: number;
}

/** PrepareQuantized's parameters; a KernelError of `op` when a multiplier is not finite or out of range. */
export function calculateSquaredDifferenceParams(
  op: string,
  node: Node,
  input1: Tensor,
  input2: Tensor,
  output: Tensor,
  leftShift: number,
): SquaredDifferenceQuantParams {
  const s1 = input1.params.scale;
  const s2 = input2.params.scale;
  const twiceMaxInputScale = 2 * Math.max(s1, s2);
  const q1 = checkedQuantizeMultiplier(op, node, s1 / twiceMaxInputScale, 'input 1 multiplier', quantizeMultiplierSmallerThanOneExp);
  const q2 = checkedQuantizeMultiplier(op, node, s2 / twiceMaxInputScale, 'input 2 multiplier', quantizeMultiplierSmallerThanOneExp);
  // (1 << left_shift * 2) * output_scale is a float multiply in TFLM (exact: a power of two).
  const out = checkedQuantizeMultiplier(
    op,
    node,
    (twiceMaxInputScale * twiceMaxInputScale) / Math.fround(2 ** (2 * leftShift) * output.params.scale),
    'output multiplier',
  );
  const [actMin, actMax] = typeRange(input1.type);
  return {
    input1Offset: -input1.params.zeroPoint,
    input2Offset: -input2.params.zeroPoint,
    outputZeroPoint: output.params.zeroPoint,
    leftShift,
    input1: q1,
    input2: q2,
    output: out,
    actMin,
    actMax,
  };
}
