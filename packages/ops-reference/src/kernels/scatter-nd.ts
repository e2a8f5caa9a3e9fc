/**
 * SCATTER_ND (TFLite scatter_nd.cc, reference_ops::ScatterNd): a zero tensor of `shape` into which each
 * slice of `updates` is added at the position its int32 index tuple names (duplicates accumulate; bool
 * updates are OR-ed, as TFLite's bool specialization). float32, uint8, int8, int32, int64 (added as two
 * 32-bit words with carry) and bool updates. A slice that falls outside the output fails the invoke, as
 * in TFLite. The shape is read in prepare from a constant; a runtime shape has no bound.
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
import { declineArity, declineTypes, expectRank, expectSameType, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts, expectShapeValues } from './tflite-ops-common.js';

const OP = 'SCATTER_ND';
const TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.UINT8,
  TensorType.INT8,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
];

interface ScatterNdOpData {
  type: TensorType;
  slices: number;
  sliceSize: number;
  indexDepth: number;
  /** Elements per step of each indexed dimension. */
  strides: Int32Array;
  outputSize: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 3, 1);
  const indices = getInput(context, node, 0, OP);
  const updates = getInput(context, node, 1, OP);
  const shapeTensor = getInput(context, node, 2, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'indices', indices, [TensorType.INT32]);
  expectType(OP, node, 'updates', updates, TYPES);
  expectType(OP, node, 'shape', shapeTensor, [TensorType.INT32]);
  expectSameType(OP, node, 'updates and output', updates, output);
  expectRank(OP, node, 'shape', shapeTensor, 1);
  if (indices.dims.length < 1 || updates.dims.length < 1)
    throw new KernelError(OP, node.index, 'indices and updates must have at least 1 dimension');
  const shape = constantInts(OP, node, shapeTensor, 'shape');
  if (shape === null) noShapeBound(OP, context, node, 0, 'the shape input is not constant');
  expectShapeValues(OP, node, 'shape', shape);
  const outer = indices.dims.length - 1;
  const depth = indices.dims[outer]!;
  const uRank = updates.dims.length;
  if (depth > shape.length) throw new KernelError(OP, node.index, `index tuples of ${depth} values for an output of rank ${shape.length}`);
  if (uRank !== outer + shape.length - depth)
    throw new KernelError(OP, node.index, `updates has rank ${uRank}, expected ${outer + shape.length - depth}`);
  for (let i = 0; i < outer; i++)
    if (indices.dims[i] !== updates.dims[i])
      throw new KernelError(OP, node.index, `indices dimension ${i} is ${indices.dims[i]}, updates dimension ${i} is ${updates.dims[i]}`);
  for (let i = 0; i < uRank - outer; i++)
    if (updates.dims[i + outer] !== shape[i + depth])
      throw new KernelError(
        OP,
        node.index,
        `updates dimension ${i + outer} is ${updates.dims[i + outer]}, shape[${i + depth}] is ${shape[i + depth]}`,
      );
  setOutputShape(OP, context, node, 0, shape);
  const d = opData<ScatterNdOpData>(OP, node);
  let slices = 1;
  for (let i = 0; i < outer; i++) slices *= indices.dims[i]!;
  let sliceSize = 1;
  for (let i = outer; i < uRank; i++) sliceSize *= updates.dims[i]!;
  const outputSize = output.elementCount;
  d.strides = new Int32Array(depth);
  let remain = outputSize;
  for (let i = 0; i < depth; i++) {
    remain = shape[i] === 0 ? 0 : remain / shape[i]!;
    d.strides[i] = remain;
  }
  d.type = updates.type;
  d.slices = slices;
  d.sliceSize = sliceSize;
  d.indexDepth = depth;
  d.outputSize = outputSize;
}

/** dst[di] += src[si] for little-endian int64 elements given as bytes (two 32-bit words with carry). */
function addInt64(dst: Uint8Array, di: number, src: Uint8Array, si: number): void {
  const a = di * 8;
  const b = si * 8;
  const aLo = (dst[a]! | (dst[a + 1]! << 8) | (dst[a + 2]! << 16) | (dst[a + 3]! << 24)) >>> 0;
  const bLo = (src[b]! | (src[b + 1]! << 8) | (src[b + 2]! << 16) | (src[b + 3]! << 24)) >>> 0;
  const lo = aLo + bLo;
  const carry = lo > 0xffffffff ? 1 : 0;
  const hi =
    ((dst[a + 4]! | (dst[a + 5]! << 8) | (dst[a + 6]! << 16) | (dst[a + 7]! << 24)) +
      (src[b + 4]! | (src[b + 5]! << 8) | (src[b + 6]! << 16) | (src[b + 7]! << 24)) +
      carry) |
    0;
  dst[a] = lo;
  dst[a + 1] = lo >>> 8;
  dst[a + 2] = lo >>> 16;
  dst[a + 3] = lo >>> 24;
  dst[a + 4] = hi;
  dst[a + 5] = hi >>> 8;
  dst[a + 6] = hi >>> 16;
  dst[a + 7] = hi >>> 24;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ScatterNdOpData>(OP, node);
  const indices = context.getEvalTensor(node.inputs[0]!).data as Int32Array;
  const upd = context.getEvalTensor(node.inputs[1]!);
  const out = context.getEvalTensor(node.outputs[0]!);
  const { slices, sliceSize, indexDepth, strides, outputSize, type } = d;
  out.bytes.fill(0);
  const u = upd.data as Float32Array | Int32Array | Uint8Array | Int8Array;
  const o = out.data as Float32Array | Int32Array | Uint8Array | Int8Array;
  for (let i = 0; i < slices; i++) {
    let to = 0;
    for (let j = 0; j < indexDepth; j++) to += indices[i * indexDepth + j]! * strides[j]!;
    if (to < 0 || to + sliceSize > outputSize)
      throw new KernelError(OP, node.index, `index tuple ${i} addresses elements [${to}, ${to + sliceSize}) of an output of ${outputSize}`);
    const from = i * sliceSize;
    if (type === TensorType.INT64) for (let k = 0; k < sliceSize; k++) addInt64(out.bytes, to + k, upd.bytes, from + k);
    else if (type === TensorType.BOOL) for (let k = 0; k < sliceSize; k++) o[to + k] = o[to + k]! | u[from + k]!;
    else for (let k = 0; k < sliceSize; k++) o[to + k] = o[to + k]! + u[from + k]!;
  }
}

/** SCATTER_ND registration (op version 1). */
export const SCATTER_ND: Registration<ScatterNdOpData> = {
  builtinCode: BuiltinOperator.SCATTER_ND,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 3, 1) ?? declineTypes(context, node, [1], TYPES) ?? true,
  init: () => ({ type: TensorType.FLOAT32, slices: 0, sliceSize: 0, indexDepth: 0, strides: new Int32Array(0), outputSize: 0 }),
  prepare,
  invoke,
};
