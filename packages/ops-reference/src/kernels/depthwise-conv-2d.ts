/**
 * DEPTHWISE_CONV_2D reference kernel (TFLM kernels/depthwise_conv.cc + depthwise_conv_common.cc): float32,
 * int8 per-channel (filter quantized along dimension 3; int8 or int4 weights, int4 unpacked once in
 * prepare), 16x8 (int16 activations, int8 weights, int64 bias), TFLite's legacy uint8 (asymmetric,
 * per-tensor; reference_ops::DepthwiseConv) and TFLite's hybrid kernel (float32 activations × int8
 * weights, conv-hybrid.ts), with depth multiplier, stride, dilation, SAME/VALID padding and fused
 * activation.
 *
 * Inputs: 0 input [N, H, W, Cin], 1 filter [1, KH, KW, Cin * depth_multiplier], 2 optional bias [Cout].
 * Output: [N, OH, OW, Cin * depth_multiplier].
 *
 * In-place variant (schedules `inplace`, `patch+inplace`; depth multiplier 1): declared by
 * `inPlaceVariant`, run channel by channel through a one-channel scratch buffer so the output can
 * overwrite the input's buffer (depthwise-conv-2d-in-place.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  type DepthwiseConv2DOptions,
  type InPlaceVariant,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  Int64Words,
  checkPaddingAndActivation,
  conv2dTensors,
  conv2dTypeProblem,
  emptyGeometry,
  finishConvGeometry,
  unpackedInt4Filter,
  type ConvFilterTypes,
  type ConvGeometry,
} from './conv-common.js';
import { evalHybridDepthwise, prepareHybridConv, type HybridConvPlan } from './conv-hybrid.js';
import { depthwiseConvFloat, depthwiseConvInt16, depthwiseConvInt8, depthwiseConvUint8 } from './depthwise-conv-2d-eval.js';
import { depthwiseInPlaceFloat, depthwiseInPlaceInt16, depthwiseInPlaceInt8, depthwiseInPlaceUint8 } from './depthwise-conv-2d-in-place.js';
import {
  type ConvOutputParams,
  emptyOutputParams,
  expectConvStrides,
  expectPositive,
  opData,
  prepareConvOutputStage,
} from '@micrort/kernel-support';

const OP = 'DEPTHWISE_CONV_2D';
/** Depthwise filters are quantized along dimension 3 (output channels). */
const DEPTHWISE_QUANTIZED_DIMENSION = 3;
/** Bias types of the 16x8 kernel: TFLM reads the bias as int64 only. */
const INT16_BIAS_TYPES: readonly TensorType[] = [TensorType.INT64];
/** Beyond the same-type pairs: TFLite's hybrid filter (int8) and int4 weights. */
const FILTERS: ConvFilterTypes = { hybrid: [TensorType.INT8], int4: true };

const enum DepthwiseKind {
  Float32 = 0,
  Int8 = 1,
  Int16 = 2,
  Uint8 = 3,
  /** float32 x int8 (TFLite's hybrid kernel). */
  Hybrid = 4,
}

/** Per-node data of DEPTHWISE_CONV_2D (TFLM's OpDataConv). */
interface DepthwiseOpData {
  kind: DepthwiseKind;
  geometry: ConvGeometry;
  out: ConvOutputParams;
  hasBias: boolean;
  bias64: Int64Words;
  /** Scratch buffer of the in-place variant (one output channel), or -1 when the node runs normally. */
  inPlaceScratch: number;
  /** int4 weights unpacked in prepare (read instead of the filter tensor), else null. */
  unpackedFilter: Int8Array | null;
  hybrid: HybridConvPlan | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<DepthwiseOpData>(OP, node);
  const params = node.builtinData as DepthwiseConv2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing DepthwiseConv2DOptions');
  const { input, filter, bias, output } = conv2dTensors(OP, context, node, FILTERS);
  expectConvStrides(OP, node, params);
  expectPositive(OP, node, 'depth_multiplier', params.depthMultiplier);
  checkPaddingAndActivation(OP, node, params.padding, params.fusedActivationFunction);

  const g = computeGeometry(node, params, input, filter, output);
  data.geometry = g;
  data.hasBias = bias !== null;
  if (input.type === TensorType.FLOAT32 && filter.type !== TensorType.FLOAT32) {
    data.kind = DepthwiseKind.Hybrid;
    data.hybrid = prepareHybridConv(OP, context, node, filter, bias, output, g, params.fusedActivationFunction, 'depthwise');
    return;
  }
  data.unpackedFilter = unpackedInt4Filter(OP, context, node, filter);

  prepareConvOutputStage(OP, context, node, input, filter, bias, output, g.outDepth, data.out, {
    quantizedDimension: DEPTHWISE_QUANTIZED_DIMENSION,
    int16BiasTypes: INT16_BIAS_TYPES,
    floatActivation: params.fusedActivationFunction,
    quantizedActivation: params.fusedActivationFunction,
  });
  data.kind =
    input.type === TensorType.FLOAT32
      ? DepthwiseKind.Float32
      : input.type === TensorType.INT8
        ? DepthwiseKind.Int8
        : input.type === TensorType.UINT8
          ? DepthwiseKind.Uint8
          : DepthwiseKind.Int16;
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
  if (filter.dims[0] !== 1)
    fail(`filter (tensor ${filter.index}) must have shape [1, KH, KW, Cout], got [${Array.from(filter.dims).join(', ')}]`);
  if (output.dims[0] !== g.batches) fail(`output batch ${output.dims[0]} differs from input batch ${g.batches}`);
  if (output.dims[3] !== g.outDepth) fail(`output has ${output.dims[3]} channels but filter (tensor ${filter.index}) has ${g.outDepth}`);
  if (g.inDepth * g.depthMultiplier !== g.outDepth) {
    fail(`output channels ${g.outDepth} != input channels ${g.inDepth} * depth_multiplier ${g.depthMultiplier}`);
  }
  finishConvGeometry(OP, node, g, output, params.padding);
  return g;
}

/**
 * The in-place variant (schedule `inplace`): depth multiplier 1, input and output of one element type
 * (float32, int8, int16, uint8), output no larger than the input. It needs one output channel of scratch.
 */
function inPlaceVariant(context: TfLiteContext, node: Node): InPlaceVariant | null {
  const params = node.builtinData as DepthwiseConv2DOptions | null;
  if (!params || params.depthMultiplier !== 1 || node.inputs.length < 2 || node.outputs.length !== 1) return null;
  if (node.inputs[0]! < 0 || node.outputs[0]! < 0) return null;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== output.type || !IN_PLACE_TYPES.has(input.type) || input.dims.length !== 4 || output.dims.length !== 4) return null;
  // Not for hybrid or int4 weights (their kernels quantize the whole input first).
  const filterType = node.inputs[1]! >= 0 ? context.getTensor(node.inputs[1]!).type : TensorType.INT4;
  if (filterType === TensorType.INT4 || (input.type === TensorType.FLOAT32 && filterType !== TensorType.FLOAT32)) return null;
  if (input.dims[3] !== output.dims[3] || output.byteLength > input.byteLength) return null;
  return { input: 0, scratchBytes: output.dims[1]! * output.dims[2]! * (elementSize(output.type) ?? 1) };
}

const IN_PLACE_TYPES = new Set<TensorType>([TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.UINT8]);

function useInPlaceVariant(context: TfLiteContext, node: Node): void {
  const v = inPlaceVariant(context, node);
  if (!v) throw new KernelError(OP, node.index, 'the in-place variant was granted to a node that does not declare it');
  opData<DepthwiseOpData>(OP, node).inPlaceScratch = context.requestScratchBufferInArena(v.scratchBytes);
}

function invokeInPlace(context: TfLiteContext, node: Node, data: DepthwiseOpData): void {
  const input = context.getEvalTensor(node.inputs[0]!);
  const filter = context.getEvalTensor(node.inputs[1]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const bias = data.hasBias ? context.getEvalTensor(node.inputs[2]!) : null;
  const scratch = context.getScratchBuffer(data.inPlaceScratch);
  switch (data.kind) {
    case DepthwiseKind.Float32:
      depthwiseInPlaceFloat(
        data.geometry,
        data.out,
        input.data as Float32Array,
        filter.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
        scratch.f32,
      );
      break;
    case DepthwiseKind.Int8:
      depthwiseInPlaceInt8(
        data.geometry,
        data.out,
        input.data as Int8Array,
        filter.data as Int8Array,
        bias === null ? null : (bias.data as Int32Array),
        output.data as Int8Array,
        scratch.i8,
      );
      break;
    case DepthwiseKind.Int16:
      depthwiseInPlaceInt16(
        data.geometry,
        data.out,
        input.data as Int16Array,
        filter.data as Int8Array,
        bias === null ? null : data.bias64.of(bias),
        output.data as Int16Array,
        scratch.i16,
      );
      break;
    case DepthwiseKind.Uint8:
      depthwiseInPlaceUint8(
        data.geometry,
        data.out,
        input.data as Uint8Array,
        filter.data as Uint8Array,
        bias === null ? null : (bias.data as Int32Array),
        output.data as Uint8Array,
        scratch.u8,
      );
      break;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<DepthwiseOpData>(OP, node);
  if (data.inPlaceScratch >= 0) {
    invokeInPlace(context, node, data);
    return;
  }
  const input = context.getEvalTensor(node.inputs[0]!);
  const filter = context.getEvalTensor(node.inputs[1]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const bias = data.hasBias ? context.getEvalTensor(node.inputs[2]!) : null;
  switch (data.kind) {
    case DepthwiseKind.Hybrid:
      evalHybridDepthwise(
        data.hybrid!,
        context,
        data.geometry,
        input.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
      );
      break;
    case DepthwiseKind.Float32:
      depthwiseConvFloat(
        data.geometry,
        data.out,
        input.data as Float32Array,
        filter.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
      );
      break;
    case DepthwiseKind.Int8:
      depthwiseConvInt8(
        data.geometry,
        data.out,
        input.data as Int8Array,
        data.unpackedFilter ?? (filter.data as Int8Array),
        bias === null ? null : (bias.data as Int32Array),
        output.data as Int8Array,
      );
      break;
    case DepthwiseKind.Int16:
      depthwiseConvInt16(
        data.geometry,
        data.out,
        input.data as Int16Array,
        filter.data as Int8Array,
        bias === null ? null : data.bias64.of(bias),
        output.data as Int16Array,
      );
      break;
    case DepthwiseKind.Uint8:
      depthwiseConvUint8(
        data.geometry,
        data.out,
        input.data as Uint8Array,
        filter.data as Uint8Array,
        bias === null ? null : (bias.data as Int32Array),
        output.data as Uint8Array,
      );
      break;
  }
}

/** DEPTHWISE_CONV_2D, versions 1-7. */
export const DEPTHWISE_CONV_2D: Registration = {
  builtinCode: BuiltinOperator.DEPTHWISE_CONV_2D,
  version: 7,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => conv2dTypeProblem(context, node, FILTERS) ?? true,
  init: (): DepthwiseOpData => ({
    kind: DepthwiseKind.Float32,
    geometry: emptyGeometry(),
    out: emptyOutputParams(),
    hasBias: false,
    bias64: new Int64Words(),
    inPlaceScratch: -1,
    unpackedFilter: null,
    hybrid: null,
  }),
  prepare,
  invoke,
  inPlaceVariant,
  useInPlaceVariant,
};
