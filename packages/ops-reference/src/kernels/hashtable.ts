/**
 * HASHTABLE (TFLite kernels/hashtable/hashtable.cc, the builtin with HashtableOptions): makes the table
 * `table_id` (int64 → string or string → int64 keys and values) of the interpreter if it does not exist
 * yet, and outputs its id, the resource handle the other hashtable ops take. The output is bound in
 * prepare to a persistent int32 holding the id (as VAR_HANDLE's), so it takes no arena head space and
 * the nodes after it know their table while they prepare. See hashtable-common.ts.
 */
import {
  AllocationType,
  BuiltinOperator,
  KernelError,
  TensorType,
  type HashtableOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { opData } from '@micrort/kernel-support';
import { HashTable, checkKeyValueTypes, tables } from './hashtable-common.js';

const OP = 'HASHTABLE';

interface OpData {
  /** The persistent int32 the output is bound to. */
  id: Int32Array;
  tableId: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (node.inputs.length !== 0) throw new KernelError(OP, node.index, `expects no inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const params = node.builtinData as Partial<HashtableOptions> | null;
  const tableId = params?.tableId ?? 0;
  const keyType = (params?.keyDtype ?? -1) as TensorType;
  const valueType = (params?.valueDtype ?? -1) as TensorType;
  checkKeyValueTypes(OP, node, keyType, valueType);
  const output = context.getTensor(node.outputs[0]!);
  if (output.type !== TensorType.RESOURCE && output.type !== TensorType.INT32)
    throw new KernelError(OP, node.index, `output (tensor ${output.index}) must be a resource (or int32) handle`);
  if (output.elementCount !== 1)
    throw new KernelError(OP, node.index, `output (tensor ${output.index}) must hold one handle, it has ${output.elementCount} elements`);
  const registry = tables(context);
  const existing = registry.get(tableId);
  if (existing && (existing.keyType !== keyType || existing.valueType !== valueType))
    throw new KernelError(OP, node.index, `table ${tableId} already exists with other key and value types`);
  if (!existing) registry.set(tableId, new HashTable(tableId, keyType, valueType));
  d.tableId = tableId;
  d.id = context.allocatePersistentBuffer(4).i32;
  d.id[0] = tableId;
  output.bind(d.id.buffer, d.id.byteOffset, AllocationType.ArenaRwPersistent);
}

function invoke(_context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  d.id[0] = d.tableId;
}

/** The reference HASHTABLE kernel. */
export const HASHTABLE: Registration<OpData> = {
  builtinCode: BuiltinOperator.HASHTABLE,
  provider: PROVIDER,
  name: OP,
  init: () => ({ id: new Int32Array(1), tableId: 0 }),
  prepare,
  invoke,
};
