/**
 * FULLY_CONNECTED with blockwise-quantized weights (LiteRT schema `BlockwiseQuantization`: the LLM
 * weights ai-edge-quantizer writes): float32 input and output, constant int4 weights [output_depth,
 * accum_depth] with one float16 (or float32) scale per block of `block_size` inputs, an optional float32
 * bias, a clamping fused activation (NONE, RELU, RELU_N1_TO_1, RELU6).
 *
 * TFLite's builtin kernel has no blockwise path (LiteRT hands the op to XNNPACK, which quantizes the
 * input to int8 per row on the fly): micrort computes the reference value instead, the dequantized
 * product Σ_blocks scale × Σ (input × q) in double precision, rounded once to float32, plus the bias,
 * then clamped. The weights stay int8 (int4 unpacked once in prepare) with their float32 block scales:
 * 1 byte per weight and 4 per block in the arena tail, no float copy of the matrix.
 */
import { ActivationFunctionType, KernelError, TensorType, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { activationRangeFloat, readBlockwiseWeights, type BlockwiseWeights, type FullyConnectedShape } from '@micrort/kernel-support';

/** What one blockwise FULLY_CONNECTED node keeps from prepare. */
export interface BlockwiseFcPlan {
  weights: BlockwiseWeights;
  lo: number;
  hi: number;
}

/** Prepares a blockwise node: float32 input, output and bias; the weights read and checked. */
export function prepareBlockwiseFullyConnected(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  shape: FullyConnectedShape,
  activation: ActivationFunctionType,
): BlockwiseFcPlan {
  for (const [what, t] of [
    ['input', input],
    ['output', output],
    ['bias', bias],
  ] as const)
    if (t && t.type !== TensorType.FLOAT32)
      throw new KernelError(
        op,
        node.index,
        `with blockwise weights, ${what} (tensor ${t.index}) must be float32, got ${tensorTypeName(t.type)}`,
      );
  const [lo, hi] = activationRangeFloat(op, node, activation);
  const weights = readBlockwiseWeights(op, context, node, 'filter', filter);
  if (weights.rows !== shape.outputDepth || weights.cols !== shape.accumDepth)
    throw new KernelError(
      op,
      node.index,
      `blockwise filter (tensor ${filter.index}) is [${weights.rows}, ${weights.cols}], expected [${shape.outputDepth}, ${shape.accumDepth}]`,
    );
  return { weights, lo, hi };
}

/** output[b][r] = clamp(fround(Σ_k scale[r][k] × Σ_{c in block k} input[b][c] × q[r][c]) + bias[r]). */
export function evalBlockwiseFullyConnected(
  plan: BlockwiseFcPlan,
  shape: FullyConnectedShape,
  input: Float32Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { values, scales, blockSize, blocks } = plan.weights;
  const { batches, outputDepth: rows, accumDepth: cols } = shape;
  const { lo, hi } = plan;
  for (let b = 0; b < batches; b++) {
    const x = b * cols;
    for (let r = 0; r < rows; r++) {
      let total = 0;
      let w = r * cols;
      for (let k = 0; k < blocks; k++) {
        let partial = 0;
        for (let c = x + k * blockSize, end = c + blockSize; c < end; c++) partial += input[c]! * values[w++]!;
        total += partial * scales[r * blocks + k]!;
      }
      const v = Math.fround(Math.fround(total) + (bias === null ? 0 : bias[r]!));
      output[b * rows + r] = v < lo ? lo : v > hi ? hi : v;
    }
  }
}
