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
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { StructPadding, checkFloat32Node, float32Supports } from './mediapipe-common.js';
import { opData, transposeConvBiasShape, type TransposeConvShape } from '@micrort/kernel-support';

const OP = 'Convolution2DTransposeBias';
const INPUT = 0;
const WEIGHTS = 1;
const BIAS = 2;

/** Shapes, strides and padding, computed in prepare (kernel-support's transposeConvBiasShape). */
type TransposeConvBiasData = TransposeConvShape;

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
  const g = transposeConvBiasShape(
    OP,
    node,
    context.getTensor(node.inputs[INPUT]!),
    context.getTensor(node.inputs[WEIGHTS]!),
    context.getTensor(node.inputs[BIAS]!),
    context.getTensor(node.outputs[0]!),
  );
  Object.assign(d, g);
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
