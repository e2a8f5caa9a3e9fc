/**
 * FULLY_CONNECTED (tflite-micro kernels/fully_connected.cc + fully_connected_common.cc).
 *
 * Supported: float32; int8 activations with int8 weights, per-tensor (any filter zero point) or
 * per-channel (symmetric) scales, int32 bias; int16 activations with int8 weights (symmetric int16, zero
 * points 0), per-tensor or per-channel, int64 bias (int64 accumulator) or int32 bias (int32 accumulator,
 * as newer TFLM; without a bias the accumulator is int64 only when quantized_bias_type is INT64).
 * TFLite's legacy uint8 (TFLite kernels/fully_connected.cc, reference_ops::FullyConnected): uint8 input
 * and weights (any zero points, per-tensor), int32 bias whose scale is input_scale * filter_scale, uint8
 * output, or int16 output with zero point 0 (the legacy quantized-LSTM variant, which needs a bias).
 * int4 weights (TFLite's int8 x int4, symmetric): unpacked once in prepare into a persistent int8 buffer,
 * then the int8 paths. Hybrid (TFLite only): float32 input and output with int8, uint8 or int4 weights,
 * per-tensor or per-channel, symmetric or asymmetric input quantization, any fused activation
 * (fully-connected-hybrid.ts). Blockwise int4 weights (LiteRT's BlockwiseQuantization) with float32
 * input and output: fully-connected-blockwise.ts.
 * Rejected with a KernelError: shuffled weights (SHUFFLED4x16INT8), fused TANH/SIGN_BIT outside the
 * hybrid path, and shapes that do not form a matrix product.
 *
 * Output shape: batches = output elements / output_depth, where output_depth is the output's last
 * dimension and must equal the filter's rows; the input must hold batches * accum_depth elements. With
 * keep_num_dims the output keeps the input's leading dimensions ([..., output_depth]).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  FullyConnectedWeightsFormat,
  KernelError,
  TensorType,
  numElements,
  tensorTypeName,
  type FullyConnectedOptions,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { Int64Words } from './conv-common.js';
import { evalBlockwiseFullyConnected, prepareBlockwiseFullyConnected, type BlockwiseFcPlan } from './fully-connected-blockwise.js';
import { evalHybridFullyConnected, prepareHybridFullyConnected, type HybridFcPlan } from './fully-connected-hybrid.js';
import {
  FcKind,
  FcWord,
  OP_DATA_FULLY_CONNECTED_BYTES,
  fullyConnectedFloat,
  fullyConnectedInt16Acc32,
  fullyConnectedInt16Acc64,
  fullyConnectedInt8,
  fullyConnectedInt8PerChannel,
  fullyConnectedUint8,
  type FcShape,
} from './fully-connected-common.js';
import {
  activationRangeFloat,
  activationRangeQuantized,
  allocateOpData,
  blockwiseDetails,
  calculateOpDataFullyConnected,
  expectClampActivation,
  expectFullyConnectedShape,
  expectQuantized,
  opData,
  populateUint8ConvolutionParams,
  unpackInt4,
} from '@micrort/kernel-support';

const OP = 'FULLY_CONNECTED';

const DEFAULT_OPTIONS: FullyConnectedOptions = {
  fusedActivationFunction: ActivationFunctionType.NONE,
  weightsFormat: FullyConnectedWeightsFormat.DEFAULT,
  keepNumDims: false,
  asymmetricQuantizeInputs: false,
  quantizedBiasType: 0,
};

/** Op data of one FULLY_CONNECTED node. Numeric fields live in TFLM's OpDataFullyConnected block. */
interface FullyConnectedOpData {
  /** OpDataFullyConnected as int32 words (see FcWord). */
  params: Int32Array;
  kind: FcKind;
  shape: FcShape;
  biasIndex: number;
  /** Per-channel multipliers/shifts (arena), or one-element views of `params` for per-tensor int16. */
  multipliers: Int32Array;
  shifts: Int32Array;
  /** int64 bias as int32 words: bound in prepare for a constant bias, else through `biasWordsCache`. */
  biasWords: Int32Array | null;
  biasWordsCache: Int64Words;
  floatMin: number;
  floatMax: number;
  /** int4 weights unpacked in prepare (read instead of the filter tensor), else null. */
  unpackedFilter: Int8Array | null;
  hybrid: HybridFcPlan | null;
  blockwise: BlockwiseFcPlan | null;
}

const EMPTY_I32 = new Int32Array(0);

function init(context: TfLiteContext): FullyConnectedOpData {
  return {
    params: allocateOpData(context, OP_DATA_FULLY_CONNECTED_BYTES).i32,
    kind: FcKind.Float32,
    shape: { batches: 0, outputDepth: 0, accumDepth: 0 },
    biasIndex: -1,
    multipliers: EMPTY_I32,
    shifts: EMPTY_I32,
    biasWords: null,
    biasWordsCache: new Int64Words(),
    floatMin: 0,
    floatMax: 0,
    unpackedFilter: null,
    hybrid: null,
    blockwise: null,
  };
}

function fail(node: Node, detail: string): never {
  throw new KernelError(OP, node.index, detail);
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<FullyConnectedOpData>(OP, node);
  const opts = (node.builtinData as FullyConnectedOptions | null) ?? DEFAULT_OPTIONS;
  if (node.inputs.length < 2 || node.inputs.length > 3) fail(node, `expects 2 or 3 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) fail(node, `expects 1 output, got ${node.outputs.length}`);
  if (node.inputs[0]! < 0 || node.inputs[1]! < 0) fail(node, 'input and filter are required');
  const input = context.getTensor(node.inputs[0]!);
  const filter = context.getTensor(node.inputs[1]!);
  const biasIndex = node.inputs.length > 2 ? node.inputs[2]! : -1;
  const bias = biasIndex >= 0 ? context.getTensor(biasIndex) : null;
  const output = context.getTensor(node.outputs[0]!);

  if (opts.weightsFormat !== FullyConnectedWeightsFormat.DEFAULT)
    fail(
      node,
      `weights_format ${FullyConnectedWeightsFormat[opts.weightsFormat] ?? opts.weightsFormat} (shuffled weights) is not supported`,
    );
  if (blockwiseDetails(filter) !== null) {
    const shape = expectFullyConnectedShape(OP, node, input, filter, output, opts.keepNumDims);
    if (bias && numElements(bias.dims) !== shape.outputDepth)
      fail(node, `bias (tensor ${bias.index}) has ${numElements(bias.dims)} elements, expected output_depth ${shape.outputDepth}`);
    data.shape = shape;
    data.biasIndex = biasIndex;
    data.kind = FcKind.Blockwise;
    data.blockwise = prepareBlockwiseFullyConnected(OP, context, node, input, filter, bias, output, shape, opts.fusedActivationFunction);
    return;
  }
  const hybrid = input.type === TensorType.FLOAT32 && filter.type !== TensorType.FLOAT32;
  if (hybrid) {
    const shape = expectFullyConnectedShape(OP, node, input, filter, output, opts.keepNumDims);
    if (bias && numElements(bias.dims) !== shape.outputDepth)
      fail(node, `bias (tensor ${bias.index}) has ${numElements(bias.dims)} elements, expected output_depth ${shape.outputDepth}`);
    data.shape = shape;
    data.biasIndex = biasIndex;
    data.kind = FcKind.Hybrid;
    data.hybrid = prepareHybridFullyConnected(
      OP,
      context,
      node,
      filter,
      bias,
      output,
      shape,
      opts.fusedActivationFunction,
      opts.asymmetricQuantizeInputs,
    );
    return;
  }
  expectClampActivation(OP, node, opts.fusedActivationFunction);
  const uint8ToInt16 = input.type === TensorType.UINT8 && output.type === TensorType.INT16;
  if (input.type !== output.type && !uint8ToInt16)
    fail(node, `input type ${tensorTypeName(input.type)} and output type ${tensorTypeName(output.type)} must match`);
  if (input.type === TensorType.UINT8 && filter.type !== TensorType.UINT8)
    fail(node, `uint8 input needs uint8 weights, got ${tensorTypeName(filter.type)} (filter tensor ${filter.index})`);
  if (input.type === TensorType.INT16 && filter.type !== TensorType.INT8)
    fail(node, `int16 input needs int8 weights, got ${tensorTypeName(filter.type)} (filter tensor ${filter.index})`);
  if (input.type === TensorType.INT8 && filter.type !== TensorType.INT8 && filter.type !== TensorType.INT4)
    fail(node, `int8 input needs int8 or int4 weights, got ${tensorTypeName(filter.type)} (filter tensor ${filter.index})`);
  if (
    input.type !== TensorType.FLOAT32 &&
    input.type !== TensorType.INT8 &&
    input.type !== TensorType.INT16 &&
    input.type !== TensorType.UINT8
  )
    fail(node, `unsupported input type ${tensorTypeName(input.type)}; supported: float32, int8, int16, uint8`);

  const shape = expectFullyConnectedShape(OP, node, input, filter, output, opts.keepNumDims);
  if (bias) {
    const n = numElements(bias.dims);
    if (n !== shape.outputDepth) fail(node, `bias (tensor ${bias.index}) has ${n} elements, expected output_depth ${shape.outputDepth}`);
  }
  data.shape = shape;
  data.biasIndex = biasIndex;
  const p = data.params;

  if (input.type === TensorType.FLOAT32) {
    if (bias && bias.type !== TensorType.FLOAT32)
      fail(node, `float32 FULLY_CONNECTED needs a float32 bias, got ${tensorTypeName(bias.type)}`);
    [data.floatMin, data.floatMax] = activationRangeFloat(OP, node, opts.fusedActivationFunction);
    data.kind = FcKind.Float32;
    return;
  }

  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'filter', filter);
  expectQuantized(OP, node, 'output', output);
  const perChannel = filter.quantization!.scale.length > 1;

  if (input.type === TensorType.UINT8) {
    prepareUint8(node, data, input, filter, bias, output, opts, uint8ToInt16);
    return;
  }
  if (input.type === TensorType.INT8) {
    if (bias && bias.type !== TensorType.INT32) fail(node, `int8 FULLY_CONNECTED needs an int32 bias, got ${tensorTypeName(bias.type)}`);
    data.kind = perChannel ? FcKind.Int8PerChannel : FcKind.Int8;
    if (filter.type === TensorType.INT4) {
      if (!filter.isConstant) fail(node, `int4 filter (tensor ${filter.index}) must be a constant`);
      if (filter.quantization!.zeroPoint.some((z) => z !== 0))
        fail(node, `int4 filter (tensor ${filter.index}) must be symmetric (zero points 0)`);
      const count = filter.elementCount;
      data.unpackedFilter = context.allocatePersistentBuffer(count).i8.subarray(0, count);
      unpackInt4(filter.data as Int8Array, count, data.unpackedFilter);
    }
  } else {
    if (input.params.zeroPoint !== 0)
      fail(node, `int16 input (tensor ${input.index}) must have zero point 0, got ${input.params.zeroPoint}`);
    if (output.params.zeroPoint !== 0)
      fail(node, `int16 output (tensor ${output.index}) must have zero point 0, got ${output.params.zeroPoint}`);
    if (bias && bias.type !== TensorType.INT64 && bias.type !== TensorType.INT32)
      fail(node, `int16 FULLY_CONNECTED needs an int64 or int32 bias, got ${tensorTypeName(bias.type)}`);
    const acc64 = bias ? bias.type === TensorType.INT64 : opts.quantizedBiasType === TensorType.INT64;
    data.kind = acc64 ? FcKind.Int16Acc64 : FcKind.Int16Acc32;
    if (bias && bias.type === TensorType.INT64 && bias.isConstant) {
      const words = new Int32Array(bias.bytes.buffer, bias.bytes.byteOffset, bias.bytes.byteLength >> 2);
      checkInt64BiasRange(node, bias, words);
      data.biasWords = words;
    }
  }

  const q = calculateOpDataFullyConnected(OP, context, node, input, filter, bias, output, opts.fusedActivationFunction);
  if (q.perChannelBuffers) {
    data.multipliers = q.perChannelBuffers.multiplier;
    data.shifts = q.perChannelBuffers.shift;
  } else {
    p[FcWord.OutputMultiplier] = q.outputMultiplier;
    p[FcWord.OutputShift] = q.outputShift;
    data.multipliers = p.subarray(FcWord.OutputMultiplier, FcWord.OutputMultiplier + 1);
    data.shifts = p.subarray(FcWord.OutputShift, FcWord.OutputShift + 1);
  }
  p[FcWord.IsPerChannel] = q.perChannel ? 1 : 0;
  p[FcWord.InputZeroPoint] = q.inputZeroPoint;
  p[FcWord.FilterZeroPoint] = q.filterZeroPoint;
  p[FcWord.OutputZeroPoint] = q.outputZeroPoint;
  p[FcWord.ActMin] = q.actMin;
  p[FcWord.ActMax] = q.actMax;
}

/**
 * uint8 (TFLite fully_connected.cc Prepare): per-tensor scales, the multiplier from
 * GetQuantizedConvolutionMultipler (float32 scale product, bias scale within 1e-6 of it), the quantized
 * activation range of the output type.
 */
function prepareUint8(
  node: Node,
  data: FullyConnectedOpData,
  input: Tensor,
  filter: Tensor,
  bias: Tensor | null,
  output: Tensor,
  opts: FullyConnectedOptions,
  toInt16: boolean,
): void {
  if (filter.quantization!.scale.length !== 1)
    fail(node, `uint8 filter (tensor ${filter.index}) must be per-tensor quantized, got ${filter.quantization!.scale.length} scales`);
  if (bias && bias.type !== TensorType.INT32) fail(node, `uint8 FULLY_CONNECTED needs an int32 bias, got ${tensorTypeName(bias.type)}`);
  if (toInt16) {
    if (!bias) fail(node, 'uint8 input with int16 output needs a bias (TFLite reads it unconditionally)');
    if (output.params.zeroPoint !== 0)
      fail(node, `int16 output (tensor ${output.index}) must have zero point 0, got ${output.params.zeroPoint}`);
  }
  const m = populateUint8ConvolutionParams(OP, node, input, filter, bias, output);
  const p = data.params;
  p[FcWord.OutputMultiplier] = m.multiplier;
  p[FcWord.OutputShift] = m.shift;
  p[FcWord.IsPerChannel] = 0;
  p[FcWord.InputZeroPoint] = input.params.zeroPoint;
  p[FcWord.FilterZeroPoint] = filter.params.zeroPoint;
  p[FcWord.OutputZeroPoint] = output.params.zeroPoint;
  const [lo, hi] = activationRangeQuantized(OP, node, opts.fusedActivationFunction, output);
  p[FcWord.ActMin] = lo;
  p[FcWord.ActMax] = hi;
  data.kind = FcKind.Uint8;
}

/** TFLM's int64 MultiplyByQuantizedMultiplier requires |x| < 2^47; a constant bias beyond that is rejected. */
function checkInt64BiasRange(node: Node, bias: Tensor, words: Int32Array): void {
  for (let i = 0; i < words.length; i += 2) {
    const hi = words[i + 1]!;
    if (hi >= 32768 || hi < -32768)
      fail(node, `int64 bias (tensor ${bias.index}) element ${i >> 1} is outside [-2^47, 2^47), the range TFLM's 16x8 kernels support`);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<FullyConnectedOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).data;
  const filter = data.unpackedFilter ?? context.getEvalTensor(node.inputs[1]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const biasTensor = data.biasIndex >= 0 ? context.getEvalTensor(data.biasIndex) : null;
  const bias = biasTensor === null ? null : biasTensor.data;
  switch (data.kind) {
    case FcKind.Float32:
      fullyConnectedFloat(
        data.shape,
        input as Float32Array,
        filter as Float32Array,
        bias as Float32Array | null,
        output as Float32Array,
        data.floatMin,
        data.floatMax,
      );
      break;
    case FcKind.Int8:
      fullyConnectedInt8(data.shape, data.params, input as Int8Array, filter as Int8Array, bias as Int32Array | null, output as Int8Array);
      break;
    case FcKind.Int8PerChannel:
      fullyConnectedInt8PerChannel(
        data.shape,
        data.params,
        data.multipliers,
        data.shifts,
        input as Int8Array,
        filter as Int8Array,
        bias as Int32Array | null,
        output as Int8Array,
      );
      break;
    case FcKind.Int16Acc64: {
      const words = biasTensor === null ? null : (data.biasWords ?? data.biasWordsCache.of(biasTensor));
      fullyConnectedInt16Acc64(
        data.shape,
        data.params,
        data.params[FcWord.IsPerChannel] === 1,
        data.multipliers,
        data.shifts,
        input as Int16Array,
        filter as Int8Array,
        words,
        output as Int16Array,
      );
      break;
    }
    case FcKind.Uint8:
      fullyConnectedUint8(
        data.shape,
        data.params,
        input as Uint8Array,
        filter as Uint8Array,
        bias as Int32Array | null,
        output as Uint8Array | Int16Array,
      );
      break;
    case FcKind.Hybrid:
      evalHybridFullyConnected(
        data.hybrid!,
        context,
        data.shape,
        input as Float32Array,
        filter as Int8Array,
        bias as Float32Array | null,
        output as Float32Array,
      );
      break;
    case FcKind.Blockwise:
      evalBlockwiseFullyConnected(data.blockwise!, data.shape, input as Float32Array, bias as Float32Array | null, output as Float32Array);
      break;
    case FcKind.Int16Acc32:
      fullyConnectedInt16Acc32(
        data.shape,
        data.params,
        data.params[FcWord.IsPerChannel] === 1,
        data.multipliers,
        data.shifts,
        input as Int16Array,
        filter as Int8Array,
        bias as Int32Array | null,
        output as Int16Array,
      );
      break;
  }
}

/** The reference FULLY_CONNECTED kernel. */
export const FULLY_CONNECTED: Registration<FullyConnectedOpData> = {
  builtinCode: BuiltinOperator.FULLY_CONNECTED,
  version: 13,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
