/**
 * Shared prepare logic of AVERAGE_POOL_2D and MAX_POOL_2D (TFLM kernels/pooling_common.cc); the padding
 * arithmetic of TFLM kernels/padding.h is conv-common's.
 */
import {
  ActivationFunctionType,
  KernelError,
  Padding,
  TensorType,
  calculateActivationRangeFloat,
  calculateActivationRangeQuantized,
  checkArity,
  getInput,
  getOutput,
  tensorTypeName,
} from '@micrort/core';
import type { Node, Pool2DOptions, TfLiteContext } from '@micrort/core';
import { type OpDataBlock, allocateOpDataBlock, opDataBlock, shapeString } from './transpose-common.js';
import { computePaddingHeightWidth } from './conv-common.js';

/**
 * sizeof(OpDataPooling) in TFLM: TfLitePaddingValues {width, height, width_offset, height_offset},
 * int32 activation_min/max, float activation_min_f32/max_f32.
 */
export const OP_DATA_POOLING_BYTES = 32;

/** init of both pooling kernels: TFLM's OpDataPooling block. */
export function initPooling(context: TfLiteContext): OpDataBlock {
  return allocateOpDataBlock(context, OP_DATA_POOLING_BYTES);
}

/** Op data of the pooling kernels, computed in prepare. */
export interface PoolingOpData extends OpDataBlock {
  type: TensorType;
  batches: number;
  inHeight: number;
  inWidth: number;
  depth: number;
  outHeight: number;
  outWidth: number;
  strideHeight: number;
  strideWidth: number;
  filterHeight: number;
  filterWidth: number;
  padHeight: number;
  padWidth: number;
  /** Quantized activation range (int8/int16/uint8). */
  activationMin: number;
  activationMax: number;
  /** Float activation range (float32). */
  activationMinF: number;
  activationMaxF: number;
  /** Scratch buffer of the in-place variant (pooling-in-place.ts), or -1 when the node runs normally. */
  inPlaceScratch: number;
}

/** std::numeric_limits<float>::max(). */
export const FLT_MAX = 3.4028234663852886e38;

const SUPPORTED_ACTIVATIONS = new Set<number>([
  ActivationFunctionType.NONE,
  ActivationFunctionType.RELU,
  ActivationFunctionType.RELU6,
  ActivationFunctionType.RELU_N1_TO_1,
]);

/**
 * TFLM PoolingPrepare: validates a 2-D pooling node (NHWC float32/int8/int16, and uint8 as TFLite's
 * pooling.cc, output with the input's
 * batch and depth whose every window overlaps the input, same quantization on input and output) and
 * returns its op data. Padding comes from the options (ComputePaddingHeightWidth), the output height and
 * width from the output tensor, as in TFLM.
 */
export function preparePooling(op: string, context: TfLiteContext, node: Node): PoolingOpData {
  checkArity(op, node, 1, 1);
  const block = opDataBlock(op, node);
  const params = node.builtinData as Pool2DOptions | null;
  if (!params) throw new KernelError(op, node.index, 'missing Pool2DOptions');
  const input = getInput(context, node, 0, op);
  const output = getOutput(context, node, 0, op);
  if (input.dims.length !== 4) throw new KernelError(op, node.index, `input must be 4-D (NHWC), got shape ${shapeString(input.dims)}`);
  if (output.dims.length !== 4) throw new KernelError(op, node.index, `output must be 4-D (NHWC), got shape ${shapeString(output.dims)}`);
  const type = input.type;
  if (type !== TensorType.FLOAT32 && type !== TensorType.INT8 && type !== TensorType.INT16 && type !== TensorType.UINT8)
    throw new KernelError(op, node.index, `unsupported input type ${tensorTypeName(type)} (float32, int8, int16, uint8 are supported)`);
  if (output.type !== type)
    throw new KernelError(op, node.index, `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(type)}`);
  const { strideH: strideHeight, strideW: strideWidth, filterHeight, filterWidth } = params;
  if (!(strideHeight >= 1 && strideWidth >= 1))
    throw new KernelError(op, node.index, `strides must be >= 1, got stride_h ${strideHeight}, stride_w ${strideWidth}`);
  if (!(filterHeight >= 1 && filterWidth >= 1))
    throw new KernelError(op, node.index, `filter size must be >= 1, got ${filterHeight}x${filterWidth}`);
  if (params.padding !== Padding.SAME && params.padding !== Padding.VALID)
    throw new KernelError(op, node.index, `unsupported padding ${params.padding}`);
  if (!SUPPORTED_ACTIVATIONS.has(params.fusedActivationFunction))
    throw new KernelError(
      op,
      node.index,
      `unsupported fused activation ${ActivationFunctionType[params.fusedActivationFunction] ?? params.fusedActivationFunction}`,
    );

  const [batches, inHeight, inWidth, depth] = input.dims as unknown as [number, number, number, number];
  const pad = computePaddingHeightWidth(strideHeight, strideWidth, 1, 1, inHeight, inWidth, filterHeight, filterWidth, params.padding);
  if (output.dims[0] !== batches || output.dims[3] !== depth)
    throw new KernelError(
      op,
      node.index,
      `output shape ${shapeString(output.dims)} must keep the input's batch ${batches} and depth ${depth} (input ${shapeString(input.dims)})`,
    );
  // As in TFLM, the output height and width come from the output tensor (the padding from the options);
  // every window must overlap the input, where TFLM fails at eval.
  const outHeight = output.dims[1]!;
  const outWidth = output.dims[2]!;
  if (
    outHeight > 0 &&
    outWidth > 0 &&
    (filterHeight - pad.height <= 0 ||
      filterWidth - pad.width <= 0 ||
      (outHeight - 1) * strideHeight - pad.height >= inHeight ||
      (outWidth - 1) * strideWidth - pad.width >= inWidth)
  )
    throw new KernelError(
      op,
      node.index,
      `output ${outHeight}x${outWidth} with filter ${filterHeight}x${filterWidth}, stride ${strideHeight}x${strideWidth} and ` +
        `padding ${pad.height}x${pad.width} has a window entirely outside the ${inHeight}x${inWidth} input ` +
        `(the options give a ${pad.outHeight}x${pad.outWidth} output)`,
    );

  let activationMin = 0;
  let activationMax = 0;
  let activationMinF = Number.NEGATIVE_INFINITY;
  let activationMaxF = Number.POSITIVE_INFINITY;
  if (type === TensorType.FLOAT32) {
    // TFLM's CalculateActivationRange uses the float limits (not infinities) for an open side.
    const [lo, hi] = calculateActivationRangeFloat(params.fusedActivationFunction);
    activationMinF = Math.max(lo, -FLT_MAX);
    activationMaxF = Math.min(hi, FLT_MAX);
  } else {
    const scaleDiff = Math.abs(input.params.scale - output.params.scale);
    if (!(scaleDiff <= 1.0e-6))
      throw new KernelError(op, node.index, `input scale ${input.params.scale} and output scale ${output.params.scale} must be equal`);
    if (input.params.zeroPoint !== output.params.zeroPoint)
      throw new KernelError(
        op,
        node.index,
        `input zero point ${input.params.zeroPoint} and output zero point ${output.params.zeroPoint} must be equal`,
      );
    if (params.fusedActivationFunction !== ActivationFunctionType.NONE && !(output.params.scale > 0))
      throw new KernelError(op, node.index, `a fused activation needs a positive output scale, got ${output.params.scale}`);
    [activationMin, activationMax] = calculateActivationRangeQuantized(params.fusedActivationFunction, output);
  }
  block.setInt32(0, pad.width, true);
  block.setInt32(4, pad.height, true);
  block.setInt32(8, pad.widthOffset, true);
  block.setInt32(12, pad.heightOffset, true);
  block.setInt32(16, activationMin, true);
  block.setInt32(20, activationMax, true);
  block.setFloat32(24, activationMinF, true);
  block.setFloat32(28, activationMaxF, true);
  return {
    block,
    type,
    batches,
    inHeight,
    inWidth,
    depth,
    outHeight,
    outWidth,
    strideHeight,
    strideWidth,
    filterHeight,
    filterWidth,
    padHeight: pad.height,
    padWidth: pad.width,
    activationMin,
    activationMax,
    activationMinF,
    activationMaxF,
    inPlaceScratch: -1,
  };
}
