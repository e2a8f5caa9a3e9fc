/**
 * SVDF, float32, in WebAssembly: f32_svdf (assembly/float/svdf.ts), TFLM's EvalFloatSvdfReference within
 * micrort's float tolerance (its sums run in another order). The state is the model's variable tensor,
 * updated in place at each invoke; the feature weights are packed at prepare (rows padded to 8 floats,
 * filters to 4); the fused activation (any the float kernels take) is kernel-support's
 * applyActivationToVector over the output, as ops-reference. Shapes and checks are kernel-support's
 * svdfTensors. Declines the hybrid SVDF (quantized weights) and feature weights not fixed at prepare.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { SVDF_REQUIRED_INPUTS, applyActivationToVector, declineArity, isVectorActivation, svdfTensors } from '@micrort/kernel-support';
import { PROVIDER } from '../../provider.js';
import { inputOffset } from '../kernel-common.js';
import { svdfInputCopies, svdfLayout, writeSvdfBlock, type SvdfCopies } from '../svdf-common.js';
import { declineNonFloat, floatKernelsFor, hasFixedData, type FloatKernelExports } from './float-common.js';

const OP = 'SVDF';

interface SvdfF32Data extends SvdfCopies {
  k: FloatKernelExports | null;
  params: number;
  activation: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 5, 1);
  if (arity) return arity;
  // a missing required input: prepare (svdfTensors) reports it as a KernelError
  if (SVDF_REQUIRED_INPUTS.some((p) => node.inputs[p]! < 0)) return true;
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
  const layout = svdfLayout(t, 4, 4);
  const region = context.allocatePersistentBuffer(layout.bytes);
  data.k = floatKernelsFor(OP, node, region);
  data.params = region.offset;
  writeSvdfBlock(region, t, layout, region.f32.subarray(layout.featureAt / 4, layout.rowAt / 4));
  data.activation = t.options.fusedActivationFunction;
  svdfInputCopies(context, node, t, data);
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
