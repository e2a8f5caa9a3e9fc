/**
 * Padding and output geometry of the windowed ops (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, the
 * pools, MediaPipe's pooling and transposed convolution), as TFLite's `kernels/padding.h`
 * (ComputeOutSize, ComputePaddingWithOffset, ComputePaddingHeightWidth), which TFLM's reference and
 * CMSIS-NN kernels share. Integer division truncates toward zero as in C.
 */
import { KernelError, Padding, type Node, type Tensor } from '@micrort/core';
import { OptionError, TensorShapeError } from './checks.js';

/** C integer division of int32 values (truncates toward zero, never -0). */
function cdiv(a: number, b: number): number {
  return (a / b) | 0;
}

/** TfLitePaddingValues: the leading padding of each spatial dimension and the odd remainder of its total. */
export interface PaddingValues {
  width: number;
  height: number;
  widthOffset: number;
  heightOffset: number;
}

/** `computePaddingHeightWidth`'s result: the padding plus the output size it goes with. */
export interface PaddingAndOutputSize extends PaddingValues {
  outHeight: number;
  outWidth: number;
}

/** The effective size of a dilated filter: `(filter - 1) * dilation + 1`. */
export function effectiveFilterSize(filterSize: number, dilation: number): number {
  return (filterSize - 1) * dilation + 1;
}

/**
 * TFLite ComputeOutSize: the output size of one spatial dimension. SAME: ceil(image / stride); VALID:
 * (image + stride - effective_filter) / stride. 0 for stride 0 and for any other padding, as TFLite.
 */
export function computeOutSize(padding: Padding, imageSize: number, filterSize: number, stride: number, dilation = 1): number {
  if (stride === 0) return 0;
  switch (padding) {
    case Padding.SAME:
      return cdiv(imageSize + stride - 1, stride);
    case Padding.VALID:
      return cdiv(imageSize + stride - effectiveFilterSize(filterSize, dilation), stride);
    default:
      return 0;
  }
}

/**
 * TFLite ComputePaddingWithOffset: half of the total padding of one dimension (rounded down, never
 * negative) and the odd remainder that goes at the end.
 */
export function computePaddingWithOffset(
  stride: number,
  dilation: number,
  inSize: number,
  filterSize: number,
  outSize: number,
): { padding: number; offset: number } {
  let total = (outSize - 1) * stride + effectiveFilterSize(filterSize, dilation) - inSize;
  total = total > 0 ? total : 0;
  return { padding: cdiv(total, 2), offset: total % 2 };
}

/** TFLite ComputePadding: the leading padding only (`computePaddingWithOffset(...).padding`). */
export function computePadding(stride: number, dilation: number, inSize: number, filterSize: number, outSize: number): number {
  const total = (outSize - 1) * stride + effectiveFilterSize(filterSize, dilation) - inSize;
  return total > 0 ? cdiv(total, 2) : 0;
}

/** TFLite ComputePaddingHeightWidth: the output size from the options and the padding that goes with it. */
export function computePaddingHeightWidth(
  strideHeight: number,
  strideWidth: number,
  dilationHeight: number,
  dilationWidth: number,
  inHeight: number,
  inWidth: number,
  filterHeight: number,
  filterWidth: number,
  padding: Padding,
): PaddingAndOutputSize {
  const outWidth = computeOutSize(padding, inWidth, filterWidth, strideWidth, dilationWidth);
  const outHeight = computeOutSize(padding, inHeight, filterHeight, strideHeight, dilationHeight);
  const h = computePaddingWithOffset(strideHeight, dilationHeight, inHeight, filterHeight, outHeight);
  const w = computePaddingWithOffset(strideWidth, dilationWidth, inWidth, filterWidth, outWidth);
  return { height: h.padding, heightOffset: h.offset, width: w.padding, widthOffset: w.offset, outHeight, outWidth };
}

/** The spatial part of a 2-D window over an NHWC input. Dilations default to 1. */
export interface Window2D {
  inHeight: number;
  inWidth: number;
  filterHeight: number;
  filterWidth: number;
  strideHeight: number;
  strideWidth: number;
  dilationHeight?: number;
  dilationWidth?: number;
}

/** The strides and dilations of CONV_2D / DEPTHWISE_CONV_2D options (Conv2DOptions, DepthwiseConv2DOptions). */
export interface ConvStrides {
  strideH: number;
  strideW: number;
  dilationHFactor: number;
  dilationWFactor: number;
}

/**
 * The window of a CONV_2D / DEPTHWISE_CONV_2D node: the NHWC input's height and width (dims 1, 2), the
 * filter's (OHWI or 1HWO: dims 1, 2), and the options' strides and dilations.
 */
export function convWindow(input: Tensor, filter: Tensor, o: ConvStrides): Window2D {
  return {
    inHeight: input.dims[1]!,
    inWidth: input.dims[2]!,
    filterHeight: filter.dims[1]!,
    filterWidth: filter.dims[2]!,
    strideHeight: o.strideH,
    strideWidth: o.strideW,
    dilationHeight: o.dilationHFactor,
    dilationWidth: o.dilationWFactor,
  };
}

/** Throws an `OptionError` unless `padding` is SAME or VALID. */
export function expectKnownPadding(op: string, node: Node, padding: Padding): void {
  if (padding !== Padding.SAME && padding !== Padding.VALID)
    throw new OptionError(op, node.index, 'padding', padding, `unsupported padding ${padding}`);
}

/**
 * The padding and output size of a window, checked against the output tensor (NHWC, dims 1 and 2): throws
 * a `TensorShapeError` naming every number when the output's spatial size is not the one the options
 * give (TFLM's CONV_2D / DEPTHWISE_CONV_2D prepare), and an `OptionError` for a padding other than SAME
 * or VALID.
 */
export function expectWindowOutput(op: string, node: Node, w: Window2D, padding: Padding, output: Tensor): PaddingAndOutputSize {
  expectKnownPadding(op, node, padding);
  const dh = w.dilationHeight ?? 1;
  const dw = w.dilationWidth ?? 1;
  const pad = computePaddingHeightWidth(
    w.strideHeight,
    w.strideWidth,
    dh,
    dw,
    w.inHeight,
    w.inWidth,
    w.filterHeight,
    w.filterWidth,
    padding,
  );
  if (pad.outHeight !== output.dims[1] || pad.outWidth !== output.dims[2])
    throw new TensorShapeError(
      op,
      node.index,
      'output',
      output.index,
      Array.from(output.dims),
      `output (tensor ${output.index}) spatial size ${output.dims[1]}x${output.dims[2]} does not match ${pad.outHeight}x${pad.outWidth} computed from input ` +
        `${w.inHeight}x${w.inWidth}, filter ${w.filterHeight}x${w.filterWidth}, stride ${w.strideHeight}x${w.strideWidth}, ` +
        `dilation ${dh}x${dw}, padding ${Padding[padding]}`,
    );
  return pad;
}

/**
 * TFLM's pooling geometry (PoolingPrepare / CalculateOpDataPooling): the padding comes from the options,
 * the output height and width from the output tensor, and every window must overlap the input (TFLM
 * fails there at eval; micrort refuses the node in prepare with a `KernelError` naming the sizes).
 */
export function poolingPadding(
  op: string,
  node: Node,
  w: Window2D,
  padding: Padding,
  outHeight: number,
  outWidth: number,
): PaddingAndOutputSize {
  expectKnownPadding(op, node, padding);
  const pad = computePaddingHeightWidth(w.strideHeight, w.strideWidth, 1, 1, w.inHeight, w.inWidth, w.filterHeight, w.filterWidth, padding);
  if (
    outHeight > 0 &&
    outWidth > 0 &&
    (w.filterHeight - pad.height <= 0 ||
      w.filterWidth - pad.width <= 0 ||
      (outHeight - 1) * w.strideHeight - pad.height >= w.inHeight ||
      (outWidth - 1) * w.strideWidth - pad.width >= w.inWidth)
  )
    throw new KernelError(
      op,
      node.index,
      `output ${outHeight}x${outWidth} with filter ${w.filterHeight}x${w.filterWidth}, stride ${w.strideHeight}x${w.strideWidth} and ` +
        `padding ${pad.height}x${pad.width} has a window entirely outside the ${w.inHeight}x${w.inWidth} input ` +
        `(the options give a ${pad.outHeight}x${pad.outWidth} output)`,
    );
  return pad;
}
