/**
 * Hybrid SVDF (TFLite svdf.cc EvalHybrid, reference svdf.h EvalHybridSVDF; ops-reference's svdf.ts and
 * svdf-common.ts evalSvdfHybrid): float32 input, activation state and output, constant int8 feature and
 * time weights (or TFLite's legacy uint8 hybrid weights, read as int8), one scale each, a float32 bias
 * or none, any rank, memory size, batch count and fused activation. At invoke, unless the input is all
 * zeros (TFLite's IsZeroVector shortcut), each batch row is quantized (hybrid_quantize: symmetric, or
 * asymmetric under `asymmetric_quantize_inputs`, the feature scale folded into the factors), the int8
 * GEMM tile (qs8_conv with W.Raw, the batch rows as its pixels, the filters as its channels) accumulates
 * in int32 and hybrid_epilogue scales to float32 (see hybrid-common.ts) into a scratch buffer; then
 * hybrid_svdf (assembly/hybrid/svdf.ts) shifts the state, writes the features into its newest column and
 * runs the time matmul (the time weights dequantized at prepare as TFLite's float_weights_time), bias and
 * rank sums, each float32 step in ops-reference's order; kernel-support's applyActivationToVector applies
 * the activation, as ops-reference. Outputs and state equal ops-reference's bit for bit. One thread.
 * Declines (the next provider serves the node): weights that are not constant int8 / uint8 tensors or
 * have more than one scale (TFLite's hybrid SVDF reads one scale per tensor), a bias that is not float32.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import {
  SVDF_REQUIRED_INPUTS,
  applyActivationToVector,
  declineArity,
  declineType,
  hybridWeightScales,
  hybridWeightsInt8,
  isVectorActivation,
  isZeroVector,
  reductionSumVector,
  svdfTensors,
} from '@micrort/kernel-support';
import { SV, SV_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { kernelsFor } from '../../wasm-arena.js';
import { W, WINDOW_PARAMS_BYTES, constantInputCopies, extScratchBytes, inputOffset, writeWindowParams } from '../kernel-common.js';
import { writeSvdfShape } from '../svdf-common.js';
import { packConvGemm } from '../weight-pack.js';
import { bindWindowScratch, requestWindowScratch } from '../window-scratch.js';
import {
  HybridMode,
  emptyHybridKernelData,
  finishHybridKernel,
  prepareHybridEpilogue,
  quantizeHybridInput,
  type HybridKernelData,
} from './hybrid-common.js';

const OP = 'SVDF';
const WEIGHT_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.UINT8];
const FLOAT32: readonly TensorType[] = [TensorType.FLOAT32];
const NO_I32 = new Int32Array(0);

interface HybridSvdfData extends HybridKernelData {
  /** The SV block, the interleaved float32 time weights (arena offsets). */
  sv: number;
  time: number;
  /** The scratch buffer of the feature activations (batches × filters float32). */
  features: number;
  /** The bias's arena copy (-1: read the eval tensor), whether there is one. */
  biasCopy: number;
  hasBias: boolean;
  inCount: number;
  activation: number;
}

/** Why hybrid SVDF weights are not handled: not a constant int8 / uint8 tensor with one positive finite scale; or null. */
function declineWeights(what: string, t: Tensor): string | null {
  const why = declineType(what, t, WEIGHT_TYPES);
  if (why) return why;
  if (!t.isConstant) return `${what} (tensor ${t.index}) is not a constant (packed or dequantized at prepare)`;
  const scales = t.quantization?.scale ?? [];
  if (scales.length !== 1)
    return `${what} (tensor ${t.index}) with ${scales.length} scales (TFLite's hybrid SVDF reads one scale per tensor)`;
  if (!(scales[0]! > 0 && scales[0]! < Infinity)) return `${what} (tensor ${t.index}) without a positive finite scale`;
  return null;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 5, 1);
  if (arity) return arity;
  // a missing required input: prepare (svdfTensors) reports it as a KernelError
  if (SVDF_REQUIRED_INPUTS.some((p) => node.inputs[p]! < 0)) return true;
  const tensor = (pos: number): Tensor | null => (node.inputs[pos]! < 0 ? null : context.getTensor(node.inputs[pos]!));
  const input = tensor(0)!;
  const feature = tensor(1)!;
  const time = tensor(2)!;
  const bias = tensor(3);
  const state = tensor(4)!;
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.FLOAT32 || feature.type === TensorType.FLOAT32) return 'not hybrid (float32 input, quantized weights)';
  const why =
    declineType('output', output, FLOAT32) ??
    declineType('activation state', state, FLOAT32) ??
    (bias ? declineType('bias', bias, FLOAT32) : null) ??
    declineWeights('weights_feature', feature) ??
    declineWeights('weights_time', time);
  if (why) return why;
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridSvdfData;
  const t = svdfTensors(OP, context, node);
  const { batchSize: B, inputSize, numFilters: F, memorySize: M } = t.shape;
  const activation = t.options.fusedActivationFunction;
  if (!isVectorActivation(activation)) throw new KernelError(OP, node.index, `unsupported fused activation ${activation}`);
  const feature = hybridWeightsInt8(OP, context, node, 'weights_feature', t.weightsFeature);
  const time = hybridWeightsInt8(OP, context, node, 'weights_time', t.weightsTime);
  if (feature === null || time === null) throw new KernelError(OP, node.index, 'hybrid SVDF weights must be constants');
  const featureScale = hybridWeightScales(OP, node, 'weights_feature', t.weightsFeature, 0, F).scale;
  const timeScale = hybridWeightScales(OP, node, 'weights_time', t.weightsTime, 0, F).scale;
  const asymmetric = t.options.asymmetricQuantizeInputs;

  // the SV block, the time weights as TFLite's float_weights_time (int8 × scale in float32) interleaved four
  // filters at a time ([F / 4][M][4], zeros past F), the time matmul's per-filter sums (F rounded up to 4)
  const filters4 = (F + 3) & ~3;
  const timeAt = SV_BYTES;
  const accAt = timeAt + filters4 * M * 4;
  const region = context.allocatePersistentBuffer(accAt + filters4 * 4);
  writeSvdfShape(region.i32, t);
  region.i32[SV.Acc] = region.offset + accAt;
  const tw = region.f32.subarray(timeAt / 4, accAt / 4);
  tw.fill(0);
  for (let f = 0; f < F; f++) for (let j = 0; j < M; j++) tw[((f >> 2) * M + j) * 4 + (f & 3)] = time[f * M + j]! * timeScale;
  data.sv = region.offset;
  data.time = region.offset + timeAt;

  let sums: Int32Array | null = null;
  if (asymmetric) {
    sums = new Int32Array(F);
    reductionSumVector(feature, 0, F, inputSize, sums);
  }
  const hyRegion = prepareHybridEpilogue(context, {
    perBatch: 1,
    outC: F,
    mode: HybridMode.Folded,
    sums,
    scales: null,
    bias: null,
    clamp: false,
    lo: 0,
    hi: 0,
  });
  // the feature matmul: the batch rows are one row of 1x1 windows
  const params = context.allocatePersistentBuffer(WINDOW_PARAMS_BYTES);
  data.k = kernelsFor(OP, node, params);
  const p = params.i32;
  writeWindowParams(p, { batches: 1, inH: 1, inW: B, inC: inputSize, outH: 1, outW: B, outC: F, actMin: 0, actMax: 0 });
  const layout = packConvGemm(context, p, feature, F, 1, inputSize, null, 0, 0, B === 1);
  p[W.Direct] = 1;
  data.scratch = requestWindowScratch(context, p, NO_I32, NO_I32, {
    channels: 0,
    zeroBytes: 0,
    ptrBytes: B === 1 ? 0 : 4,
    extBytes: B === 1 ? 0 : extScratchBytes(layout.units),
  });
  data.features = context.requestScratchBufferInArena(Math.max(4, B * F * 4));
  finishHybridKernel(context, node, data, params, hyRegion, { batches: B, rowSize: inputSize, asymmetric, foldScale: featureScale });
  data.hasBias = t.bias !== null;
  data.biasCopy = data.hasBias ? constantInputCopies(context, node, [3])[0]! : -1;
  data.inCount = B * inputSize;
  data.activation = activation;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as HybridSvdfData;
  const k = data.k!;
  const input = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const features = context.getScratchBuffer(data.features).offset;
  // TFLite: an all-zero input leaves the feature activations at zero
  const hasFeatures = !isZeroVector(input, 0, data.inCount);
  if (hasFeatures) {
    const q = quantizeHybridInput(context, data.quant!, data.hy, k, inputOffset(context, node, 0, data.fixed));
    bindWindowScratch(context, data.p, data.scratch);
    k.qs8_conv(data.params, q, features);
    k.hybrid_epilogue(data.hp, features, 0, data.batches);
  }
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  k.hybrid_svdf(
    data.sv,
    features,
    hasFeatures ? 1 : 0,
    data.time,
    data.hasBias ? inputOffset(context, node, 3, data.biasCopy) : 0,
    context.getEvalTensor(node.inputs[4]!).data.byteOffset,
    output.byteOffset,
  );
  applyActivationToVector(data.activation, output, 0, output.length);
}

/** The hybrid SVDF registration (float32 nodes with quantized weights only). */
export function createSvdfHybrid(): Registration<HybridSvdfData> {
  return {
    builtinCode: BuiltinOperator.SVDF,
    version: 4,
    provider: PROVIDER,
    name: 'SVDF/wasm-hybrid',
    supports,
    init: (): HybridSvdfData => ({
      ...emptyHybridKernelData(),
      sv: 0,
      time: 0,
      features: -1,
      biasCopy: -1,
      hasBias: false,
      inCount: 0,
      activation: 0,
    }),
    prepare,
    invoke,
  };
}
