/**
 * ONE_HOT (TFLite one_hot.cc): int32/int64 indices → a tensor with a new dimension of size `depth` at
 * `axis` (-1: innermost), holding `on_value` where the index equals the position and `off_value`
 * elsewhere (an index outside [0, depth) gives a row of off values). on/off values of float32, int32,
 * int64, bool, uint8 or int8, moved as bytes; an int64 index is compared through its low 32 bits, as
 * TFLite's `static_cast<int>`. `depth` is read in prepare from a constant; with a runtime depth there is
 * no bound (data-dependent-shape.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type OneHotOptions,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  declineArity,
  declineTypes,
  expectSameType,
  expectType,
  fillOpData,
  newOpData,
  opData,
  setOutputShape,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { int64Low32At } from './data-common.js';
import { constantInts, copyElements, fixedElementSize } from './tflite-ops-common.js';

const OP = 'ONE_HOT';
const VALUE_TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.UINT8,
  TensorType.INT8,
];
const INDEX_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT64];

interface OneHotOpData {
  prefix: number;
  depth: number;
  suffix: number;
  size: number;
  int64: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 4, 1);
  const indices = getInput(context, node, 0, OP);
  const depthTensor = getInput(context, node, 1, OP);
  const on = getInput(context, node, 2, OP);
  const off = getInput(context, node, 3, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'indices', indices, INDEX_TYPES);
  expectType(OP, node, 'depth', depthTensor, [TensorType.INT32]);
  expectType(OP, node, 'on_value', on, VALUE_TYPES);
  expectSameType(OP, node, 'on_value and off_value', on, off);
  expectSameType(OP, node, 'on_value and output', on, output);
  if (depthTensor.elementCount !== 1 || on.elementCount !== 1 || off.elementCount !== 1)
    throw new KernelError(OP, node.index, 'depth, on_value and off_value must be scalars');
  const rank = indices.dims.length;
  const rawAxis = (node.builtinData as OneHotOptions | null)?.axis ?? -1;
  const axis = rawAxis === -1 ? rank : rawAxis;
  if (axis < 0 || axis > rank) throw new KernelError(OP, node.index, `axis ${rawAxis} is out of range for indices of rank ${rank}`);
  const depthValues = constantInts(OP, node, depthTensor, 'depth');
  if (depthValues === null) noShapeBound(OP, context, node, 0, 'the depth input is not constant');
  const depth = depthValues[0]!;
  if (depth < 0) throw new KernelError(OP, node.index, `depth ${depth} is negative`);
  const dims = Array.from(indices.dims);
  dims.splice(axis, 0, depth);
  setOutputShape(OP, context, node, 0, dims);
  let prefix = 1;
  for (let i = 0; i < axis; i++) prefix *= indices.dims[i]!;
  fillOpData<OneHotOpData>(OP, node, {
    prefix,
    depth,
    suffix: prefix === 0 ? 0 : indices.elementCount / prefix,
    size: fixedElementSize(OP, node, 'on_value', on),
    int64: indices.type === TensorType.INT64,
  });
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OneHotOpData>(OP, node);
  const idx = context.getEvalTensor(node.inputs[0]!);
  const i32 = idx.data as Int32Array;
  const on = context.getEvalTensor(node.inputs[2]!).bytes;
  const off = context.getEvalTensor(node.inputs[3]!).bytes;
  const out = context.getEvalTensor(node.outputs[0]!).bytes;
  const { prefix, depth, suffix, size } = d;
  let o = 0;
  for (let i = 0; i < prefix; i++)
    for (let j = 0; j < depth; j++)
      for (let k = 0; k < suffix; k++, o++) {
        const at = i * suffix + k;
        const index = d.int64 ? int64Low32At(idx.bytes, at) : i32[at]!;
        copyElements(index === j ? on : off, 0, out, o, 1, size);
      }
}

/** ONE_HOT registration (op version 1). */
export const ONE_HOT: Registration = {
  builtinCode: BuiltinOperator.ONE_HOT,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 4, 1) ?? declineTypes(context, node, [0], INDEX_TYPES, VALUE_TYPES) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
