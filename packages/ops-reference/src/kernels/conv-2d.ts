/**
 * CONV_2D reference kernel (TFLM kernels/conv.cc + conv_common.cc): float32, int8 per-channel and 16x8
 * (int16 activations, int8 weights, int32 or int64 bias), with stride, dilation, SAME/VALID padding, fused
 * activation and grouped convolution (filter input depth dividing the input depth).
 *
 * Inputs: 0 input [N, H, W, Cin], 1 filter [Cout, KH, KW, Cin / groups], 2 optional bias [Cout].
 * Output: [N, OH, OW, Cout].
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
  type Conv2DOptions,
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
import { convFloat, convInt16, convInt8 } from './conv-2d-eval.js';

const OP = 'CONV_2D';
/** CONV_2D filters are quantized along dimension 0 (output channels). */
const CONV_QUANTIZED_DIMENSION = 0;

/** Which inner loop a node runs. */
const enum ConvKind {
  Float32 = 0,
  Int8 = 1,
  /** int16 x int8, int32 bias or none: int32 accumulator (TFLM's AccumScalar = int32_t). */
  Int16 = 2,
  /** int16 x int8, int64 bias: int64 accumulator. */
  Int16Wide = 3,
}

/** Per-node data of CONV_2D (TFLM's OpDataConv). */
interface Conv2DOpData {
  kind: ConvKind;
  geometry: ConvGeometry;
  out: ConvOutputParams;
  hasBias: boolean;
  bias64: Int64Words;
}

/**
 * Why this kernel cannot serve the node's type combination, or null when it can. Checks input, filter,
 * output (and bias) element types only; prepare validates the rest.
 */
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
  const data = node.userData as Conv2DOpData;
  const params = node.builtinData as Conv2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
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
  if (params.padding !== Padding.SAME && params.padding !== Padding.VALID) throw new KernelError(OP, node.index, `unsupported padding ${params.padding}`);
  checkConvActivation(OP, node, params.fusedActivationFunction);

  const g = computeGeometry(node, params, input, filter, output);
  data.geometry = g;

  // TFLM allocates these for every type, float included.
  const buffers = allocatePerChannelBuffers(context, g.outDepth);
  const out = data.out;
  out.multiplier = buffers.multiplier;
  out.shift = buffers.shift;

  switch (input.type) {
    case TensorType.FLOAT32: {
      checkBias(OP, node, bias, [TensorType.FLOAT32], g.outDepth, input.type);
      [out.actMin, out.actMax] = floatActivationRange(params.fusedActivationFunction);
      data.kind = ConvKind.Float32;
      break;
    }
    case TensorType.INT8: {
      checkBias(OP, node, bias, [TensorType.INT32], g.outDepth, input.type);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        OP, node, input, filter, output, params.fusedActivationFunction, g.outDepth, CONV_QUANTIZED_DIMENSION, buffers,
      );
      out.inputOffset = -input.params.zeroPoint;
      out.outputOffset = output.params.zeroPoint;
      data.kind = ConvKind.Int8;
      break;
    }
    default: {
      // INT16 activations, INT8 weights
      const biasType = checkBias(OP, node, bias, [TensorType.INT32, TensorType.INT64], g.outDepth, input.type);
      checkSymmetricInt16(OP, node, 'input', input);
      checkSymmetricInt16(OP, node, 'output', output);
      [out.actMin, out.actMax] = populateConvolutionQuantizationParams(
        OP, node, input, filter, output, params.fusedActivationFunction, g.outDepth, CONV_QUANTIZED_DIMENSION, buffers,
      );
      out.inputOffset = 0;
      out.outputOffset = 0;
      data.kind = biasType === TensorType.INT64 ? ConvKind.Int16Wide : ConvKind.Int16;
      break;
    }
  }
  data.hasBias = bias !== null;
}

/** Shapes and padding; checks batch, channel and spatial sizes against the output tensor. */
function computeGeometry(node: Node, params: Conv2DOptions, input: Tensor, filter: Tensor, output: Tensor): ConvGeometry {
  const g = emptyGeometry();
  g.batches = input.dims[0]!;
  g.inHeight = input.dims[1]!;
  g.inWidth = input.dims[2]!;
  g.inDepth = input.dims[3]!;
  g.outDepth = filter.dims[0]!;
  g.filterHeight = filter.dims[1]!;
  g.filterWidth = filter.dims[2]!;
  g.filterDepth = filter.dims[3]!;
  g.strideHeight = params.strideH;
  g.strideWidth = params.strideW;
  g.dilationHeight = params.dilationHFactor;
  g.dilationWidth = params.dilationWFactor;
  const fail = (detail: string): never => {
    throw new KernelError(OP, node.index, detail);
  };
  if (output.dims[0] !== g.batches) fail(`output batch ${output.dims[0]} differs from input batch ${g.batches}`);
  if (output.dims[3] !== g.outDepth) fail(`output has ${output.dims[3]} channels but filter (tensor ${filter.index}) has ${g.outDepth} output channels`);
  if (g.filterDepth < 1 || g.inDepth % g.filterDepth !== 0) {
    fail(`input depth ${g.inDepth} is not a multiple of the filter input depth ${g.filterDepth}`);
  }
  const groups = g.inDepth / g.filterDepth;
  if (g.outDepth % groups !== 0) fail(`output channels ${g.outDepth} are not divisible into ${groups} groups`);
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
  const data = node.userData as Conv2DOpData;
  const input = context.getEvalTensor(node.inputs[0]!);
  const filter = context.getEvalTensor(node.inputs[1]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const bias = data.hasBias ? context.getEvalTensor(node.inputs[2]!) : null;
  switch (data.kind) {
    case ConvKind.Float32:
      convFloat(data.geometry, data.out, input.data as Float32Array, filter.data as Float32Array, bias === null ? null : (bias.data as Float32Array), output.data as Float32Array);
      break;
    case ConvKind.Int8:
      convInt8(data.geometry, data.out, input.data as Int8Array, filter.data as Int8Array, bias === null ? null : (bias.data as Int32Array), output.data as Int8Array);
      break;
    case ConvKind.Int16:
      convInt16(data.geometry, data.out, input.data as Int16Array, filter.data as Int8Array, bias === null ? null : (bias.data as Int32Array), null, output.data as Int16Array);
      break;
    case ConvKind.Int16Wide:
      convInt16(data.geometry, data.out, input.data as Int16Array, filter.data as Int8Array, null, data.bias64.of(bias!), output.data as Int16Array);
      break;
  }
}

const EMPTY_I32 = new Int32Array(0);

/** CONV_2D, versions 1-8 (int4 filters and hybrid float/int8 are refused). */
export const CONV_2D: Registration = {
  builtinCode: BuiltinOperator.CONV_2D,
  version: 8,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => unsupportedTypes(context, node) === null,
  init: (): Conv2DOpData => ({
    kind: ConvKind.Float32,
    geometry: emptyGeometry(),
    out: { multiplier: EMPTY_I32, shift: EMPTY_I32, inputOffset: 0, outputOffset: 0, actMin: 0, actMax: 0 },
    hasBias: false,
    bias64: new Int64Words(),
  }),
  prepare,
  invoke,
};
