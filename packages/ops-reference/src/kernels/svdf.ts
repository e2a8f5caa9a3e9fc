/**
 * SVDF reference kernel (TFLM kernels/svdf.cc + svdf_common.cc): float32, full-integer int8 input and
 * output with an int16 or int8 activation state (time weights share the state type), int32 bias, and
 * TFLite's hybrid kernel (float32 input, state and output, int8 or uint8 feature and time weights — uint8
 * read as int8 as TFLite does —, symmetric or asymmetric input quantization; svdf.cc EvalHybrid): the time
 * weights are dequantized once in prepare, the feature matmul quantizes the input per batch row.
 *
 * Inputs: 0 input [batch, inputSize], 1 weights_feature [numFilters, inputSize], 2 weights_time
 * [numFilters, memorySize], 3 optional bias [numUnits], 4 activation state (variable)
 * [batch, memorySize * numFilters]. Output: [batch, numUnits], numUnits = numFilters / rank.
 *
 * The state persists across invokes; the interpreter resets it (to the zero point for int8, as TFLM).
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  type ArenaRegion,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { SvdfParam, evalSvdfFloat, evalSvdfHybrid, evalSvdfInteger, type SvdfHybridPlan } from './svdf-common.js';
import {
  hybridWeightScales,
  hybridWeightsInt8,
  isVectorActivation,
  opData,
  reductionSumVector,
  svdfIntegerMultipliers,
  svdfTensors,
  typeRange,
  type SvdfShape,
} from '@micrort/kernel-support';

const OP = 'SVDF';
const INPUT = 0;
const WEIGHTS_FEATURE = 1;
const WEIGHTS_TIME = 2;
const BIAS = 3;
const STATE = 4;

/** Which evaluation a node runs. */
const enum SvdfKind {
  Float32 = 0,
  /** int8 input/output, int16 state and time weights. */
  Int16State = 1,
  /** int8 input/output, int8 state and time weights. */
  Int8State = 2,
  /** float32 input, state and output; int8/uint8 weights (TFLite's hybrid kernel). */
  Hybrid = 3,
}

/** Per-node data of SVDF. Numeric parameters live in `params`, a persistent arena buffer (TFLM's OpDataSvdf). */
interface SvdfOpData {
  params: Int32Array;
  kind: SvdfKind;
  shape: SvdfShape;
  activation: ActivationFunctionType;
  hasBias: boolean;
  stateMin: number;
  stateMax: number;
  hybrid: SvdfHybridPlan | null;
}

function init(context: TfLiteContext): SvdfOpData {
  const region: ArenaRegion = context.allocatePersistentBuffer(SvdfParam.COUNT * 4);
  return {
    params: region.i32,
    kind: SvdfKind.Float32,
    shape: { rank: 1, batchSize: 0, inputSize: 0, numFilters: 0, numUnits: 0, memorySize: 0 },
    activation: ActivationFunctionType.NONE,
    hasBias: false,
    stateMin: 0,
    stateMax: 0,
    hybrid: null,
  };
}

function checkType(node: Node, what: string, t: Tensor, allowed: readonly TensorType[]): void {
  if (!allowed.includes(t.type))
    throw new KernelError(
      OP,
      node.index,
      `${what} (tensor ${t.index}) has type ${tensorTypeName(t.type)}, expected ${allowed.map(tensorTypeName).join(' or ')}`,
    );
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<SvdfOpData>(OP, node);
  const t = svdfTensors(OP, context, node);
  const { options, input, weightsFeature, weightsTime, bias, state, output } = t;
  const { batchSize, numFilters, numUnits } = t.shape;

  data.shape = t.shape;
  data.activation = options.fusedActivationFunction;
  data.hasBias = bias !== null;
  const p = data.params;

  if (input.type === TensorType.INT8) {
    checkType(node, 'weights_feature', weightsFeature, [TensorType.INT8]);
    checkType(node, 'weights_time', weightsTime, [TensorType.INT16, TensorType.INT8]);
    checkType(node, 'activation state', state, [weightsTime.type]);
    if (bias !== null) checkType(node, 'bias', bias, [TensorType.INT32]);
    checkType(node, 'output', output, [TensorType.INT8]);

    const { scale1: q1, scale2: q2 } = svdfIntegerMultipliers(OP, node, t);
    p[SvdfParam.SCALE_1_A] = q1.multiplier;
    p[SvdfParam.SCALE_1_B] = q1.shift;
    p[SvdfParam.SCALE_2_A] = q2.multiplier;
    p[SvdfParam.SCALE_2_B] = q2.shift;
    p[SvdfParam.INPUT_ZERO_POINT] = input.params.zeroPoint;
    p[SvdfParam.OUTPUT_ZERO_POINT] = output.params.zeroPoint;
    p[SvdfParam.STATE_ZERO_POINT] = state.params.zeroPoint;
    [data.stateMin, data.stateMax] = typeRange(state.type);
    data.kind = state.type === TensorType.INT16 ? SvdfKind.Int16State : SvdfKind.Int8State;
    p[SvdfParam.SCRATCH_INDEX] = context.requestScratchBufferInArena(batchSize * numFilters * 4);
    p[SvdfParam.SCRATCH_OUTPUT_INDEX] = context.requestScratchBufferInArena(batchSize * numUnits * 4);
  } else if (input.type === TensorType.FLOAT32 && weightsFeature.type !== TensorType.FLOAT32) {
    checkType(node, 'weights_feature', weightsFeature, [TensorType.INT8, TensorType.UINT8]);
    checkType(node, 'weights_time', weightsTime, [TensorType.INT8, TensorType.UINT8]);
    checkType(node, 'activation state', state, [TensorType.FLOAT32]);
    if (bias !== null) checkType(node, 'bias', bias, [TensorType.FLOAT32]);
    checkType(node, 'output', output, [TensorType.FLOAT32]);
    checkFloatActivation(node, options.fusedActivationFunction);
    data.kind = SvdfKind.Hybrid;
    data.hybrid = prepareHybrid(context, node, weightsFeature, weightsTime, data.shape, options.asymmetricQuantizeInputs);
    p[SvdfParam.SCRATCH_INDEX] = context.requestScratchBufferInArena(batchSize * numFilters * 4);
  } else if (input.type === TensorType.FLOAT32) {
    checkType(node, 'weights_feature', weightsFeature, [TensorType.FLOAT32]);
    checkType(node, 'weights_time', weightsTime, [TensorType.FLOAT32]);
    checkType(node, 'activation state', state, [TensorType.FLOAT32]);
    if (bias !== null) checkType(node, 'bias', bias, [TensorType.FLOAT32]);
    checkType(node, 'output', output, [TensorType.FLOAT32]);
    checkFloatActivation(node, options.fusedActivationFunction);
    data.kind = SvdfKind.Float32;
    p[SvdfParam.SCRATCH_INDEX] = context.requestScratchBufferInArena(batchSize * numFilters * 4);
  } else {
    throw new KernelError(OP, node.index, `unsupported input type ${tensorTypeName(input.type)} (supported: float32, int8)`);
  }
}

/** The float kernels take every fused activation of the schema. */
function checkFloatActivation(node: Node, activation: ActivationFunctionType): void {
  if (!isVectorActivation(activation)) throw new KernelError(OP, node.index, `unsupported fused activation ${activation}`);
}

/**
 * The hybrid plan: int8 feature weights (uint8 read as int8) with their scale, the time weights
 * dequantized once (TFLite's float_weights_time: int8 value × scale, in float32), the feature weights'
 * row sums for asymmetric inputs, scratch buffers for the quantized input.
 */
function prepareHybrid(
  context: TfLiteContext,
  node: Node,
  weightsFeature: Tensor,
  weightsTime: Tensor,
  s: SvdfShape,
  asymmetric: boolean,
): SvdfHybridPlan {
  const feature = hybridWeightsInt8(OP, context, node, 'weights_feature', weightsFeature);
  const time = hybridWeightsInt8(OP, context, node, 'weights_time', weightsTime);
  if (feature === null || time === null) throw new KernelError(OP, node.index, 'hybrid SVDF weights must be constants');
  const featureScale = hybridWeightScales(OP, node, 'weights_feature', weightsFeature, 0, s.numFilters).scale;
  const timeScale = hybridWeightScales(OP, node, 'weights_time', weightsTime, 0, s.numFilters).scale;
  const n = s.numFilters * s.memorySize;
  const weightsTimeF = context.allocatePersistentBuffer(n * 4).f32.subarray(0, n);
  for (let i = 0; i < n; i++) weightsTimeF[i] = time[i]! * timeScale;
  const rowSums = asymmetric ? context.allocatePersistentBuffer(s.numFilters * 4).i32.subarray(0, s.numFilters) : new Int32Array(0);
  if (asymmetric) reductionSumVector(feature, 0, s.numFilters, s.inputSize, rowSums);
  return {
    weights: { matrix: feature, offset: 0, rows: s.numFilters, cols: s.inputSize, rowSums, rowSumsOffset: 0, perChannelScale: null },
    featureScale,
    weightsTime: weightsTimeF,
    asymmetric,
    quantizedIndex: context.requestScratchBufferInArena(Math.max(1, s.batchSize * s.inputSize)),
    factorsIndex: context.requestScratchBufferInArena(Math.max(1, s.batchSize) * 4),
    zeroPointsIndex: context.requestScratchBufferInArena(Math.max(1, s.batchSize) * 4),
  };
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<SvdfOpData>(OP, node);
  const p = data.params;
  const inputs = node.inputs;
  const input = context.getEvalTensor(inputs[INPUT]!).data;
  const weightsFeature = context.getEvalTensor(inputs[WEIGHTS_FEATURE]!).data;
  const weightsTime = context.getEvalTensor(inputs[WEIGHTS_TIME]!).data;
  const biasIndex = inputs[BIAS]!;
  const state = context.getEvalTensor(inputs[STATE]!).data;
  const output = context.getEvalTensor(node.outputs[0]!).data;
  const scratch = context.getScratchBuffer(p[SvdfParam.SCRATCH_INDEX]!);

  if (data.kind === SvdfKind.Hybrid) {
    const h = data.hybrid!;
    evalSvdfHybrid(
      data.shape,
      h,
      context.getScratchBuffer(h.quantizedIndex).i8,
      context.getScratchBuffer(h.factorsIndex).f32,
      context.getScratchBuffer(h.zeroPointsIndex).i32,
      data.activation,
      input as Float32Array,
      data.hasBias ? (context.getEvalTensor(biasIndex).data as Float32Array) : null,
      state as Float32Array,
      scratch.f32,
      output as Float32Array,
    );
    return;
  }
  if (data.kind === SvdfKind.Float32) {
    const bias = data.hasBias ? (context.getEvalTensor(biasIndex).data as Float32Array) : null;
    evalSvdfFloat(
      data.shape,
      data.activation,
      input as Float32Array,
      weightsFeature as Float32Array,
      weightsTime as Float32Array,
      bias,
      state as Float32Array,
      scratch.f32,
      output as Float32Array,
    );
    return;
  }
  const bias = data.hasBias ? (context.getEvalTensor(biasIndex).data as Int32Array) : null;
  evalSvdfInteger(
    data.shape,
    p,
    input as Int8Array,
    weightsFeature as Int8Array,
    weightsTime as Int16Array | Int8Array,
    bias,
    state as Int16Array | Int8Array,
    data.stateMin,
    data.stateMax,
    scratch.i32,
    context.getScratchBuffer(p[SvdfParam.SCRATCH_OUTPUT_INDEX]!).i32,
    output as Int8Array,
  );
}

/** SVDF: float32, int8 (int16 or int8 state), hybrid float32 × int8/uint8. */
export const SVDF: Registration<SvdfOpData> = {
  builtinCode: BuiltinOperator.SVDF,
  version: 4,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
