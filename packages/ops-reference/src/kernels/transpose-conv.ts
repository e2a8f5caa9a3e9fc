/**
 * TRANSPOSE_CONV reference kernel (TFLM kernels/transpose_conv.cc): float32, int8 per-channel and 16x8
 * (int16 activations, int8 weights, int64 or int16 bias), uint8 per-tensor (TFLite's transpose_conv.cc
 * EvalQuantized; TFLM has no uint8), and TFLite's hybrid kernel (float32 activations
 * × int8 weights, conv-hybrid.ts; current LiteRT), stride, SAME/VALID padding, optional bias.
 *
 * Inputs: 0 output_shape (int32 [4]; TFLM ignores it because shapes are static, here a constant one must
 * match the output), 1 filter [Cout, KH, KW, Cin], 2 input [N, H, W, Cin], 3 optional bias [Cout].
 * Output: [N, OH, OW, Cout].
 *
 * As in TFLM, the fused activation applies to float only: quantized kernels clamp to the output type's
 * range (TFLM computes their range with kTfLiteActNone).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  numElements,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
  type TransposeConvOptions,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  Float64Scratch,
  Int64Words,
  checkPaddingAndActivation,
  convTypeProblem,
  emptyGeometry,
  type ConvFilterTypes,
  type ConvGeometry,
} from './conv-common.js';
import { evalHybridTransposeConv, prepareHybridConv, type HybridConvPlan } from './conv-hybrid.js';
import { transposeConvFloat, transposeConvInt16, transposeConvInt8, transposeConvUint8 } from './transpose-conv-eval.js';
import {
  type ConvOutputParams,
  emptyOutputParams,
  opData,
  prepareConvOutputStage,
  transposeConvShape,
  transposeConvTensors,
} from '@micrort/kernel-support';

const OP = 'TRANSPOSE_CONV';
const OUTPUT_SHAPE = 0;
const FILTER = 1;
const INPUT = 2;
const BIAS = 3;
/** TRANSPOSE_CONV filters are quantized along dimension 0 (output channels). */
const QUANTIZED_DIMENSION = 0;
/** Bias types of the 16x8 kernel (an int16 bias is widened to int64 each invoke). */
const INT16_BIAS_TYPES: readonly TensorType[] = [TensorType.INT64, TensorType.INT16];
/** Beyond the same-type pairs: TFLite's hybrid filter (int8). */
const FILTERS: ConvFilterTypes = { hybrid: [TensorType.INT8], int4: false };

const enum TransposeKind {
  Float32 = 0,
  Int8 = 1,
  Int16 = 2,
  /** float32 x int8 (TFLite's hybrid kernel). */
  Hybrid = 3,
  /** uint8 × uint8, per-tensor quantization (TFLite's EvalQuantized). */
  Uint8 = 4,
}

/** Per-node data of TRANSPOSE_CONV (TFLM's OpData). */
interface TransposeConvOpData {
  kind: TransposeKind;
  geometry: ConvGeometry;
  out: ConvOutputParams;
  hasBias: boolean;
  /** 16x8 with an int16 bias: TFLM widens it into an int64 scratch buffer each invoke. */
  biasIsInt16: boolean;
  /** int32 (int8) or int64 (16x8) accumulator scratch, -1 for float. */
  scratchIndex: number;
  /** int64 bias conversion scratch (16x8 with int16 bias), else -1. */
  biasScratchIndex: number;
  outputElements: number;
  biasElements: number;
  bias64: Int64Words;
  acc64: Float64Scratch;
  biasWide: Float64Scratch;
  hybrid: HybridConvPlan | null;
}

/** Why this kernel cannot serve the node's types, or null when it can. */
function unsupportedTypes(context: TfLiteContext, node: Node): string | null {
  if (node.inputs.length < 3 || node.outputs.length !== 1)
    return `expects 3 or 4 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[OUTPUT_SHAPE]! < 0 || node.inputs[FILTER]! < 0 || node.inputs[INPUT]! < 0 || node.outputs[0]! < 0) {
    return 'output_shape, filter, input and output tensors are required';
  }
  const input = context.getTensor(node.inputs[INPUT]!);
  return convTypeProblem(input, context.getTensor(node.inputs[FILTER]!), context.getTensor(node.outputs[0]!), FILTERS);
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<TransposeConvOpData>(OP, node);
  const params = node.builtinData as TransposeConvOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing TransposeConvOptions');
  checkArity(OP, node, [3, 4], 1);
  const why = unsupportedTypes(context, node);
  if (why !== null) throw new KernelError(OP, node.index, why);

  const { filter, input, bias, output } = transposeConvTensors(OP, context, node);
  checkPaddingAndActivation(OP, node, params.padding, params.fusedActivationFunction);

  const g = computeGeometry(node, params, input, filter, output);
  data.geometry = g;
  data.outputElements = g.batches * g.outHeight * g.outWidth * g.outDepth;
  data.biasElements = bias ? numElements(bias.dims) : 0;

  data.scratchIndex = -1;
  data.biasScratchIndex = -1;
  data.biasIsInt16 = false;
  data.hasBias = bias !== null;
  if (input.type === TensorType.FLOAT32 && filter.type !== TensorType.FLOAT32) {
    data.kind = TransposeKind.Hybrid;
    data.hybrid = prepareHybridConv(OP, context, node, filter, bias, output, g, params.fusedActivationFunction, 'transpose');
    return;
  }

  // Quantized outputs clamp to the type's range only (TFLM computes their range with kTfLiteActNone).
  const biasType = prepareConvOutputStage(OP, context, node, input, filter, bias, output, g.outDepth, data.out, {
    quantizedDimension: QUANTIZED_DIMENSION,
    int16BiasTypes: INT16_BIAS_TYPES,
    floatActivation: params.fusedActivationFunction,
    quantizedActivation: ActivationFunctionType.NONE,
  });
  switch (input.type) {
    case TensorType.FLOAT32:
      data.kind = TransposeKind.Float32;
      break;
    case TensorType.INT8:
      data.scratchIndex = context.requestScratchBufferInArena(data.outputElements * 4);
      data.kind = TransposeKind.Int8;
      break;
    case TensorType.UINT8:
      data.scratchIndex = context.requestScratchBufferInArena(data.outputElements * 4);
      data.kind = TransposeKind.Uint8;
      break;
    default: {
      // INT16 activations, INT8 weights
      data.scratchIndex = context.requestScratchBufferInArena(data.outputElements * 8);
      if (biasType === TensorType.INT16) {
        data.biasIsInt16 = true;
        data.biasScratchIndex = context.requestScratchBufferInArena(data.biasElements * 8);
      }
      data.kind = TransposeKind.Int16;
      break;
    }
  }
}

/** Shapes and padding (kernel-support's transposeConvShape: TFLM computes the padding from the output size). */
function computeGeometry(node: Node, params: TransposeConvOptions, input: Tensor, filter: Tensor, output: Tensor): ConvGeometry {
  const s = transposeConvShape(OP, node, params, input, filter, output);
  const g = emptyGeometry();
  g.batches = s.batches;
  g.inHeight = s.inHeight;
  g.inWidth = s.inWidth;
  g.inDepth = s.inDepth;
  g.outDepth = s.outDepth;
  g.filterHeight = s.filterHeight;
  g.filterWidth = s.filterWidth;
  g.filterDepth = s.inDepth;
  g.outHeight = s.outHeight;
  g.outWidth = s.outWidth;
  g.strideHeight = s.strideHeight;
  g.strideWidth = s.strideWidth;
  g.padHeight = s.padHeight;
  g.padWidth = s.padWidth;
  return g;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<TransposeConvOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[INPUT]!);
  const filter = context.getEvalTensor(node.inputs[FILTER]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const bias = data.hasBias ? context.getEvalTensor(node.inputs[BIAS]!) : null;
  switch (data.kind) {
    case TransposeKind.Hybrid:
      evalHybridTransposeConv(
        data.hybrid!,
        context,
        data.geometry,
        input.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
      );
      break;
    case TransposeKind.Float32:
      transposeConvFloat(
        data.geometry,
        data.out,
        input.data as Float32Array,
        filter.data as Float32Array,
        bias === null ? null : (bias.data as Float32Array),
        output.data as Float32Array,
      );
      break;
    case TransposeKind.Int8:
      transposeConvInt8(
        data.geometry,
        data.out,
        input.data as Int8Array,
        filter.data as Int8Array,
        bias === null ? null : (bias.data as Int32Array),
        output.data as Int8Array,
        context.getScratchBuffer(data.scratchIndex).i32,
      );
      break;
    case TransposeKind.Uint8:
      transposeConvUint8(
        data.geometry,
        data.out,
        input.data as Uint8Array,
        filter.data as Uint8Array,
        bias === null ? null : (bias.data as Int32Array),
        output.data as Uint8Array,
        context.getScratchBuffer(data.scratchIndex).i32,
      );
      break;
    case TransposeKind.Int16: {
      const acc = data.acc64.of(context.getScratchBuffer(data.scratchIndex), data.outputElements);
      let biasWide: Float64Array | null = null;
      if (bias !== null && data.biasIsInt16) {
        // TFLM widens the int16 bias into its int64 scratch buffer on every invoke.
        biasWide = data.biasWide.of(context.getScratchBuffer(data.biasScratchIndex), data.biasElements);
        const b16 = bias.data as Int16Array;
        for (let i = 0; i < data.biasElements; i++) biasWide[i] = b16[i]!;
      }
      const bias64 = bias !== null && !data.biasIsInt16 ? data.bias64.of(bias) : null;
      transposeConvInt16(
        data.geometry,
        data.out,
        input.data as Int16Array,
        filter.data as Int8Array,
        bias64,
        biasWide,
        output.data as Int16Array,
        acc,
      );
      break;
    }
  }
}

/** TRANSPOSE_CONV, versions 1-5. */
export const TRANSPOSE_CONV: Registration = {
  builtinCode: BuiltinOperator.TRANSPOSE_CONV,
  version: 5,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => unsupportedTypes(context, node) ?? true,
  init: (): TransposeConvOpData => ({
    kind: TransposeKind.Float32,
    geometry: emptyGeometry(),
    out: emptyOutputParams(),
    hasBias: false,
    biasIsInt16: false,
    scratchIndex: -1,
    biasScratchIndex: -1,
    outputElements: 0,
    biasElements: 0,
    bias64: new Int64Words(),
    acc64: new Float64Scratch(),
    biasWide: new Float64Scratch(),
    hybrid: null,
  }),
  prepare,
  invoke,
};
