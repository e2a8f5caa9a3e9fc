/**
 * The op data of AVERAGE_POOL_2D and MAX_POOL_2D (TFLM's kernels/pooling_common.cc PoolingPrepare /
 * CalculateOpDataPooling), shared by the reference, CMSIS-NN-style, WebAssembly and GPU kernels: the
 * node's checks, the padding from the options with the output size from the output tensor, and the
 * fused activation's range (float32 and quantized).
 */
import {
  ActivationFunctionType,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type Pool2DOptions,
  type TfLiteContext,
} from '@micrort/core';
import { activationRangeQuantized, calculateActivationRangeFloat, expectClampActivation } from './activation.js';
import { OptionError, QuantizationError, expectRank, expectSameType, expectType, shapeText } from './checks.js';
import { poolingPadding, type PaddingValues } from './padding.js';

/** TFLM's OpDataPooling and the NHWC geometry its eval reads. */
export interface OpDataPooling {
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
  /** TfLitePaddingValues (width, height and their offsets). */
  padding: PaddingValues;
  /** Quantized activation range (int8, int16, uint8; 0 for float32). */
  actMin: number;
  actMax: number;
  /** Float activation range (float32; TFLM's lowest()/max() for an open side). */
  actMinF: number;
  actMaxF: number;
}

/** An `OpDataPooling` before prepare (what a kernel's init returns before prepare assigns the calculator's result). */
export function emptyOpDataPooling(): OpDataPooling {
  return {
    type: TensorType.FLOAT32,
    batches: 0,
    inHeight: 0,
    inWidth: 0,
    depth: 0,
    outHeight: 0,
    outWidth: 0,
    strideHeight: 1,
    strideWidth: 1,
    filterHeight: 1,
    filterWidth: 1,
    padding: { width: 0, height: 0, widthOffset: 0, heightOffset: 0 },
    actMin: 0,
    actMax: 0,
    actMinF: 0,
    actMaxF: 0,
  };
}

/**
 * TFLM PoolingPrepare: a 2-D pooling node with one input and one output, NHWC of the same type (one of
 * `types`), Pool2DOptions with strides and filter sizes >= 1, SAME or VALID padding and a clamp
 * activation; the output keeps the input's batch and depth, its height and width come from the output
 * tensor (the padding from the options: `poolingPadding`, every window overlaps the input). Quantized
 * input and output must have the same scale (within 1e-6) and zero point: pooling does not rescale; a
 * fused activation needs a positive output scale.
 */
export function calculateOpDataPooling(op: string, context: TfLiteContext, node: Node, types: readonly TensorType[]): OpDataPooling {
  checkArity(op, node, 1, 1);
  const params = node.builtinData as Pool2DOptions | null;
  if (!params) throw new KernelError(op, node.index, 'missing Pool2DOptions');
  const input = getInput(context, node, 0, op);
  const output = getOutput(context, node, 0, op);
  expectRank(op, node, 'input', input, 4);
  expectRank(op, node, 'output', output, 4);
  expectType(op, node, 'input', input, types);
  expectSameType(op, node, 'input and output', input, output);
  const { strideH: strideHeight, strideW: strideWidth, filterHeight, filterWidth } = params;
  if (!(strideHeight >= 1 && strideWidth >= 1))
    throw new OptionError(
      op,
      node.index,
      strideHeight >= 1 ? 'stride_w' : 'stride_h',
      strideHeight >= 1 ? strideWidth : strideHeight,
      `strides must be >= 1, got stride_h ${strideHeight}, stride_w ${strideWidth}`,
    );
  if (!(filterHeight >= 1 && filterWidth >= 1))
    throw new OptionError(
      op,
      node.index,
      filterHeight >= 1 ? 'filter_width' : 'filter_height',
      filterHeight >= 1 ? filterWidth : filterHeight,
      `filter size must be >= 1, got ${filterHeight}x${filterWidth}`,
    );
  expectClampActivation(op, node, params.fusedActivationFunction);
  const [batches, inHeight, inWidth, depth] = input.dims as unknown as [number, number, number, number];
  if (output.dims[0] !== batches || output.dims[3] !== depth)
    throw new KernelError(
      op,
      node.index,
      `output shape ${shapeText(output.dims)} must keep the input's batch ${batches} and depth ${depth} (input ${shapeText(input.dims)})`,
    );
  const outHeight = output.dims[1]!;
  const outWidth = output.dims[2]!;
  const pad = poolingPadding(
    op,
    node,
    { inHeight, inWidth, filterHeight, filterWidth, strideHeight, strideWidth },
    params.padding,
    outHeight,
    outWidth,
  );
  let actMin = 0;
  let actMax = 0;
  let actMinF = 0;
  let actMaxF = 0;
  if (input.type === TensorType.FLOAT32) {
    [actMinF, actMaxF] = calculateActivationRangeFloat(params.fusedActivationFunction);
  } else {
    if (!(Math.abs(input.params.scale - output.params.scale) <= 1.0e-6))
      throw new QuantizationError(
        op,
        node.index,
        'output',
        output.index,
        `input scale ${input.params.scale} and output scale ${output.params.scale} must be equal`,
      );
    if (input.params.zeroPoint !== output.params.zeroPoint)
      throw new QuantizationError(
        op,
        node.index,
        'output',
        output.index,
        `input zero point ${input.params.zeroPoint} and output zero point ${output.params.zeroPoint} must be equal`,
      );
    if (params.fusedActivationFunction !== ActivationFunctionType.NONE && !(output.params.scale > 0))
      throw new QuantizationError(
        op,
        node.index,
        'output',
        output.index,
        `a fused activation needs a positive output scale, got ${output.params.scale}`,
      );
    [actMin, actMax] = activationRangeQuantized(op, node, params.fusedActivationFunction, output);
  }
  return {
    type: input.type,
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
    padding: { width: pad.width, height: pad.height, widthOffset: pad.widthOffset, heightOffset: pad.heightOffset },
    actMin,
    actMax,
    actMinF,
    actMaxF,
  };
}
