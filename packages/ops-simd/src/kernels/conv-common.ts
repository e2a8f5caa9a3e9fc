/**
 * Prepare-time helpers shared by the ops-simd kernels: TFLite padding (tensorflow/lite/kernels/padding.h),
 * per-channel requantization (PopulateConvolutionQuantizationParams), the per-tensor FULLY_CONNECTED
 * multiplier (GetQuantizedConvolutionMultipler) and validation helpers that throw `KernelError`s naming the
 * offending tensor and values.
 */
import {
  ActivationFunctionType,
  KernelError,
  Padding,
  TensorType,
  calculateActivationRangeQuantized,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';

/** C integer division (truncates toward zero). */
export function cdiv(a: number, b: number): number {
  return Math.trunc(a / b);
}

/** TFLite ComputeOutSize. */
export function computeOutSize(padding: Padding, image: number, filter: number, stride: number, dilation: number): number {
  const effective = (filter - 1) * dilation + 1;
  if (stride === 0) return 0;
  return padding === Padding.SAME ? cdiv(image + stride - 1, stride) : cdiv(image + stride - effective, stride);
}

/** TFLite ComputePaddingWithOffset: leading padding (half of the total, rounded down). */
export function computePadding(stride: number, dilation: number, inSize: number, filter: number, outSize: number): number {
  const effective = (filter - 1) * dilation + 1;
  const total = (outSize - 1) * stride + effective - inSize;
  return total > 0 ? cdiv(total, 2) : 0;
}

/** Spatial geometry of a windowed op, checked against the output tensor. */
export interface WindowGeometry {
  outH: number;
  outW: number;
  padH: number;
  padW: number;
}

/**
 * Output size and leading padding for `padding`, throwing when the output tensor's spatial size differs
 * from the one the options imply.
 */
export function windowGeometry(
  op: string,
  node: Node,
  padding: Padding,
  inH: number,
  inW: number,
  kH: number,
  kW: number,
  strideH: number,
  strideW: number,
  dilH: number,
  dilW: number,
  output: Tensor,
): WindowGeometry {
  if (padding !== Padding.SAME && padding !== Padding.VALID) throw new KernelError(op, node.index, `unsupported padding ${padding}`);
  const outH = computeOutSize(padding, inH, kH, strideH, dilH);
  const outW = computeOutSize(padding, inW, kW, strideW, dilW);
  if (output.dims[1] !== outH || output.dims[2] !== outW) {
    throw new KernelError(
      op,
      node.index,
      `output (tensor ${output.index}) is ${output.dims[1]}x${output.dims[2]} but input ${inH}x${inW}, window ${kH}x${kW}, ` +
        `stride ${strideH}x${strideW}, dilation ${dilH}x${dilW}, ${Padding[padding]} padding give ${outH}x${outW}`,
    );
  }
  return { outH, outW, padH: computePadding(strideH, dilH, inH, kH, outH), padW: computePadding(strideW, dilW, inW, kW, outW) };
}

/** Throws unless `t` is of `type`. */
export function expectType(op: string, node: Node, what: string, t: Tensor, type: TensorType): void {
  if (t.type !== type)
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must be ${tensorTypeName(type)}, got ${tensorTypeName(t.type)}`);
}

/** Throws unless `t` has rank `rank`. */
export function expectRank(op: string, node: Node, what: string, t: Tensor, rank: number): void {
  if (t.dims.length !== rank) {
    throw new KernelError(
      op,
      node.index,
      `${what} (tensor ${t.index}) must have rank ${rank}, got shape [${Array.from(t.dims).join(', ')}]`,
    );
  }
}

/** Throws unless `value` is an integer >= 1. */
export function expectPositive(op: string, node: Node, name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new KernelError(op, node.index, `${name} must be an integer >= 1, got ${value}`);
}

/** Throws unless `t` carries a positive, finite per-tensor scale. */
export function expectQuantized(op: string, node: Node, what: string, t: Tensor): void {
  if (!t.quantization || t.quantization.scale.length === 0 || !(t.params.scale > 0 && t.params.scale < Infinity)) {
    throw new KernelError(op, node.index, `${what} (tensor ${t.index}) must be quantized with a positive finite scale`);
  }
}

/** Fused activations the kernels accept, as TFLM. */
export function quantizedActivationRange(op: string, node: Node, activation: ActivationFunctionType, output: Tensor): [number, number] {
  if (
    activation !== ActivationFunctionType.NONE &&
    activation !== ActivationFunctionType.RELU &&
    activation !== ActivationFunctionType.RELU6 &&
    activation !== ActivationFunctionType.RELU_N1_TO_1
  ) {
    throw new KernelError(op, node.index, `unsupported fused activation ${ActivationFunctionType[activation] ?? activation}`);
  }
  return calculateActivationRangeQuantized(activation, output);
}

/** Checks an optional int32 bias of `channels` elements. */
export function expectBias(op: string, node: Node, bias: Tensor | null, channels: number): void {
  if (bias === null) return;
  expectType(op, node, 'bias', bias, TensorType.INT32);
  if (bias.elementCount !== channels) {
    throw new KernelError(op, node.index, `bias (tensor ${bias.index}) has ${bias.elementCount} elements, expected ${channels}`);
  }
}

/**
 * Allocates the per-channel multiplier and shift arrays in the arena tail (two persistent buffers, as
 * TFLM's ConvPrepare) and fills them as PopulateConvolutionQuantizationParams does:
 * `double(input scale) * double(filter scale[c]) / double(output scale)` through QuantizeMultiplier.
 * A per-tensor filter scale is broadcast to every channel.
 */
export function perChannelQuantization(
  op: string,
  node: Node,
  context: TfLiteContext,
  input: Tensor,
  filter: Tensor,
  output: Tensor,
  channels: number,
  quantizedDimension: number,
): { multiplier: Int32Array; shift: Int32Array } {
  const q = filter.quantization;
  if (!q || q.scale.length === 0) throw new KernelError(op, node.index, `filter (tensor ${filter.index}) is not quantized`);
  if (q.scale.length !== 1 && q.scale.length !== channels) {
    throw new KernelError(op, node.index, `filter (tensor ${filter.index}) has ${q.scale.length} scales, expected 1 or ${channels}`);
  }
  if (q.scale.length > 1 && q.quantizedDimension !== quantizedDimension) {
    throw new KernelError(
      op,
      node.index,
      `filter (tensor ${filter.index}) is quantized along dimension ${q.quantizedDimension}, expected ${quantizedDimension}`,
    );
  }
  const multiplier = context.allocatePersistentBuffer(channels * 4).i32.subarray(0, channels);
  const shift = context.allocatePersistentBuffer(channels * 4).i32.subarray(0, channels);
  const inScale = input.params.scale;
  const outScale = output.params.scale;
  for (let c = 0; c < channels; c++) {
    const fs = q.scale.length > 1 ? q.scale[c]! : q.scale[0]!;
    const qm = checkedQuantizeMultiplier(op, node, (inScale * fs) / outScale, `filter (tensor ${filter.index}) channel ${c} multiplier`);
    multiplier[c] = qm.multiplier;
    shift[c] = qm.shift;
  }
  return { multiplier, shift };
}

/**
 * GetQuantizedConvolutionMultipler (per tensor): `double(float(input scale * filter scale)) / double(output
 * scale)`; note the float product, as in TFLM.
 */
export function perTensorMultiplier(input: Tensor, filter: Tensor, output: Tensor): number {
  return Math.fround(input.params.scale * filter.params.scale) / output.params.scale;
}
