/**
 * The quantization half of TFLM's convolution op data (kernels/conv_common.cc CalculateOpDataConv,
 * depthwise_conv_common.cc, transpose_conv.cc), shared by every convolution kernel of every package:
 * TFLite's PopulateConvolutionQuantizationParams (kernels/kernel_util.cc) — per-channel multipliers
 * and shifts in two persistent arena arrays, the quantized activation range, the offsets — its legacy
 * uint8 branch, and the bias checks. The padding half is padding.ts.
 */
import {
  ActivationFunctionType,
  KernelError,
  TensorType,
  checkedQuantizeMultiplier,
  tensorTypeName,
  type Node,
  type QuantizedMultiplier,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { activationRangeQuantized, calculateActivationRangeFloat, expectClampActivation } from './activation.js';
import { QuantizationError, expectBias, expectPositive, expectRank, expectZeroPoint } from './checks.js';
import { convWindow, setWindowOutputShape, type ConvStrides } from './padding.js';
import type { Padding } from '@micrort/core';

/**
 * The two persistent int32 arrays TFLM allocates per convolution node (per-channel output multipliers and
 * shifts), each from its own `allocatePersistentBuffer` call as in ConvPrepare / DepthwiseConvPrepare /
 * TransposeConvPrepare.
 */
export interface PerChannelBuffers {
  multiplier: Int32Array;
  /** TFLM's convention: positive = left shift. */
  shift: Int32Array;
}

/** Allocates the per-channel multiplier and shift arrays (`numChannels` int32 each) in the arena tail. */
export function allocatePerChannelBuffers(context: TfLiteContext, numChannels: number): PerChannelBuffers {
  const bytes = numChannels * 4;
  const m = context.allocatePersistentBuffer(bytes);
  const s = context.allocatePersistentBuffer(bytes);
  return { multiplier: m.i32.subarray(0, numChannels), shift: s.i32.subarray(0, numChannels) };
}

/** Throws unless `t` has quantization parameters with a finite, positive scale. */
function expectScale(op: string, node: Node, what: string, t: Tensor): void {
  if (!t.quantization || t.quantization.scale.length === 0)
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}, ${tensorTypeName(t.type)}) has no quantization parameters`,
    );
  if (!(t.params.scale > 0) || !Number.isFinite(t.params.scale))
    throw new QuantizationError(
      op,
      node.index,
      what,
      t.index,
      `${what} (tensor ${t.index}) scale must be finite and > 0, got ${t.params.scale}`,
    );
}

/**
 * TFLite PopulateConvolutionQuantizationParams (per-axis and per-tensor): validates the quantization of
 * input, filter and output, fills `buffers` with QuantizeMultiplier(double(input_scale) *
 * double(filter_scale[c]) / double(output_scale)) for each of `numChannels` output channels (a single
 * filter scale serves every channel), and returns the quantized activation range of the output.
 *
 * Also enforces what the kernels assume: scales finite and > 0, filter zero points 0 (symmetric weights),
 * a per-channel filter quantized along `quantizedDimension` with exactly `numChannels` scales.
 */
export function populateConvolutionQuantizationParams(
  op: string,
  node: Node,
  input: Tensor,
  filter: Tensor,
  output: Tensor,
  activation: ActivationFunctionType,
  numChannels: number,
  quantizedDimension: number,
  buffers: PerChannelBuffers,
): [number, number] {
  const fail = (detail: string): never => {
    throw new QuantizationError(op, node.index, 'filter', filter.index, detail);
  };
  expectScale(op, node, 'input', input);
  expectScale(op, node, 'output', output);
  const fq = filter.quantization;
  if (!fq || fq.scale.length === 0) return fail(`filter (tensor ${filter.index}) has no quantization parameters`);
  const nScales = fq.scale.length;
  const perChannel = nScales > 1;
  if (perChannel) {
    if (nScales !== numChannels)
      fail(`filter (tensor ${filter.index}) has ${nScales} scales, expected 1 or ${numChannels} (one per output channel)`);
    if (fq.quantizedDimension !== quantizedDimension)
      fail(
        `filter (tensor ${filter.index}) is quantized along dimension ${fq.quantizedDimension}, expected ${quantizedDimension} (${nScales} scales, quantized_dimension ${fq.quantizedDimension})`,
      );
    if (filter.dims[quantizedDimension] !== numChannels)
      fail(
        `filter (tensor ${filter.index}) dimension ${quantizedDimension} is ${filter.dims[quantizedDimension]}, expected ${numChannels}`,
      );
  }
  if (fq.zeroPoint.length !== 0 && fq.zeroPoint.length !== 1 && fq.zeroPoint.length !== nScales)
    fail(`filter (tensor ${filter.index}) has ${fq.zeroPoint.length} zero points for ${nScales} scales`);
  for (let i = 0; i < fq.zeroPoint.length; i++)
    if (fq.zeroPoint[i] !== 0) fail(`filter (tensor ${filter.index}) zero point ${i} is ${fq.zeroPoint[i]}, must be 0 (symmetric weights)`);
  const inputScale = input.params.scale;
  const outputScale = output.params.scale;
  for (let c = 0; c < numChannels; c++) {
    const filterScale = perChannel ? fq.scale[c]! : fq.scale[0]!;
    if (!(filterScale > 0) || !Number.isFinite(filterScale))
      fail(`filter (tensor ${filter.index}) scale ${c} must be finite and > 0, got ${filterScale}`);
    // (double)input_scale * (double)filter_scale / (double)output_scale, as TFLite computes it
    const q = checkedQuantizeMultiplier(
      op,
      node,
      (inputScale * filterScale) / outputScale,
      `filter (tensor ${filter.index}) channel ${c} multiplier`,
    );
    buffers.multiplier[c] = q.multiplier;
    buffers.shift[c] = q.shift;
  }
  return activationRangeQuantized(op, node, activation, output);
}

/**
 * The scalar requantization of TFLite's legacy uint8 convolutions and FULLY_CONNECTED
 * (PopulateConvolutionQuantizationParams' uint8 branch with GetQuantizedConvolutionMultipler): input,
 * filter and output per-tensor quantized with finite positive scales; a bias must have scale input_scale *
 * filter_scale (within 1e-6 of the smaller, as TFLite checks); the multiplier is QuantizeMultiplier(
 * (double)(float)(input_scale * filter_scale) / output_scale) — the product rounded to float first, as
 * TFLite's C++ computes it. Any zero points (the weights are asymmetric). One multiplier for every channel.
 */
export function populateUint8ConvolutionParams(
  op: string,
  node: Node,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
): QuantizedMultiplier {
  for (const [what, t] of [
    ['input', input],
    ['filter', filter],
    ['output', output],
  ] as const) {
    expectScale(op, node, what, t);
    if (t.quantization!.scale.length !== 1)
      throw new QuantizationError(
        op,
        node.index,
        what,
        t.index,
        `${what} (tensor ${t.index}) is ${tensorTypeName(t.type)} with ${t.quantization!.scale.length} scales; uint8 kernels take per-tensor quantization only`,
      );
  }
  const productScale = Math.fround(input.params.scale * filter.params.scale); // TFLite: float * float
  if (bias) {
    const biasScale = bias.params.scale;
    if (!(Math.abs(productScale - biasScale) <= 1e-6 * Math.min(productScale, biasScale)))
      throw new QuantizationError(
        op,
        node.index,
        'bias',
        bias.index,
        `bias (tensor ${bias.index}) scale ${biasScale} must equal input scale * filter scale = ${productScale} (uint8 quantization)`,
      );
  }
  return checkedQuantizeMultiplier(op, node, productScale / output.params.scale, 'output multiplier');
}

/**
 * The output stage of a convolution (TFLM's OpDataConv / ConvParams quantized fields). Float kernels use
 * only `actMin` / `actMax` (float32 bounds).
 */
export interface ConvOutputParams {
  /** Per-channel multipliers (persistent arena region). */
  multiplier: Int32Array;
  /** Per-channel shifts, TFLM convention (positive = left). */
  shift: Int32Array;
  /** -input_zero_point (int8 and uint8). */
  inputOffset: number;
  /** -filter_zero_point (uint8 only: asymmetric uint8 weights; 0 otherwise). */
  filterOffset: number;
  /** output_zero_point (int8 and uint8). */
  outputOffset: number;
  actMin: number;
  actMax: number;
}

const EMPTY_I32 = new Int32Array(0);

/** Output-stage parameters before prepare: empty per-channel arrays, zero offsets and bounds. */
export function emptyOutputParams(): ConvOutputParams {
  return { multiplier: EMPTY_I32, shift: EMPTY_I32, inputOffset: 0, filterOffset: 0, outputOffset: 0, actMin: 0, actMax: 0 };
}

/** What differs between the convolution kernels in `prepareConvOutputStage`. */
export interface ConvOutputStageSpec {
  /** Filter dimension along which per-channel scales run (CONV_2D and TRANSPOSE_CONV 0, DEPTHWISE_CONV_2D 3). */
  quantizedDimension: number;
  /** Bias types accepted with int16 activations (float32 takes float32 bias, int8 and uint8 int32). */
  int16BiasTypes: readonly TensorType[];
  /** Fused activation applied to float32 outputs. */
  floatActivation: ActivationFunctionType;
  /** Activation whose range clamps quantized outputs (TRANSPOSE_CONV: NONE, as TFLM). */
  quantizedActivation: ActivationFunctionType;
}

const FLOAT32_BIAS: readonly TensorType[] = [TensorType.FLOAT32];
const INT32_BIAS: readonly TensorType[] = [TensorType.INT32];

/**
 * The output stage every convolution kernel prepares the same way (the quantization part of TFLM's
 * CalculateOpDataConv, as ConvPrepare / DepthwiseConvPrepare / TransposeConvPrepare run it): allocates
 * the per-channel multiplier and shift arrays (for every type, float included, as TFLM), checks the bias
 * type and size for the input type, and sets `out`: the float activation range for float32; for int8 and
 * int16 (zero points 0 required) the per-channel requantization (PopulateConvolutionQuantizationParams),
 * the quantized activation range and the input/output offsets; for uint8 TFLite's scalar requantization
 * in every channel and the filter offset. Returns the bias type, or null when the node has no bias.
 */
export function prepareConvOutputStage(
  op: string,
  context: TfLiteContext,
  node: Node,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  numChannels: number,
  out: ConvOutputParams,
  spec: ConvOutputStageSpec,
): TensorType | null {
  const buffers = allocatePerChannelBuffers(context, numChannels);
  out.multiplier = buffers.multiplier;
  out.shift = buffers.shift;
  switch (input.type) {
    case TensorType.FLOAT32: {
      const biasType = expectBias(op, node, bias, FLOAT32_BIAS, numChannels, input.type);
      expectClampActivation(op, node, spec.floatActivation);
      [out.actMin, out.actMax] = calculateActivationRangeFloat(spec.floatActivation);
      return biasType;
    }
    case TensorType.INT8: {
      const biasType = expectBias(op, node, bias, INT32_BIAS, numChannels, input.type);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        op,
        node,
        input,
        filter,
        output,
        spec.quantizedActivation,
        numChannels,
        spec.quantizedDimension,
        buffers,
      );
      out.inputOffset = -input.params.zeroPoint;
      out.filterOffset = 0;
      out.outputOffset = output.params.zeroPoint;
      return biasType;
    }
    case TensorType.UINT8: {
      const biasType = expectBias(op, node, bias, INT32_BIAS, numChannels, input.type);
      const q = populateUint8ConvolutionParams(op, node, input, filter, bias, output);
      buffers.multiplier.fill(q.multiplier);
      buffers.shift.fill(q.shift);
      [out.actMin, out.actMax] = activationRangeQuantized(op, node, spec.quantizedActivation, output);
      out.inputOffset = -input.params.zeroPoint;
      out.filterOffset = -filter.params.zeroPoint;
      out.outputOffset = output.params.zeroPoint;
      return biasType;
    }
    case TensorType.INT16: {
      // int16 activations, int8 weights (16x8)
      const biasType = expectBias(op, node, bias, spec.int16BiasTypes, numChannels, input.type);
      expectZeroPoint(op, node, 'input', input, 0);
      expectZeroPoint(op, node, 'output', output, 0);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        op,
        node,
        input,
        filter,
        output,
        spec.quantizedActivation,
        numChannels,
        spec.quantizedDimension,
        buffers,
      );
      out.inputOffset = 0;
      out.filterOffset = 0;
      out.outputOffset = 0;
      return biasType;
    }
    default:
      throw new KernelError(op, node.index, `unsupported input type ${tensorTypeName(input.type)}`);
  }
}

/** The tensors of a convolution node. */
export interface ConvTensors {
  input: Tensor;
  filter: Tensor;
  bias: Tensor | null;
  output: Tensor;
}

/** Throws unless input, filter and output all have rank 4 (NHWC, OHWI / 1HWO, NHWC). */
export function expectConvRanks(op: string, node: Node, t: { input: Tensor; filter: Tensor; output: Tensor }): void {
  expectRank(op, node, 'input', t.input, 4);
  expectRank(op, node, 'filter', t.filter, 4);
  expectRank(op, node, 'output', t.output, 4);
}

/**
 * CONV_2D / DEPTHWISE_CONV_2D prepare in kernels that size their work from the output: checks that input and
 * filter have rank 4 and the strides (`expectConvStrides`), then sets output 0 to
 * [batches, outHeight, outWidth, `channels`] computed from them (`setWindowOutputShape`, as TFLite's and
 * ops-reference's prepare: a stored output shape is a hint, so an output stored without a shape, or with
 * batch 1 after the input was resized to another batch, gets the computed one). Returns the output tensor.
 */
export function setConvOutputShape(
  op: string,
  context: TfLiteContext,
  node: Node,
  t: { input: Tensor; filter: Tensor },
  o: ConvStrides & { padding: Padding },
  channels: number,
): Tensor {
  expectRank(op, node, 'input', t.input, 4);
  expectRank(op, node, 'filter', t.filter, 4);
  expectConvStrides(op, node, o);
  setWindowOutputShape(op, context, node, convWindow(t.input, t.filter, o), o.padding, t.input.dims[0]!, channels);
  return context.getTensor(node.outputs[0]!);
}

/** Throws an `OptionError` unless the strides and dilation factors of CONV_2D / DEPTHWISE_CONV_2D options are integers >= 1. */
export function expectConvStrides(op: string, node: Node, o: ConvStrides): void {
  expectPositive(op, node, 'stride_h', o.strideH);
  expectPositive(op, node, 'stride_w', o.strideW);
  expectPositive(op, node, 'dilation_h_factor', o.dilationHFactor);
  expectPositive(op, node, 'dilation_w_factor', o.dilationWFactor);
}

/**
 * `prepareConvOutputStage` for a kernel that takes int8 activations and weights only (the CMSIS-NN-style
 * and WebAssembly convolutions): int32 bias, `activation` clamping the output; returns the stage.
 */
export function int8ConvOutputStage(
  op: string,
  context: TfLiteContext,
  node: Node,
  t: ConvTensors,
  numChannels: number,
  quantizedDimension: number,
  activation: ActivationFunctionType,
): ConvOutputParams {
  const out = emptyOutputParams();
  prepareConvOutputStage(op, context, node, t.input, t.filter, t.bias, t.output, numChannels, out, {
    quantizedDimension,
    int16BiasTypes: INT32_BIAS,
    floatActivation: activation,
    quantizedActivation: activation,
  });
  return out;
}
