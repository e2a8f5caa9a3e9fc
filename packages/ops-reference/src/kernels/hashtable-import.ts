/**
 * HASHTABLE_IMPORT (TFLite kernels/hashtable/hashtable_import.cc): fills the table the handle names with
 * the pairs of the key and value tensors (1-D, one shape; int64 → string or string → int64), once: the
 * table keeps the first import that runs and ignores the later ones, as TFLite's static table does.
 * The storage is this node's, sized in prepare (see hashtable-common.ts).
 */
import { BuiltinOperator, KernelError, TensorType, sameShape, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { maxStringBytes, opData } from '@micrort/kernel-support';
import { TableStorage, checkKeyValueTypes, resourceInput, tableAt } from './hashtable-common.js';

const OP = 'HASHTABLE_IMPORT';

interface OpData {
  storage: TableStorage | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (node.inputs.length !== 3) throw new KernelError(OP, node.index, `expects 3 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 0) throw new KernelError(OP, node.index, `expects no outputs, got ${node.outputs.length}`);
  const { table } = resourceInput(OP, context, node);
  const keys = context.getTensor(node.inputs[1]!);
  const values = context.getTensor(node.inputs[2]!);
  checkKeyValueTypes(OP, node, keys.type, values.type);
  if (!sameShape(keys.dims, values.dims))
    throw new KernelError(OP, node.index, `keys [${keys.dims.join(',')}] and values [${values.dims.join(',')}] must have one shape`);
  if (table && (table.keyType !== keys.type || table.valueType !== values.type))
    throw new KernelError(OP, node.index, `the keys and values do not have the types of table ${table.id}`);
  if (table && values.type === TensorType.STRING) table.maxValueBytes = Math.max(table.maxValueBytes, maxStringBytes(values));
  d.storage = new TableStorage(context, keys.type, keys.elementCount, keys.byteLength, values.byteLength);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const table = tableAt(OP, context, node, context.getEvalTensor(node.inputs[0]!));
  if (table.storage) return; // imported already: TFLite ignores later imports
  d.storage!.load(context.getEvalTensor(node.inputs[1]!), context.getEvalTensor(node.inputs[2]!));
  table.storage = d.storage;
}

/** The reference HASHTABLE_IMPORT kernel. */
export const HASHTABLE_IMPORT: Registration<OpData> = {
  builtinCode: BuiltinOperator.HASHTABLE_IMPORT,
  provider: PROVIDER,
  name: OP,
  init: () => ({ storage: null }),
  prepare,
  invoke,
};
