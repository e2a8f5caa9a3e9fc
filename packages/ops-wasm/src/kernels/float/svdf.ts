/**
 * SVDF, float32, in WebAssembly: f32_svdf (assembly/float/svdf.ts), TFLM's EvalFloatSvdfReference within
 * micrort's float tolerance (its sums run in another order). The state is the model's variable tensor,
 * updated in place at each invoke; the feature weights are packed at prepare (rows padded to 8 floats,
 * filters to 4); the fused activation (any the float kernels take) is kernel-support's
 * applyActivationToVector over the output, as ops-reference. Shapes and checks are kernel-support's
 * svdfTensors. Declines the hybrid SVDF (quantized weights) and feature weights not fixed at prepare.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { applyActivationToVector, declineArity, isVectorActivation, svdfTensors } from '@micrort/kernel-support';
import { SV, SV_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { constantInputCopies, inputOffset } from '../kernel-common.js';
import { declineNonFloat, floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';

const OP = 'SVDF';

interface SvdfF32Data {
  k: FloatKernelExports | null;
  params: number;
  /** Arena copies of constant inputs (-1: read the eval tensor): input, weights_time, bias. */
  inputCopy: number;
  timeCopy: number;
  biasCopy: number;
  hasBias: boolean;
  activation: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 5, 1);
  if (arity) return arity;
  const tensors = [...node.inputs, node.outputs[0]!].map((i) => (i < 0 ? null : context.getTensor(i)));
  const why = declineNonFloat(tensors);
  if (why) return why;
  if (!hasFixedData(tensors[1]!)) return 'weights_feature is not a constant (packed at prepare)';
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SvdfF32Data;
  const t = svdfTensors(OP, context, node);
  if (!isVectorActivation(t.options.fusedActivationFunction))
    throw new KernelError(OP, node.index, `unsupported fused activation ${t.options.fusedActivationFunction}`);
  const { batchSize, inputSize, numFilters, numUnits, memorySize, rank } = t.shape;
  const input8 = (inputSize + 7) & ~7;
  const filters4 = (numFilters + 3) & ~3;
  const featureBytes = filters4 * input8 * 4;
  const region = context.allocatePersistentBuffer(SV_BYTES + featureBytes + input8 * 4 + filters4 * 4);
  data.k = floatKernelsFor(OP, node, region);
  data.params = region.offset;
  const featureAt = SV_BYTES;
  const rowAt = featureAt + featureBytes;
  const accAt = rowAt + input8 * 4;

  // Feature weights: row f at f * input8 floats, zeros past inputSize and numFilters.
  const packed = region.f32.subarray(featureAt / 4, (featureAt + featureBytes) / 4);
  packed.fill(0);
  const w = t.weightsFeature.data as Float32Array;
  for (let f = 0; f < numFilters; f++) packed.set(w.subarray(f * inputSize, (f + 1) * inputSize), f * input8);

  const p = region.i32;
  p.fill(0, 0, SV.Words);
  p[SV.Batches] = batchSize;
  p[SV.InputSize] = inputSize;
  p[SV.Input8] = input8;
  p[SV.Filters] = numFilters;
  p[SV.Memory] = memorySize;
  p[SV.Units] = numUnits;
  p[SV.Rank] = rank;
  p[SV.HasBias] = t.bias ? 1 : 0;
  p[SV.Feature] = region.offset + featureAt;
  p[SV.Row] = region.offset + rowAt;
  p[SV.Acc] = region.offset + accAt;

  data.hasBias = t.bias !== null;
  data.activation = t.options.fusedActivationFunction;
  const copies = constantInputCopies(context, node, data.hasBias ? [0, 2, 3] : [0, 2]);
  data.inputCopy = copies[0]!;
  data.timeCopy = copies[1]!;
  data.biasCopy = copies[2] ?? -1;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SvdfF32Data;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  data.k!.f32_svdf(
    data.params,
    inputOffset(context, node, 0, data.inputCopy),
    inputOffset(context, node, 2, data.timeCopy),
    data.hasBias ? inputOffset(context, node, 3, data.biasCopy) : 0,
    context.getEvalTensor(node.inputs[4]!).data.byteOffset,
    output.byteOffset,
  );
  applyActivationToVector(data.activation, output, 0, output.length);
}

/** The float32 SVDF registration. */
export function createSvdfF32(): Registration<SvdfF32Data> {
  return {
    builtinCode: BuiltinOperator.SVDF,
    version: 4,
    provider: PROVIDER,
    name: 'SVDF/wasm-f32',
    supports,
    init: (): SvdfF32Data => ({ k: null, params: 0, inputCopy: -1, timeCopy: -1, biasCopy: -1, hasBias: false, activation: 0 }),
    prepare,
    invoke,
  };
}
