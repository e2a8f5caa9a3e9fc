/**
 * SIGN (TFLite sign.cc, after TFLite 2.9): -1, 0 or 1 by the sign of each element, in the input's type
 * (float32, float64, int32). NaN gives 0, as TFLite's `(0 < x) - (x < 0)`.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineTypes, newOpData, fillOpData, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';

const OP = 'SIGN';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.FLOAT64, TensorType.INT32];

interface SignOpData {
  count: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const { count } = prepareUnary(OP, context, node, TYPES);
  fillOpData<SignOpData>(OP, node, { count });
}

function invoke(context: TfLiteContext, node: Node): void {
  const n = opData<SignOpData>(OP, node).count;
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array | Float64Array | Int32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array | Float64Array | Int32Array;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    y[i] = v > 0 ? 1 : v < 0 ? -1 : 0;
  }
}

/** SIGN registration (op versions 1..2). */
export const SIGN: Registration = {
  builtinCode: BuiltinOperator.SIGN,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
