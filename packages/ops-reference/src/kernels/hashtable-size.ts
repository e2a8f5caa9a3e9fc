/**
 * HASHTABLE_SIZE (TFLite kernels/hashtable/hashtable_size.cc): the number of distinct keys of the table
 * the handle names, as an int64 [1] (0 before any import).
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { resourceInput, tableAt } from './hashtable-common.js';

const OP = 'HASHTABLE_SIZE';

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 input, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  resourceInput(OP, context, node);
  const output = context.getTensor(node.outputs[0]!);
  if (output.type !== TensorType.INT64 || output.elementCount !== 1)
    throw new KernelError(OP, node.index, `output (tensor ${output.index}) must be an int64 of one element`);
}

function invoke(context: TfLiteContext, node: Node): void {
  const table = tableAt(OP, context, node, context.getEvalTensor(node.inputs[0]!));
  const out = context.getEvalTensor(node.outputs[0]!).words;
  out[0] = table.storage ? table.storage.size : 0;
  out[1] = 0;
}

/** The reference HASHTABLE_SIZE kernel. */
export const HASHTABLE_SIZE: Registration = {
  builtinCode: BuiltinOperator.HASHTABLE_SIZE,
  provider: PROVIDER,
  name: OP,
  prepare,
  invoke,
};
