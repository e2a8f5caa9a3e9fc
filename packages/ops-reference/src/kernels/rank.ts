/**
 * RANK (TFLite rank.cc): the number of dimensions of the input, as a 0-D int32 tensor. The input's data
 * are never read, so any fixed-size element type is taken (string inputs are not held by this runtime).
 */
import {
  BuiltinOperator,
  TensorType,
  checkArity,
  elementSize,
  getInput,
  getOutput,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { TensorTypeError, declineArity, expectType, fillOpData, newOpData, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';

const OP = 'RANK';

interface RankOpData {
  rank: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  if (elementSize(input.type) === undefined) throw new TensorTypeError(OP, node.index, 'input', input.index, input.type, []);
  expectType(OP, node, 'output', getOutput(context, node, 0, OP), [TensorType.INT32]);
  setOutputShape(OP, context, node, 0, []);
  fillOpData<RankOpData>(OP, node, { rank: input.dims.length });
}

function invoke(context: TfLiteContext, node: Node): void {
  (context.getEvalTensor(node.outputs[0]!).data as Int32Array)[0] = opData<RankOpData>(OP, node).rank;
}

/** RANK registration (op version 1). */
export const RANK: Registration = {
  builtinCode: BuiltinOperator.RANK,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => {
    const why = declineArity(node, 1, 1);
    if (why) return why;
    const t = context.getTensor(node.inputs[0]!);
    return elementSize(t.type) === undefined ? `${tensorTypeName(t.type)} input (handles fixed-size element types)` : true;
  },
  init: newOpData,
  prepare,
  invoke,
};
