/**
 * DEPTHWISE_CONV_2D reference kernel (TFLM kernels/depthwise_conv.cc + depthwise_conv_common.cc): float32,
 * int8 per-channel (filter quantized along dimension 3) and 16x8 (int16 activations, int8 weights, int64
 * bias), with depth multiplier, stride, dilation, SAME/VALID padding and fused activation.
 *
 * Inputs: 0 input [N, H, W, Cin], 1 filter [1, KH, KW, Cin * depth_multiplier], 2 optional bias [Cout].
 * Output: [N, OH, OW, Cin * depth_multiplier].
 */
import {
  BuiltinOperator,
  KernelError,
  Padding,
  TensorType,
  checkArity,
  getInput,
  getOptionalInput,
  getOutput,
  tensorTypeName,
  type DepthwiseConv2DOptions,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  Int64Words,
  allocatePerChannelBuffers,
  checkBias,
  checkConvActivation,
  checkPositive,
  checkRank,
  checkSymmetricInt16,
  computePaddingHeightWidth,
  emptyGeometry,
  floatActivationRange,
  populateConvolutionQuantizationParams,
  type ConvGeometry,
  type ConvOutputParams,
} from './conv-common.js';
import { depthwiseConvFloat, depthwiseConvInt16, depthwiseConvInt8 } from './depthwise-conv-2d-eval.js';

const OP = 'DEPTHWISE_CONV_2D';
/** Depthwise filters are quantized along dimension 3 (output channels). */
const DEPTHWISE_QUANTIZED_DIMENSION = 3;

const enum DepthwiseKind {
  Float32 = 0,
  Int8 = 1,
  Int16 = 2,
}

/** Per-node data of DEPTHWISE_CONV_2D (TFLM's OpDataConv). */
interface DepthwiseOpData {
  kind: DepthwiseKind;
  geometry: ConvGeometry;
  out: ConvOutputParams;
  hasBias: boolean;
  bias64: Int64Words;
}

/** Why this kernel cannot serve the node's types, or null when it can. */
function unsupportedTypes(context: TfLiteContext, node: Node): string | null {
  if (node.inputs.length < 2 || node.outputs.length !== 1) return `expects 2 or 3 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0 || node.outputs[0]! < 0) return 'input, filter and output tensors are required';
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== output.type) return `input type ${tensorTypeName(input.type)} differs from output type ${tensorTypeName(output.type)}`;
  const ok =
    (input.type === TensorType.FLOAT32 && filter.type === TensorType.FLOAT32) ||
    (input.type === TensorType.INT8 && filter.type === TensorType.INT8) ||
    (input.type === TensorType.INT16 && filter.type === TensorType.INT8);
  if (!ok) return `unsupported input/filter types ${tensorTypeName(input.type)}/${tensorTypeName(filter.type)} (supported: float32/float32, int8/int8, int16/int8)`;
  return null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as DepthwiseOpData;
  const params = node.builtinData as DepthwiseConv2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing DepthwiseConv2DOptions');
  checkArity(OP, node, [2, 3], 1);
  const why = unsupportedTypes(context, node);
  if (why !== null) throw new KernelError(OP, node.index, why);

  const input = getInput(context, node, 0, OP);
  const filter = getInput(context, node, 1, OP);
  const bias = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, OP);
  checkRank(OP, node, 'input', input, 4);
  checkRank(OP, node, 'filter', filter, 4);
  checkRank(OP, node, 'output', output, 4);
  checkPositive(OP, node, 'stride_h', params.strideH);
  checkPositive(OP, node, 'stride_w', params.strideW);
  checkPositive(OP, node, 'dilation_h_factor', params.dilationHFactor);
  checkPositive(OP, node, 'dilation_w_factor', params.dilationWFactor);
  checkPositive(OP, node, 'depth_multiplier', params.depthMultiplier);
  if (params.padding !== Padding.SAME && params.padding !== Padding.VALID) throw new KernelError(OP, node.index, `unsupported padding ${params.padding}`);
  checkConvActivation(OP, node, params.fusedActivationFunction);

  const g = computeGeometry(node, params, input, filter, output);
  data.geometry = g;

  const buffers = allocatePerChannelBuffers(context, g.outDepth);
  const out = data.out;
  out.multiplier = buffers.multiplier;
  out.shift = buffers.shift;

  switch (input.type) {
    case TensorType.FLOAT32:
      checkBias(OP, node, bias, [TensorType.FLOAT32], g.outDepth, input.type);
      [out.actMin, out.actMax] = floatActivationRange(params.fusedActivationFunction);
      data.kind = DepthwiseKind.Float32;
      break;
    case TensorType.INT8:
      checkBias(OP, node, bias, [TensorType.INT32], g.outDepth, input.type);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        OP, node, input, filter, output, params.fusedActivationFunction, g.outDepth, DEPTHWISE_QUANTIZED_DIMENSION, buffers,
      );
      out.inputOffset = -input.params.zeroPoint;
      out.outputOffset = output.params.zeroPoint;
      data.kind = DepthwiseKind.Int8;
      break;
    default:
      // INT16 activations, INT8 weights: TFLM reads the bias as int64 only.
      checkBias(OP, node, bias, [TensorType.INT64], g.outDepth, input.type);
      checkSymmetricInt16(OP, node, 'input', input);
      checkSymmetricInt16(OP, node, 'output', output);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        OP, node, input, filter, output, params.fusedActivationFunction, g.outDepth, DEPTHWISE_QUANTIZED_DIMENSION, buffers,
      );
      out.inputOffset = 0;
      out.outputOffset = 0;
      data.kind = DepthwiseKind.Int16;
      break;
  }
  data.hasBias = bias !== null;
}

/** Shapes and padding; checks batch, channel and spatial sizes against the output tensor. */
function computeGeometry(node: Node, params: DepthwiseConv2DOptions, input: Tensor, filter: Tensor, output: Tensor): ConvGeometry {
  const fail = (detail: string): never => {
    throw new KernelError(OP, node.index, detail);
  };
  const g = emptyGeometry();
  g.batches = input.dims[0]!;
  g.inHeight = input.dims[1]!;
  g.inWidth = input.dims[2]!;
  g.inDepth = input.dims[3]!;
  g.filterHeight = filter.dims[1]!;
  g.filterWidth = filter.dims[2]!;
  g.filterDepth = filter.dims[3]!;
  g.outDepth = filter.dims[3]!;
  g.depthMultiplier = params.depthMultiplier;
  g.strideHeight = params.strideH;
  g.strideWidth = params.strideW;
  g.dilationHeight = params.dilationHFactor;
  g.dilationWidth = params.dilationWFactor;
  if (filter.dims[0] !== 1) fail(`filter (tensor ${filter.index}) must have shape [1, KH, KW, Cout], got [${Array.from(filter.dims).join(', ')}]`);
  if (output.dims[0] !== g.batches) fail(`output batch ${output.dims[0]} differs from input batch ${g.batches}`);
  if (output.dims[3] !== g.outDepth) fail(`output has ${output.dims[3]} channels but filter (tensor ${filter.index}) has ${g.outDepth}`);
  if (g.inDepth * g.depthMultiplier !== g.outDepth) {
    fail(`output channels ${g.outDepth} != input channels ${g.inDepth} * depth_multiplier ${g.depthMultiplier}`);
  }
  const pad = computePaddingHeightWidth(
    g.strideHeight, g.strideWidth, g.dilationHeight, g.dilationWidth, g.inHeight, g.inWidth, g.filterHeight, g.filterWidth, params.padding,
  );
  if (pad.outHeight !== output.dims[1] || pad.outWidth !== output.dims[2]) {
    fail(
      `output spatial size ${output.dims[1]}x${output.dims[2]} does not match ${pad.outHeight}x${pad.outWidth} computed from input ` +
        `${g.inHeight}x${g.inWidth}, filter ${g.filterHeight}x${g.filterWidth}, stride ${g.strideHeight}x${g.strideWidth}, ` +
        `dilation ${g.dilationHeight}x${g.dilationWidth}, padding ${Padding[params.padding]}`,
    );
  }
  g.outHeight = pad.outHeight;
  g.outWidth = pad.outWidth;
  g.padHeight = pad.height;
  g.padWidth = pad.width;
  return g;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as DepthwiseOpData;
  const input = context.getEvalTensor(node.inputs[0]!);
  const filter = context.getEvalTensor(node.inputs[1]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const bias = data.hasBias ? context.getEvalTensor(node.inputs[2]!) : null;
  switch (data.kind) {
    case DepthwiseKind.Float32:
      depthwiseConvFloat(data.geometry, data.out, input.data as Float32Array, filter.data as Float32Array, bias === null ? null : (bias.data as Float32Array), output.data as Float32Array);
      break;
    case DepthwiseKind.Int8:
      depthwiseConvInt8(data.geometry, data.out, input.data as Int8Array, filter.data as Int8Array, bias === null ? null : (bias.data as Int32Array), output.data as Int8Array);
      break;
    case DepthwiseKind.Int16:
      depthwiseConvInt16(data.geometry, data.out, input.data as Int16Array, filter.data as Int8Array, bias === null ? null : data.bias64.of(bias), output.data as Int16Array);
      break;
  }
}

const EMPTY_I32 = new Int32Array(0);

/** DEPTHWISE_CONV_2D, versions 1-7 (int4 filters and hybrid float/int8 are refused). */
export const DEPTHWISE_CONV_2D: Registration = {
  builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
  version: 7,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => unsupportedTypes(context, node) === null,
  init: (): DepthwiseOpData => ({
    kind: DepthwiseKind.Float32,
    geometry: emptyGeometry(),
    out: { multiplier: EMPTY_I32, shift: EMPTY_I32, inputOffset: 0, outputOffset: 0, actMin: 0, actMax: 0 },
    hasBias: false,
    bias64: new Int64Words(),
  }),
  prepare,
  invoke,
};
