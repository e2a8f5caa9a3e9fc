/**
 * PRELU's quantized parameters (tflite-micro kernels/prelu_common.cc PreluPrepare; TFLite's activations.cc
 * for uint8 and an int16 alpha), computed once for ops-reference and ops-wasm: v = x − input zero point;
 * v ≥ 0 is requantized with input scale / output scale, a negative v times (alpha − alpha zero point)
 * with input scale × alpha scale / output scale, plus the output zero point.
 */
import { TensorType, checkedQuantizeMultiplier, type Node, type QuantizedMultiplier, type Tensor } from '@micrort/core';

/** TFLM's PreluParams, with the multipliers as QuantizeMultiplier gives them. */
export interface PreluQuantParams {
  /** −input zero point. */
  inputOffset: number;
  /** −alpha zero point. */
  alphaOffset: number;
  outputZeroPoint: number;
  /** input scale / output scale (x ≥ input zero point). */
  identity: QuantizedMultiplier;
  /** input scale × alpha scale / output scale (x below the input zero point). */
  alpha: QuantizedMultiplier;
}

/**
 * The multipliers and offsets of a quantized PRELU: TFLM's (int8 alpha) in double; TFLite's (uint8, an
 * int16 alpha) from float expressions in PreluPrepare, rounded to float32 before QuantizeMultiplier widens
 * them. A KernelError of `op` when a multiplier is not finite or out of range.
 */
export function calculatePreluParams(op: string, node: Node, input: Tensor, alpha: Tensor, output: Tensor): PreluQuantParams {
  const f = input.type === TensorType.UINT8 || alpha.type === TensorType.INT16 ? Math.fround : (v: number) => v;
  return {
    inputOffset: -input.params.zeroPoint,
    alphaOffset: -alpha.params.zeroPoint,
    outputZeroPoint: output.params.zeroPoint,
    identity: checkedQuantizeMultiplier(op, node, f(input.params.scale / output.params.scale), 'identity multiplier'),
    alpha: checkedQuantizeMultiplier(op, node, f(f(input.params.scale * alpha.params.scale) / output.params.scale), 'alpha multiplier'),
  };
}
