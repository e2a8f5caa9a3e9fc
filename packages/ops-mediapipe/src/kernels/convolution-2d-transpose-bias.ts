/**
 * Convolution2DTransposeBias (MediaPipe mediapipe/util/tflite/operations/transpose_conv_bias.cc): a
 * transposed convolution with a bias input, float32 only.
 *
 * Inputs: 0 input [N, H, W, Cin], 1 weights [Cout, KH, KW, Cin] (OHWI), 2 bias [Cout].
 * Output: [N, OH, OW, Cout] with OH = stride_h * (H - 1) + KH - pad_total_h (likewise OW), where SAME
 * padding gives pad_total = max(0, K - (H - 1) % stride - 1) and VALID (or unknown) padding gives 0.
 * Options: a `TfLiteTransposeConvParams` struct as custom options bytes — int32 padding (1 SAME,
 * 2 VALID), stride_width, stride_height; trailing fields (activation, ...) are ignored, as MediaPipe does.
 *
 * Math as MediaPipe's loop: each output starts at its channel's bias, then every input element adds
 * `input * weight` to the outputs it reaches (order: batch, in_y, in_x, in_channel, filter_y, filter_x,
 * out_channel), every product and sum rounded to float32. The padding before the first output is
 * pad_total / 2 (floor).
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  StructPadding,
  checkAtLeast,
  checkFloat32Node,
  checkShape,
  float32Supports,
  paddingName,
  readStructFields,
} from './mediapipe-common.js';
import { shapeText } from '@micrort/kernel-support';
import { expectRank, opData } from '@micrort/kernel-support';

const OP = 'Convolution2DTransposeBias';
const INPUT = 0;
const WEIGHTS = 1;
const BIAS = 2;

/** Shapes, strides and padding, computed in prepare. */
interface TransposeConvBiasData {
  batches: number;
  inHeight: number;
  inWidth: number;
  inDepth: number;
  filterHeight: number;
  filterWidth: number;
  outHeight: number;
  outWidth: number;
  outDepth: number;
  strideHeight: number;
  strideWidth: number;
  padHeight: number;
  padWidth: number;
}

const supports = float32Supports(3, 1);

function init(): TransposeConvBiasData {
  return {
    batches: 0,
    inHeight: 0,
    inWidth: 0,
    inDepth: 0,
    filterHeight: 0,
    filterWidth: 0,
    outHeight: 0,
    outWidth: 0,
    outDepth: 0,
    strideHeight: 1,
    strideWidth: 1,
    padHeight: 0,
    padWidth: 0,
  };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<TransposeConvBiasData>(OP, node);
  checkFloat32Node(OP, context, node, 3, 1);
  const input = context.getTensor(node.inputs[INPUT]!);
  const weights = context.getTensor(node.inputs[WEIGHTS]!);
  const bias = context.getTensor(node.inputs[BIAS]!);
  const output = context.getTensor(node.outputs[0]!);
  expectRank(OP, node, 'input', input, 4);
  expectRank(OP, node, 'weights', weights, 4);
  expectRank(OP, node, 'bias', bias, 1);
  expectRank(OP, node, 'output', output, 4);
  if (weights.dims[0] !== bias.dims[0])
    throw new KernelError(
      OP,
      node.index,
      `weights (tensor ${weights.index}) have ${weights.dims[0]} output channels but bias (tensor ${bias.index}) has ${bias.dims[0]} values`,
    );
  if (input.dims[3] !== weights.dims[3])
    throw new KernelError(
      OP,
      node.index,
      `input (tensor ${input.index}) has ${input.dims[3]} channels but weights (tensor ${weights.index}) ${shapeText(weights.dims)} expect ${weights.dims[3]}`,
    );

  const params = readStructFields(OP, node, 'TfLiteTransposeConvParams', ['padding', 'stride_width', 'stride_height']);
  const padding = params[0]!;
  const strideWidth = params[1]!;
  const strideHeight = params[2]!;
  if (padding !== StructPadding.Same && padding !== StructPadding.Valid && padding !== StructPadding.Unknown)
    throw new KernelError(OP, node.index, `option padding is ${padding}, must be 1 (SAME) or 2 (VALID)`);
  checkAtLeast(OP, node, 'stride_width', strideWidth, 1);
  checkAtLeast(OP, node, 'stride_height', strideHeight, 1);

  d.batches = input.dims[0]!;
  d.inHeight = input.dims[1]!;
  d.inWidth = input.dims[2]!;
  d.inDepth = input.dims[3]!;
  d.outDepth = weights.dims[0]!;
  d.filterHeight = weights.dims[1]!;
  d.filterWidth = weights.dims[2]!;
  d.strideHeight = strideHeight;
  d.strideWidth = strideWidth;
  if (d.inHeight < 1 || d.inWidth < 1)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) has an empty spatial shape ${shapeText(input.dims)}`);
  let padTotalHeight = 0;
  let padTotalWidth = 0;
  if (padding === StructPadding.Same) {
    padTotalHeight = Math.max(0, d.filterHeight - ((d.inHeight - 1) % strideHeight) - 1);
    padTotalWidth = Math.max(0, d.filterWidth - ((d.inWidth - 1) % strideWidth) - 1);
  }
  d.outHeight = strideHeight * (d.inHeight - 1) + d.filterHeight - padTotalHeight;
  d.outWidth = strideWidth * (d.inWidth - 1) + d.filterWidth - padTotalWidth;
  d.padHeight = padTotalHeight >> 1;
  d.padWidth = padTotalWidth >> 1;
  try {
    checkShape(OP, node, 'output', output, [d.batches, d.outHeight, d.outWidth, d.outDepth]);
  } catch (e) {
    if (!(e instanceof KernelError)) throw e;
    throw new KernelError(
      OP,
      node.index,
      `${e.detail} (input ${shapeText(input.dims)}, ${d.filterHeight}x${d.filterWidth} filter, stride ${strideHeight}x${strideWidth}, ${paddingName(padding)} padding)`,
    );
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<TransposeConvBiasData>(OP, node);
  const input = context.getEvalTensor(node.inputs[INPUT]!).data as Float32Array;
  const weights = context.getEvalTensor(node.inputs[WEIGHTS]!).data as Float32Array;
  const bias = context.getEvalTensor(node.inputs[BIAS]!).data as Float32Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const {
    batches,
    inHeight,
    inWidth,
    inDepth,
    filterHeight,
    filterWidth,
    outHeight,
    outWidth,
    outDepth,
    strideHeight,
    strideWidth,
    padHeight,
    padWidth,
  } = d;
  // distance between the same tap of consecutive output channels in the [Cout, KH, KW, Cin] weights
  const channelStride = filterHeight * filterWidth * inDepth;
  const outBatch = outHeight * outWidth * outDepth;
  let inPos = 0;
  for (let b = 0; b < batches; b++) {
    const outBase = b * outBatch;
    for (let o = 0; o < outBatch; o += outDepth) for (let oc = 0; oc < outDepth; oc++) output[outBase + o + oc] = bias[oc]!;
    for (let iy = 0; iy < inHeight; iy++) {
      const outYOrigin = iy * strideHeight - padHeight;
      // filter rows whose output row lies inside the output
      const fy0 = outYOrigin < 0 ? -outYOrigin : 0;
      const fy1 = Math.min(filterHeight, outHeight - outYOrigin);
      for (let ix = 0; ix < inWidth; ix++) {
        const outXOrigin = ix * strideWidth - padWidth;
        const fx0 = outXOrigin < 0 ? -outXOrigin : 0;
        const fx1 = Math.min(filterWidth, outWidth - outXOrigin);
        for (let ic = 0; ic < inDepth; ic++, inPos++) {
          const x = input[inPos]!;
          for (let fy = fy0; fy < fy1; fy++) {
            const outRow = outBase + (outYOrigin + fy) * outWidth * outDepth;
            for (let fx = fx0; fx < fx1; fx++) {
              const o = outRow + (outXOrigin + fx) * outDepth;
              let w = (fy * filterWidth + fx) * inDepth + ic;
              for (let oc = 0; oc < outDepth; oc++, w += channelStride) output[o + oc] = output[o + oc]! + Math.fround(x * weights[w]!);
            }
          }
        }
      }
    }
  }
}

/** Convolution2DTransposeBias, version 1 (the only one MediaPipe registers). */
export const CONVOLUTION_2D_TRANSPOSE_BIAS: Registration<TransposeConvBiasData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports,
  init,
  prepare,
  invoke,
};

/**
 * The custom options bytes of a Convolution2DTransposeBias node: a `TfLiteTransposeConvParams` struct
 * (padding 1 = SAME or 2 = VALID, stride_width, stride_height), as MediaPipe's converter writes them.
 */
export function transposeConvBiasOptions(padding: 'SAME' | 'VALID', strideWidth: number, strideHeight: number): Uint8Array {
  const bytes = new Uint8Array(12);
  const view = new DataView(bytes.buffer);
  view.setInt32(0, padding === 'SAME' ? StructPadding.Same : StructPadding.Valid, true);
  view.setInt32(4, strideWidth, true);
  view.setInt32(8, strideHeight, true);
  return bytes;
}
