/**
 * ATAN2 (TFLite atan2.cc, after TFLite 2.9): atan2(y, x) elementwise over two tensors of one shape
 * (TFLite does not broadcast it), float32 or float64. float32 is computed in double and rounded once
 * (C's atan2f may differ by an ulp).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  declineArity,
  declineTypes,
  expectSameType,
  expectType,
  fillOpData,
  newOpData,
  opData,
  sameDims,
  setOutputShape,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';

const OP = 'ATAN2';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.FLOAT64];

interface Atan2OpData {
  count: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const y = getInput(context, node, 0, OP);
  const x = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'y', y, TYPES);
  expectSameType(OP, node, 'y and x', y, x);
  expectSameType(OP, node, 'inputs and output', y, output);
  if (!sameDims(y.dims, x.dims))
    throw new KernelError(OP, node.index, `y [${y.dims.join(',')}] and x [${x.dims.join(',')}] must have the same shape`);
  setOutputShape(OP, context, node, 0, y.dims);
  fillOpData<Atan2OpData>(OP, node, { count: output.elementCount });
}

function invoke(context: TfLiteContext, node: Node): void {
  const n = opData<Atan2OpData>(OP, node).count;
  const y = context.getEvalTensor(node.inputs[0]!).data as Float32Array | Float64Array;
  const x = context.getEvalTensor(node.inputs[1]!).data as Float32Array | Float64Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array | Float64Array;
  for (let i = 0; i < n; i++) out[i] = Math.atan2(y[i]!, x[i]!);
}

/** ATAN2 registration (op version 1). */
export const ATAN2: Registration = {
  builtinCode: BuiltinOperator.ATAN2,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0, 1], TYPES) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
