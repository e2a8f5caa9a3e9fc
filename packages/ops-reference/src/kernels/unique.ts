/**
 * UNIQUE (TFLite unique.cc): the distinct values of a 1-D input in order of first occurrence (output 0)
 * and, for each input element, the position of its value among them (output 1, int32 or int64 by
 * UniqueOptions.idx_out_type). float32, uint8, int8, int16, int32, int64 values; floats compare as C++
 * does (0 equals -0, the first occurrence's bits are kept). Each element is looked up among the
 * distinct values found so far (O(n·u): no allocation, no hashing).
 *
 * The number of distinct values depends on the data. A constant input is counted in prepare, so output 0
 * gets its exact shape; otherwise output 0 is data-dependent, planned at its upper bound [n], and
 * `uniqueInvoke` writes the values and states the actual dims [count] (data-dependent-shape.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  elementSize,
  getInput,
  getOutput,
  type EvalTensor,
  type Node,
  type Registration,
  type TfLiteContext,
  type UniqueOptions,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectSameType, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { boundOutputShape, setActualOutputShape } from './data-dependent-shape.js';
import { copyElements } from './tflite-ops-common.js';

const OP = 'UNIQUE';
const TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.UINT8,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
];
const INDEX_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64];

interface UniqueOpData {
  n: number;
  int64: boolean;
  size: number;
  indexInt64: boolean;
  bounded: boolean;
  /** Output 0's dims at this invoke: [count]. */
  dims: Int32Array;
}

/** Whether elements i of `a` and j of `b` are equal (int64 by their 8 bytes, others by value). */
function same(d: UniqueOpData, a: EvalTensor, i: number, b: EvalTensor, j: number): boolean {
  if (!d.int64) return (a.data as Float32Array)[i] === (b.data as Float32Array)[j];
  const p = i * 8;
  const q = j * 8;
  const x = a.bytes;
  const y = b.bytes;
  for (let k = 0; k < 8; k++) if (x[p + k] !== y[q + k]) return false;
  return true;
}

function writeIndex(out: Uint8Array, i32: Int32Array, int64: boolean, i: number, v: number): void {
  if (!int64) {
    i32[i] = v;
    return;
  }
  const p = i * 8;
  out[p] = v;
  out[p + 1] = v >>> 8;
  out[p + 2] = v >>> 16;
  out[p + 3] = v >>> 24;
  out[p + 4] = 0;
  out[p + 5] = 0;
  out[p + 6] = 0;
  out[p + 7] = 0;
}

/** The distinct count of a constant input (prepare). */
function countDistinct(d: UniqueOpData, x: EvalTensor): number {
  let u = 0;
  for (let i = 0; i < d.n; i++) {
    let k = 0;
    while (k < i && !same(d, x, i, x, k)) k++;
    if (k === i) u++;
  }
  return u;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 2);
  const input = getInput(context, node, 0, OP);
  const values = getOutput(context, node, 0, OP);
  const indices = getOutput(context, node, 1, OP);
  expectType(OP, node, 'input', input, TYPES);
  expectRank(OP, node, 'input', input, 1);
  expectSameType(OP, node, 'input and output 0', input, values);
  expectType(OP, node, 'output 1', indices, INDEX_TYPES);
  const want = (node.builtinData as UniqueOptions | null)?.idxOutType ?? TensorType.INT32;
  if (indices.type !== want)
    throw new KernelError(OP, node.index, `output 1 has type ${TensorType[indices.type]}, idx_out_type says ${TensorType[want] ?? want}`);
  const d = opData<UniqueOpData>(OP, node);
  d.n = input.elementCount;
  d.int64 = input.type === TensorType.INT64;
  d.size = elementSize(input.type)!;
  d.indexInt64 = indices.type === TensorType.INT64;
  d.bounded = !input.isConstant;
  d.dims[0] = d.bounded ? d.n : countDistinct(d, input);
  if (d.bounded) boundOutputShape(OP, context, node, 0, d.dims);
  else setOutputShape(OP, context, node, 0, d.dims);
  setOutputShape(OP, context, node, 1, [d.n]);
}

/** The data-dependent part: fills both outputs and states output 0's actual dims. */
function uniqueInvoke(context: TfLiteContext, node: Node, d: UniqueOpData, x: EvalTensor, values: EvalTensor, indices: EvalTensor): void {
  const i32 = indices.data as Int32Array;
  let u = 0;
  for (let i = 0; i < d.n; i++) {
    let k = 0;
    while (k < u && !same(d, x, i, values, k)) k++;
    if (k === u) copyElements(x.bytes, i, values.bytes, u++, 1, d.size);
    writeIndex(indices.bytes, i32, d.indexInt64, i, k);
  }
  d.dims[0] = u;
  if (d.bounded) setActualOutputShape(context, node, 0, d.dims);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<UniqueOpData>(OP, node);
  uniqueInvoke(
    context,
    node,
    d,
    context.getEvalTensor(node.inputs[0]!),
    context.getEvalTensor(node.outputs[0]!),
    context.getEvalTensor(node.outputs[1]!),
  );
}

/** UNIQUE registration (op version 1). */
export const UNIQUE: Registration<UniqueOpData> = {
  builtinCode: BuiltinOperator.UNIQUE,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 2) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: () => ({ n: 0, int64: false, size: 0, indexInt64: false, bounded: false, dims: new Int32Array(1) }),
  prepare,
  invoke,
};
