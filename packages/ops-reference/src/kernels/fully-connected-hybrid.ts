/**
 * Hybrid FULLY_CONNECTED (TFLite kernels/fully_connected.cc EvalHybridDense; the converter's
 * dynamic-range quantization): float32 input and output, int8, uint8 (read as int8, as TFLite) or int4
 * weights, an optional float32 bias, any fused activation.
 *
 * Each input row is quantized to int8 at run time (symmetric, or asymmetric with a zero point when
 * `asymmetric_quantize_inputs`), multiplied by the weights in int32 and scaled back with the row's
 * factor × the weight scale — per tensor (the factor times the scale, as TFLite 2.9), or per channel
 * (one scale per output unit, as current LiteRT) — onto the bias; then the activation. The arithmetic is
 * kernel-support's hybrid module (TFLite's tensor_utils, float32 step by step).
 *
 * The quantized rows, factors and zero points are scratch buffers; int4 weights are unpacked once into
 * a persistent buffer and the weight row sums (asymmetric inputs) are computed in prepare for constant
 * weights.
 */
import { ActivationFunctionType, KernelError, TensorType, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import {
  applyActivationToVector,
  batchQuantizeFloats,
  hybridWeightScales,
  hybridWeightsInt8,
  isZeroVector,
  matrixBatchVectorMultiplyAccumulate,
  reductionSumVector,
  scaleFactors,
  type FullyConnectedShape,
  type HybridWeights,
} from '@micrort/kernel-support';

const EMPTY_I8 = new Int8Array(0);
const EMPTY_I32 = new Int32Array(0);

/** What one hybrid FULLY_CONNECTED node keeps from prepare. */
export interface HybridFcPlan {
  weights: HybridWeights;
  /** The weights are read from the eval tensor in invoke (a non-constant int8 filter). */
  weightsFromTensor: boolean;
  /** Per-tensor weight scale (folded into the factors), unused per channel. */
  scale: number;
  asymmetric: boolean;
  activation: ActivationFunctionType;
  quantizedIndex: number;
  factorsIndex: number;
  zeroPointsIndex: number;
}

/** Prepares a hybrid node: checks the types, binds the weights, requests the scratch buffers. */
export function prepareHybridFullyConnected(
  op: string,
  context: TfLiteContext,
  node: Node,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  shape: FullyConnectedShape,
  activation: ActivationFunctionType,
  asymmetric: boolean,
): HybridFcPlan {
  const fail = (detail: string): never => {
    throw new KernelError(op, node.index, detail);
  };
  if (output.type !== TensorType.FLOAT32)
    fail(`hybrid output (tensor ${output.index}) must be float32, got ${tensorTypeName(output.type)}`);
  if (bias && bias.type !== TensorType.FLOAT32)
    fail(`hybrid bias (tensor ${bias.index}) must be float32, got ${tensorTypeName(bias.type)}`);
  if (filter.dims.length !== 2) fail(`hybrid filter (tensor ${filter.index}) must be 2-D, got rank ${filter.dims.length}`);
  if (activation < ActivationFunctionType.NONE || activation > ActivationFunctionType.SIGN_BIT)
    fail(`unsupported fused activation ${activation}`);
  const { outputDepth: rows, accumDepth: cols, batches } = shape;
  const { scale, perChannel } = hybridWeightScales(op, node, 'filter', filter, 0, rows);
  const matrix = hybridWeightsInt8(op, context, node, 'filter', filter);
  const rowSums = asymmetric ? context.allocatePersistentBuffer(rows * 4).i32.subarray(0, rows) : EMPTY_I32;
  if (asymmetric && matrix) reductionSumVector(matrix, 0, rows, cols, rowSums);
  return {
    weights: { matrix: matrix ?? EMPTY_I8, offset: 0, rows, cols, rowSums, rowSumsOffset: 0, perChannelScale: perChannel },
    weightsFromTensor: matrix === null,
    scale,
    asymmetric,
    activation,
    quantizedIndex: context.requestScratchBufferInArena(Math.max(1, batches * cols)),
    factorsIndex: context.requestScratchBufferInArena(Math.max(1, batches) * 4),
    zeroPointsIndex: context.requestScratchBufferInArena(Math.max(1, batches) * 4),
  };
}

/** TFLite EvalHybridDense: output = activation(bias + dequantized(int8 input row × int8 weights)). */
export function evalHybridFullyConnected(
  plan: HybridFcPlan,
  context: TfLiteContext,
  shape: FullyConnectedShape,
  input: Float32Array,
  filter: Int8Array,
  bias: Float32Array | null,
  output: Float32Array,
): void {
  const { batches, outputDepth: rows, accumDepth: cols } = shape;
  const total = batches * rows;
  for (let b = 0; b < batches; b++) for (let r = 0; r < rows; r++) output[b * rows + r] = bias === null ? 0 : bias[r]!;
  if (!isZeroVector(input, 0, batches * cols)) {
    const w = plan.weights;
    if (plan.weightsFromTensor) {
      w.matrix = filter;
      if (plan.asymmetric) reductionSumVector(filter, 0, rows, cols, w.rowSums);
    }
    const quantized = context.getScratchBuffer(plan.quantizedIndex).i8;
    const factors = context.getScratchBuffer(plan.factorsIndex).f32;
    const zeroPoints = context.getScratchBuffer(plan.zeroPointsIndex).i32;
    batchQuantizeFloats(input, 0, batches, cols, quantized, 0, factors, zeroPoints, 0, plan.asymmetric);
    if (w.perChannelScale === null) scaleFactors(factors, 0, batches, plan.scale);
    matrixBatchVectorMultiplyAccumulate(w, quantized, 0, factors, zeroPoints, 0, batches, output, 0);
  }
  applyActivationToVector(plan.activation, output, 0, total);
}
