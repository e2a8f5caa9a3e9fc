/**
 * CONV_2D reference kernel (TFLM kernels/conv.cc + conv_common.cc): float32, int8 per-channel (int8 or
 * int4 weights, int4 unpacked once in prepare), 16x8 (int16 activations, int8 weights, int32 or int64
 * bias), TFLite's legacy uint8 (asymmetric uint8 weights and activations, per-tensor, TFLite
 * kernels/conv.cc + reference_ops::Conv) and TFLite's hybrid kernel (float32 activations × int8, uint8 or
 * int4 weights, conv-hybrid.ts), with stride, dilation, SAME/VALID padding, fused activation and grouped
 * convolution (filter input depth dividing the input depth).
 *
 * Inputs: 0 input [N, H, W, Cin], 1 filter [Cout, KH, KW, Cin / groups], 2 optional bias [Cout].
 * Output: [N, OH, OW, Cout].
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  type Conv2DOptions,
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
import { convFloat, convInt16, convInt8, convUint8 } from './conv-2d-eval.js';
import { evalHybridConv2d, prepareHybridConv, type HybridConvPlan } from './conv-hybrid.js';
import { type ConvOutputParams, emptyOutputParams, expectConvStrides, opData, prepareConvOutputStage } from '@micrort/kernel-support';

const OP = 'CONV_2D';
/** CONV_2D filters are quantized along dimension 0 (output channels). */
const CONV_QUANTIZED_DIMENSION = 0;
/** Bias types of the 16x8 kernel. */
const INT16_BIAS_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64];
/** Beyond the same-type pairs: TFLite's hybrid filters and int4 weights. */
const FILTERS: ConvFilterTypes = { hybrid: [TensorType.INT8, TensorType.UINT8, TensorType.INT4], int4: true };

/** Which inner loop a node runs. */
const enum ConvKind {
  Float32 = 0,
  Int8 = 1,
  /** int16 x int8, int32 bias or none: int32 accumulator (TFLM's AccumScalar = int32_t). */
  Int16 = 2,
  /** int16 x int8, int64 bias: int64 accumulator. */
  Int16Wide = 3,
  /** uint8 x uint8 (TFLite only): asymmetric weights, one multiplier. */
  Uint8 = 4,
  /** float32 x int8/uint8/int4 (TFLite's hybrid kernel). */
  Hybrid = 5,
}

/** Per-node data of CONV_2D (TFLM's OpDataConv). */
interface Conv2DOpData {
  kind: ConvKind;
  geometry: ConvGeometry;
  out: ConvOutputParams;
  hasBias: boolean;
  bias64: Int64Words;
  /** int4 weights unpacked in prepare (read instead of the filter tensor), else null. */
  unpackedFilter: Int8Array | null;
  hybrid: HybridConvPlan | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<Conv2DOpData>(OP, node);
  const params = node.builtinData as Conv2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing Conv2DOptions');
  const { input, filter, bias, output } = conv2dTensors(OP, context, node, FILTERS);
  expectConvStrides(OP, node, params);
  checkPaddingAndActivation(OP, node, params.padding, params.fusedActivationFunction);

  const g = computeGeometry(node, params, input, filter, output);
  data.geometry = g;
  data.hasBias = bias !== null;
  if (input.type === TensorType.FLOAT32 && filter.type !== TensorType.FLOAT32) {
    data.kind = ConvKind.Hybrid;
    data.hybrid = prepareHybridConv(OP, context, node, filter, bias, output, g, params.fusedActivationFunction, 'conv');
    return;
  }
  data.unpackedFilter = unpackedInt4Filter(OP, context, node, filter);

  const biasType = prepareConvOutputStage(OP, context, node, input, filter, bias, output, g.outDepth, data.out, {
    quantizedDimension: CONV_QUANTIZED_DIMENSION,
    int16BiasTypes: INT16_BIAS_TYPES,
    floatActivation: params.fusedActivationFunction,
    quantizedActivation: params.fusedActivationFunction,
  });
  switch (input.type) {
    case TensorType.FLOAT32:
      data.kind = ConvKind.Float32;
      break;
    case TensorType.INT8:
      data.kind = ConvKind.Int8;
      break;
    case TensorType.UINT8:
      data.kind = ConvKind.Uint8;
      break;
    default:
      // int16 x int8: an int64 bias needs the int64 accumulator.
      data.kind = biasType === TensorType.INT64 ? ConvKind.Int16Wide : ConvKind.Int16;
  }
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
  if (output.dims[3] !== g.outDepth)
    fail(`output has ${output.dims[3]} channels but filter (tensor ${filter.index}) has ${g.outDepth} output channels`);
  if (g.filterDepth < 1 || g.inDepth % g.filterDepth !== 0) {
    fail(`input depth ${g.inDepth} is not a multiple of the filter input depth ${g.filterDepth}`);
  }
  const groups = g.inDepth / g.filterDepth;
  if (g.outDepth % groups !== 0) fail(`output channels ${g.outDepth} are not divisible into ${groups} groups`);
  finishConvGeometry(OP, node, g, output, params.padding);
  return g;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<Conv2DOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!);
  const filter = context.getEvalTensor(node.inputs[1]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const bias = data.hasBias ? context.getEvalTensor(node.inputs[2]!) : null;
  switch (data.kind) {
    case ConvKind.Hybrid:
      evalHybridConv2d(
        data.hybrid!,
        context,
        data.geometry,
        input.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
      );
      break;
    case ConvKind.Float32:
      convFloat(
        data.geometry,
        data.out,
        input.data as Float32Array,
        filter.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
      );
      break;
    case ConvKind.Int8:
      convInt8(
        data.geometry,
        data.out,
        input.data as Int8Array,
        data.unpackedFilter ?? (filter.data as Int8Array),
        bias === null ? null : (bias.data as Int32Array),
        output.data as Int8Array,
      );
      break;
    case ConvKind.Int16:
      convInt16(
        data.geometry,
        data.out,
        input.data as Int16Array,
        filter.data as Int8Array,
        bias === null ? null : (bias.data as Int32Array),
        null,
        output.data as Int16Array,
      );
      break;
    case ConvKind.Int16Wide:
      convInt16(
        data.geometry,
        data.out,
        input.data as Int16Array,
        filter.data as Int8Array,
        null,
        data.bias64.of(bias!),
        output.data as Int16Array,
      );
      break;
    case ConvKind.Uint8:
      convUint8(
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

/** CONV_2D, versions 1-8. */
export const CONV_2D: Registration = {
  builtinCode: BuiltinOperator.CONV_2D,
  version: 8,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => conv2dTypeProblem(context, node, FILTERS) ?? true,
  init: (): Conv2DOpData => ({
    kind: ConvKind.Float32,
    geometry: emptyGeometry(),
    out: emptyOutputParams(),
    hasBias: false,
    bias64: new Int64Words(),
    unpackedFilter: null,
    hybrid: null,
  }),
  prepare,
  invoke,
};
