/**
 * LOCAL_RESPONSE_NORMALIZATION (TFLite local_response_norm.cc, the generic optimized kernel that
 * BuiltinOpResolver registers): a 4-D float32 input, each value divided by
 * (bias + alpha·Σ x²)^beta, the sum over the channels within `radius` of its own (both ends included,
 * as optimized_ops computes it; reference_ops stops one short of c + radius).
 */
import {
  BuiltinOperator,
  TensorType,
  type LocalResponseNormalizationOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, fillOpData, newOpData, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';

const OP = 'LOCAL_RESPONSE_NORMALIZATION';
const F32: readonly TensorType[] = [TensorType.FLOAT32];

interface LrnOpData {
  outer: number;
  depth: number;
  radius: number;
  bias: number;
  alpha: number;
  beta: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const { input } = prepareUnary(OP, context, node, F32);
  expectRank(OP, node, 'input', input, 4);
  const o = node.builtinData as LocalResponseNormalizationOptions | null;
  const depth = input.dims[3]!;
  fillOpData<LrnOpData>(OP, node, {
    outer: depth === 0 ? 0 : input.elementCount / depth,
    depth,
    radius: o?.radius ?? 0,
    bias: o?.bias ?? 0,
    alpha: o?.alpha ?? 0,
    beta: o?.beta ?? 0,
  });
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<LrnOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { outer, depth, radius, bias, alpha, beta } = d;
  for (let i = 0; i < outer; i++) {
    const base = i * depth;
    for (let c = 0; c < depth; c++) {
      const begin = c - radius < 0 ? 0 : c - radius;
      const end = c + radius >= depth ? depth - 1 : c + radius;
      let sum = 0;
      for (let k = begin; k <= end; k++) {
        const v = x[base + k]!;
        sum += v * v;
      }
      y[base + c] = x[base + c]! * Math.pow(bias + alpha * sum, -beta);
    }
  }
}

/** LOCAL_RESPONSE_NORMALIZATION registration (op version 1). */
export const LOCAL_RESPONSE_NORMALIZATION: Registration = {
  builtinCode: BuiltinOperator.LOCAL_RESPONSE_NORMALIZATION,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], F32) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
