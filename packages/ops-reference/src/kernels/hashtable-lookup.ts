/**
 * HASHTABLE_LOOKUP (TFLite kernels/hashtable_lookup.cc): for each int32 key of input 0, a binary search
 * (glibc's bsearch, with TFLite's comparator `a - b` wrapping as int32) in the sorted int32 keys of
 * input 1; a hit copies that row of the values (input 2, any fixed-size type, or 1-D strings) to the
 * output and writes 1 to the uint8 hits output, a miss writes a zero row (an empty string) and 0. A
 * string output is planned at the lookups' count times the longest value.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  stringHeaderBytes,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { StringWriter, expectType, maxStringBytes, opData, setOutputShape, setStringOutputCapacity } from '@micrort/kernel-support';

const OP = 'HASHTABLE_LOOKUP';

interface OpData {
  rows: number;
  /** Bytes per value row (fixed-size values). */
  rowBytes: number;
  writer: StringWriter | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (node.inputs.length !== 3) throw new KernelError(OP, node.index, `expects 3 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 2) throw new KernelError(OP, node.index, `expects 2 outputs, got ${node.outputs.length}`);
  const lookup = context.getTensor(node.inputs[0]!);
  const keys = context.getTensor(node.inputs[1]!);
  const values = context.getTensor(node.inputs[2]!);
  expectType(OP, node, 'lookup', lookup, [TensorType.INT32]);
  expectType(OP, node, 'keys', keys, [TensorType.INT32]);
  if (lookup.dims.length !== 1 || keys.dims.length !== 1) throw new KernelError(OP, node.index, 'lookup and keys must be 1-D');
  if (values.dims.length < 1 || values.dims[0] !== keys.dims[0])
    throw new KernelError(OP, node.index, `values must have one row per key (${keys.dims[0]}), got [${values.dims.join(',')}]`);
  const output = context.getTensor(node.outputs[0]!);
  if (output.type !== values.type) throw new KernelError(OP, node.index, 'the output must have the values type');
  const n = lookup.dims[0]!;
  setOutputShape(OP, context, node, 1, [n]);
  expectType(OP, node, 'hits', context.getTensor(node.outputs[1]!), [TensorType.UINT8]);
  d.rows = values.dims[0]!;
  if (values.type === TensorType.STRING) {
    if (values.dims.length !== 1) throw new KernelError(OP, node.index, 'string values must be 1-D');
    setOutputShape(OP, context, node, 0, [n]);
    setStringOutputCapacity(OP, context, node, 0, stringHeaderBytes(n) + n * maxStringBytes(values));
    d.writer = new StringWriter(`${OP} output (tensor ${output.index})`);
    return;
  }
  if (elementSize(values.type) === undefined) throw new KernelError(OP, node.index, 'values must have a fixed-size type or be strings');
  setOutputShape(OP, context, node, 0, [n, ...Array.from(values.dims).slice(1)]);
  d.rowBytes = d.rows > 0 ? values.byteLength / d.rows : 0;
}

/** glibc's bsearch of `key` in sorted `keys` with comparator (a - b) | 0: an index or −1. */
function bsearch(keys: Int32Array, key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = (key - keys[mid]!) | 0;
    if (c < 0) hi = mid;
    else if (c > 0) lo = mid + 1;
    else return mid;
  }
  return -1;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const lookup = context.getEvalTensor(node.inputs[0]!).data as Int32Array;
  const keys = context.getEvalTensor(node.inputs[1]!).data as Int32Array;
  const values = context.getEvalTensor(node.inputs[2]!).bytes;
  const output = context.getEvalTensor(node.outputs[0]!).bytes;
  const hits = context.getEvalTensor(node.outputs[1]!).data as Uint8Array;
  const w = d.writer;
  if (w) w.begin(output, lookup.length);
  const rowBytes = d.rowBytes;
  for (let i = 0; i < lookup.length; i++) {
    const idx = bsearch(keys, lookup[i]!);
    const hit = idx >= 0 && idx < d.rows;
    hits[i] = hit ? 1 : 0;
    if (w) {
      if (hit) w.appendString(values, idx);
      else w.end();
    } else if (hit) copyRow(output, i * rowBytes, values, idx * rowBytes, rowBytes);
    else output.fill(0, i * rowBytes, (i + 1) * rowBytes);
  }
  if (w) w.finish();
}

function copyRow(out: Uint8Array, o: number, src: Uint8Array, p: number, n: number): void {
  for (let k = 0; k < n; k++) out[o + k] = src[p + k]!;
}

/** The reference HASHTABLE_LOOKUP kernel. */
export const HASHTABLE_LOOKUP: Registration<OpData> = {
  builtinCode: BuiltinOperator.HASHTABLE_LOOKUP,
  provider: PROVIDER,
  name: OP,
  init: () => ({ rows: 0, rowBytes: 0, writer: null }),
  prepare,
  invoke,
};
