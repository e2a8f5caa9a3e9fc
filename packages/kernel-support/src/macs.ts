/**
 * Multiply-accumulates of one node over its whole output, by the operator's definition — the model's
 * work, the same whichever kernels serve the node. Used for the recompute budget of patch schedules
 * and for "what share of the work each package served".
 */
import { BuiltinOperator } from '@micrort/core';

function elements(dims: ArrayLike<number>): number {
  let n = 1;
  for (let i = 0; i < dims.length; i++) n *= Math.max(0, dims[i]!);
  return n;
}

/**
 * MACs of a CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED or TRANSPOSE_CONV node from its shapes: `output`
 * (output 0), `weights` (input 1, the filter), `data` (input 2: TRANSPOSE_CONV's data input). 0 for any
 * other op and where a needed shape is missing or of another rank.
 */
export function opMacs(
  code: number,
  output: ArrayLike<number> | undefined,
  weights: ArrayLike<number> | undefined,
  data?: ArrayLike<number>,
): number {
  if (!output || !weights) return 0;
  switch (code) {
    case BuiltinOperator.CONV_2D:
      return weights.length === 4 ? elements(output) * weights[1]! * weights[2]! * weights[3]! : 0;
    case BuiltinOperator.DEPTHWISE_CONV_2D:
      return weights.length === 4 ? elements(output) * weights[1]! * weights[2]! : 0;
    case BuiltinOperator.FULLY_CONNECTED:
      return weights.length === 2 ? elements(output) * weights[1]! : 0;
    case BuiltinOperator.TRANSPOSE_CONV:
      return weights.length === 4 && data ? elements(data) * weights[0]! * weights[1]! * weights[2]! : 0;
    default:
      return 0;
  }
}
