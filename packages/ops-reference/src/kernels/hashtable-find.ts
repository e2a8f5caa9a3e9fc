/**
 * HASHTABLE_FIND (TFLite kernels/hashtable/hashtable_find.cc): looks up each key of input 1 in the table
 * the handle names; a key that is absent gives the default value (input 2). int64 keys give strings,
 * string keys give int64 values; the output has the keys' shape. A table no import has filled fails the
 * invoke ("hashtable need to be initialized before using", as TFLite).
 *
 * A string output is planned at the bound prepare can prove: every output string is one of the table's
 * values (the longest value of the imports prepared before this node) or the default value.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  numElements,
  sameShape,
  stringHeaderBytes,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { StringWriter, maxStringBytes, opData, setStringOutputCapacity } from '@micrort/kernel-support';
import { checkKeyValueTypes, resourceInput, tableAt } from './hashtable-common.js';

const OP = 'HASHTABLE_FIND';

interface OpData {
  writer: StringWriter;
}

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length !== 3) throw new KernelError(OP, node.index, `expects 3 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const { table } = resourceInput(OP, context, node);
  const keys = context.getTensor(node.inputs[1]!);
  const dflt = context.getTensor(node.inputs[2]!);
  const output = context.getTensor(node.outputs[0]!);
  if (dflt.type !== output.type) throw new KernelError(OP, node.index, 'the default value and the output must have one type');
  checkKeyValueTypes(OP, node, keys.type, output.type);
  if (table && (table.keyType !== keys.type || table.valueType !== output.type))
    throw new KernelError(OP, node.index, `the keys and the output do not have the types of table ${table.id}`);
  if (dflt.elementCount !== 1)
    throw new KernelError(OP, node.index, `the default value must hold one element, it has ${dflt.elementCount}`);
  if (!sameShape(output.dims, keys.dims))
    throw new KernelError(OP, node.index, `output shape [${output.dims.join(',')}] differs from the keys' [${keys.dims.join(',')}]`);
  if (output.type === TensorType.STRING) {
    opData<OpData>(OP, node).writer = new StringWriter(`${OP} output (tensor ${output.index})`);
    if (!table) throw new KernelError(OP, node.index, 'the table is not known in prepare, so the strings it returns have no size bound');
    const each = Math.max(table.maxValueBytes, maxStringBytes(dflt));
    setStringOutputCapacity(OP, context, node, 0, stringHeaderBytes(output.elementCount) + output.elementCount * each);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const table = tableAt(OP, context, node, context.getEvalTensor(node.inputs[0]!));
  const storage = table.storage;
  if (!storage)
    throw new KernelError(OP, node.index, `hashtable need to be initialized before using (table ${table.id} was never imported)`);
  const keys = context.getEvalTensor(node.inputs[1]!);
  const dflt = context.getEvalTensor(node.inputs[2]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const n = numElements(keys.dims);
  if (output.type === TensorType.STRING) {
    const w = d.writer;
    w.begin(output.bytes, n);
    for (let i = 0; i < n; i++) {
      const e = storage.find(keys.bytes, keys.words, i);
      if (e >= 0) w.appendString(storage.values, e);
      else w.appendString(dflt.bytes, 0);
    }
    w.finish();
    return;
  }
  const out = output.words;
  for (let i = 0; i < n; i++) {
    const e = storage.find(keys.bytes, keys.words, i);
    out[2 * i] = e >= 0 ? storage.valueWords[2 * e]! : dflt.words[0]!;
    out[2 * i + 1] = e >= 0 ? storage.valueWords[2 * e + 1]! : dflt.words[1]!;
  }
}

/** The reference HASHTABLE_FIND kernel. */
export const HASHTABLE_FIND: Registration<OpData> = {
  builtinCode: BuiltinOperator.HASHTABLE_FIND,
  provider: PROVIDER,
  name: OP,
  init: () => ({ writer: new StringWriter() }),
  prepare,
  invoke,
};
