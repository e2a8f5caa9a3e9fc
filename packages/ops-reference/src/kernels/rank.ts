/**
 * RANK (TFLite rank.cc): the number of dimensions of the input, as a 0-D int32 tensor. The input's data
 * are never read, so any element type is taken, strings included.
 */
import {
  BuiltinOperator,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectType, fillOpData, newOpData, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { fixedElementSize, supportsFixedSize } from './tflite-ops-common.js';

const OP = 'RANK';

interface RankOpData {
  rank: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  if (input.type !== TensorType.STRING) fixedElementSize(OP, node, 'input', input);
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
  supports: (context, node) =>
    declineArity(node, 1, 1) ?? (context.getTensor(node.inputs[0]!).type === TensorType.STRING || supportsFixedSize(context, node)),
  // A data-dependent input keeps its bound's rank: nothing to read at invoke.
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
