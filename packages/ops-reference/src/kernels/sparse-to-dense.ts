/**
 * SPARSE_TO_DENSE (TFLite sparse_to_dense.cc, reference_ops::SparseToDense): an output of
 * `output_shape` (at most 4-D) filled with `default_value`, then `values[i]` (or the single value of a
 * 0-D `values`) written at each index: a 0-/1-D `indices` names positions of a 1-D output, a 2-D
 * [N, rank] one full index tuples (a 0-D `values` only with a single index, as TFLite checks). float32, int32, int64, int8, uint8 values (moved as bytes); int32 or
 * int64 indices and shape. An index outside the output fails the invoke (TFLite writes out of bounds).
 * `validate_indices` is ignored, as TFLite ignores it. The shape is read in prepare from a constant; a
 * runtime shape has no bound.
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
import { declineArity, declineTypes, expectSameType, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { int64At } from './data-common.js';
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts, copyElements, expectShapeValues, fixedElementSize } from './tflite-ops-common.js';

const OP = 'SPARSE_TO_DENSE';
const VALUE_TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32, TensorType.INT64, TensorType.INT8, TensorType.UINT8];
const INDEX_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64];

interface SparseToDenseOpData {
  count: number;
  /** Index tuple length (1 for 0-/1-D indices). */
  depth: number;
  /** The output's dimensions (a tuple's bounds) and row-major strides. */
  dims: Int32Array;
  strides: Int32Array;
  scalarValue: boolean;
  int64: boolean;
  size: number;
  outputSize: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 4, 1);
  const indices = getInput(context, node, 0, OP);
  const shapeTensor = getInput(context, node, 1, OP);
  const values = getInput(context, node, 2, OP);
  const dflt = getInput(context, node, 3, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'indices', indices, INDEX_TYPES);
  expectType(OP, node, 'output_shape', shapeTensor, INDEX_TYPES);
  expectType(OP, node, 'values', values, VALUE_TYPES);
  expectSameType(OP, node, 'values and default_value', values, dflt);
  expectSameType(OP, node, 'values and output', values, output);
  if (indices.dims.length > 2) throw new KernelError(OP, node.index, `indices has ${indices.dims.length} dimensions, at most 2`);
  if (shapeTensor.dims.length !== 1) throw new KernelError(OP, node.index, 'output_shape must be 1-D');
  if (values.dims.length > 1) throw new KernelError(OP, node.index, `values has ${values.dims.length} dimensions, at most 1`);
  if (dflt.elementCount !== 1) throw new KernelError(OP, node.index, 'default_value must hold one value');
  const rank = shapeTensor.dims[0]!;
  const count = indices.dims.length === 0 ? 1 : indices.dims[0]!;
  const depth = indices.dims.length === 2 ? indices.dims[1]! : 1;
  if (depth !== rank) throw new KernelError(OP, node.index, `index tuples of ${depth} values for an output of rank ${rank}`);
  if (rank > 4) throw new KernelError(OP, node.index, `the output has ${rank} dimensions, at most 4`);
  if (values.dims.length === 1 && values.dims[0]! < count)
    throw new KernelError(OP, node.index, `values has ${values.dims[0]} entries for ${count} indices`);
  // TFLite's CheckDimensionsMatch: a 0-D value goes with exactly one index.
  if (values.dims.length === 0 && count !== 1)
    throw new KernelError(OP, node.index, `a scalar value goes with one index, got ${count} (TFLite refuses this too)`);
  const shape = constantInts(OP, node, shapeTensor, 'output_shape');
  if (shape === null) noShapeBound(OP, context, node, 0, 'the output_shape input is not constant');
  expectShapeValues(OP, node, 'output_shape', shape);
  setOutputShape(OP, context, node, 0, shape);
  const d = opData<SparseToDenseOpData>(OP, node);
  d.count = count;
  d.depth = depth;
  d.dims = Int32Array.from(shape);
  d.strides = new Int32Array(rank);
  for (let i = rank - 1, s = 1; i >= 0; i--) {
    d.strides[i] = s;
    s *= shape[i]!;
  }
  d.scalarValue = values.dims.length === 0;
  d.int64 = indices.type === TensorType.INT64;
  d.size = fixedElementSize(OP, node, 'values', values);
  d.outputSize = output.elementCount;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SparseToDenseOpData>(OP, node);
  const idx = context.getEvalTensor(node.inputs[0]!);
  const values = context.getEvalTensor(node.inputs[2]!).bytes;
  const dflt = context.getEvalTensor(node.inputs[3]!).bytes;
  const out = context.getEvalTensor(node.outputs[0]!).bytes;
  const { count, depth, dims, strides, size } = d;
  for (let i = 0; i < d.outputSize; i++) copyElements(dflt, 0, out, i, 1, size);
  const i32 = idx.data as Int32Array;
  for (let i = 0; i < count; i++) {
    let at = 0;
    for (let j = 0; j < depth; j++) {
      const v = d.int64 ? int64At(idx.bytes, i * depth + j) : i32[i * depth + j]!;
      if (v < 0 || v >= dims[j]!) throw new KernelError(OP, node.index, `index ${i}, coordinate ${j} = ${v} is outside [0, ${dims[j]})`);
      at += v * strides[j]!;
    }
    copyElements(values, d.scalarValue ? 0 : i, out, at, 1, size);
  }
}

/** SPARSE_TO_DENSE registration (op versions 1..3). */
export const SPARSE_TO_DENSE: Registration<SparseToDenseOpData> = {
  builtinCode: BuiltinOperator.SPARSE_TO_DENSE,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 4, 1) ?? declineTypes(context, node, [2], VALUE_TYPES) ?? true,
  init: () => ({
    count: 0,
    depth: 0,
    dims: new Int32Array(0),
    strides: new Int32Array(0),
    scalarValue: false,
    int64: false,
    size: 0,
    outputSize: 0,
  }),
  prepare,
  invoke,
};
