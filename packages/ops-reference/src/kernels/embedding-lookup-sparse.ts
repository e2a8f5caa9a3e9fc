/**
 * EMBEDDING_LOOKUP_SPARSE (TFLite embedding_lookup_sparse.cc): a sparse tensor of ids (int32 ids [n],
 * int32 indices [n, r], int32 dense_shape [r]) with float32 weights [n] looks rows up in the float32
 * value tensor [rows, …] and combines the weighted rows that share a bucket (the index without its last
 * coordinate) by SUM, MEAN (divided by the weight sum) or SQRTN (divided by √Σw²). Consecutive ids of a
 * bucket are combined, as TFLite walks them; buckets no id names stay zero. An id or index out of range
 * fails the invoke. The output is dense_shape[0..r-2] + value.dims[1..], read in prepare from a constant
 * dense_shape; a runtime dense_shape has no bound (data-dependent-shape.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type EmbeddingLookupSparseOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts } from './tflite-ops-common.js';

const OP = 'EMBEDDING_LOOKUP_SPARSE';
const I32: readonly TensorType[] = [TensorType.INT32];
const F32: readonly TensorType[] = [TensorType.FLOAT32];

interface ElsOpData {
  lookups: number;
  lookupRank: number;
  rows: number;
  embedding: number;
  outputSize: number;
  combiner: number;
  denseShape: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 5, 1);
  const ids = getInput(context, node, 0, OP);
  const indices = getInput(context, node, 1, OP);
  const shape = getInput(context, node, 2, OP);
  const weights = getInput(context, node, 3, OP);
  const value = getInput(context, node, 4, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'ids', ids, I32);
  expectRank(OP, node, 'ids', ids, 1);
  expectType(OP, node, 'indices', indices, I32);
  expectRank(OP, node, 'indices', indices, 2);
  expectType(OP, node, 'dense_shape', shape, I32);
  expectRank(OP, node, 'dense_shape', shape, 1);
  expectType(OP, node, 'weights', weights, F32);
  expectRank(OP, node, 'weights', weights, 1);
  expectType(OP, node, 'value', value, F32);
  expectType(OP, node, 'output', output, F32);
  const n = ids.dims[0]!;
  if (indices.dims[0] !== n || weights.dims[0] !== n)
    throw new KernelError(OP, node.index, `ids, indices and weights must have as many rows (${n}, ${indices.dims[0]}, ${weights.dims[0]})`);
  if (value.dims.length < 2) throw new KernelError(OP, node.index, 'value must have at least 2 dimensions');
  const lookupRank = indices.dims[1]!;
  if (shape.dims[0] !== lookupRank)
    throw new KernelError(OP, node.index, `dense_shape has ${shape.dims[0]} values, indices ${lookupRank} columns`);
  const dense = constantInts(OP, node, shape, 'dense_shape');
  if (dense === null) noShapeBound(OP, context, node, 0, 'the dense_shape input is not constant');
  const outDims = [...dense.slice(0, lookupRank - 1), ...Array.from(value.dims).slice(1)];
  setOutputShape(OP, context, node, 0, outDims);
  const d = opData<ElsOpData>(OP, node);
  d.lookups = n;
  d.lookupRank = lookupRank;
  d.rows = value.dims[0]!;
  d.embedding = value.dims[0] === 0 ? 0 : value.elementCount / value.dims[0]!;
  d.outputSize = output.elementCount;
  d.combiner = (node.builtinData as EmbeddingLookupSparseOptions | null)?.combiner ?? 0;
  d.denseShape = Int32Array.from(dense);
}

/** TFLite's FinalizeAggregation: MEAN divides by the weight sum, SQRTN by √Σw², SUM leaves the bucket. */
function finalize(d: ElsOpData, out: Float32Array, at: number, count: number, total: number, squares: number): void {
  if (d.combiner === 0 || count === 0) return;
  const m = d.combiner === 1 ? total : Math.fround(Math.sqrt(squares));
  for (let k = 0; k < d.embedding; k++) out[at + k] = out[at + k]! / m;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ElsOpData>(OP, node);
  const ids = context.getEvalTensor(node.inputs[0]!).data as Int32Array;
  const indices = context.getEvalTensor(node.inputs[1]!).data as Int32Array;
  const weights = context.getEvalTensor(node.inputs[3]!).data as Float32Array;
  const value = context.getEvalTensor(node.inputs[4]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { lookupRank, embedding, denseShape } = d;
  const f = Math.fround;
  out.fill(0, 0, d.outputSize);
  let current = 0;
  let total = 0;
  let squares = 0;
  let count = 0;
  for (let i = 0; i < d.lookups; i++) {
    const id = ids[i]!;
    if (id < 0 || id >= d.rows) throw new KernelError(OP, node.index, `ids[${i}] = ${id} is outside [0, ${d.rows})`);
    let bucket = 0;
    let stride = 1;
    for (let k = lookupRank - 2; k >= 0; k--) {
      const v = indices[i * lookupRank + k]!;
      if (v < 0 || v >= denseShape[k]!)
        throw new KernelError(OP, node.index, `indices[${i}][${k}] = ${v} is outside [0, ${denseShape[k]})`);
      bucket += v * stride;
      stride *= denseShape[k]!;
    }
    const at = bucket * embedding;
    if (at !== current) {
      finalize(d, out, current, count, total, squares);
      count = 0;
      total = 0;
      squares = 0;
      current = at;
    }
    count++;
    const w = weights[i]!;
    squares = f(squares + f(w * w));
    total = f(total + w);
    const from = id * embedding;
    for (let k = 0; k < embedding; k++) out[at + k] = out[at + k]! + f(value[from + k]! * w);
  }
  finalize(d, out, current, count, total, squares);
}

/** EMBEDDING_LOOKUP_SPARSE registration (op version 1). */
export const EMBEDDING_LOOKUP_SPARSE: Registration<ElsOpData> = {
  builtinCode: BuiltinOperator.EMBEDDING_LOOKUP_SPARSE,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 5, 1) ?? declineTypes(context, node, [4], F32) ?? true,
  init: () => ({ lookups: 0, lookupRank: 0, rows: 0, embedding: 0, outputSize: 0, combiner: 0, denseShape: new Int32Array(0) }),
  prepare,
  invoke,
};
