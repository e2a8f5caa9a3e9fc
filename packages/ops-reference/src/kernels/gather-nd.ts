/**
 * GATHER_ND (TFLM kernels/gather_nd.cc): each row of the last indices dimension (length nd <= 5, <= params
 * rank) selects a slice params[i0, ..., i(nd-1), ...]; output shape indices[:-1] + params[nd:]. As TFLM,
 * a row is checked through its flat position: a slice starting before the params or ending after them
 * fails the invoke with a KernelError ("gather_nd index out of bounds").
 *
 * Types: float32 and int8 params with int32 indices as TFLM; as TFLite, params of every fixed-size type
 * and string, and int16 or int64 indices. Indices whose shape depends on data (WHERE's coordinates) are
 * followed: the slice count and the output's dims come from their actual dims at every invoke (not for
 * string params); data-dependent params are refused (DataDependentShapeError).
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  FIXED_SIZE_TYPES,
  INDEX_TYPES,
  type StringMove,
  dimProduct,
  indexAt,
  prepareStringMove,
  requireSameTypeAs,
  typeSupport,
  writeMappedStrings,
} from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';
import {
  expectType,
  fillOpData,
  isDataDependent,
  newOpData,
  opData,
  refuseDataDependentInput,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';

const OP = 'GATHER_ND';
const TYPES: readonly TensorType[] = [...FIXED_SIZE_TYPES, TensorType.STRING];
/** TFLM's MAX_INDICES_ND. */
export const GATHER_ND_MAX_INDEX_DIMS = 5;

/** Op data computed in prepare (TFLM keeps none). */
interface GatherNdOpData {
  nSlices: number;
  indexDims: number;
  sliceSize: number;
  paramsSize: number;
  /** Elements per step of each indexed dimension. */
  dimStrides: Int32Array;
  layout: ElementLayout;
  /** STRING params: the gathered strings are written through this. */
  strings: StringMove | null;
  /** Data-dependent indices (WHERE's coordinates…): the output's dims at this invoke; nSlices follows. */
  dims: Int32Array | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const params = getInput(context, node, 0, OP);
  const indices = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'params', params, TYPES);
  expectType(OP, node, 'indices', indices, INDEX_TYPES);
  requireSameTypeAs(OP, node, output, 'output', params, 'params');
  const paramsRank = params.dims.length;
  const indicesRank = indices.dims.length;
  if (paramsRank < 1) throw new KernelError(OP, node.index, 'params must be at least a vector');
  if (indicesRank < 1) throw new KernelError(OP, node.index, 'indices must be at least a vector');
  const nd = indices.dims[indicesRank - 1]!;
  if (nd > paramsRank) throw new KernelError(OP, node.index, `index innermost dimension length ${nd} must be <= params rank ${paramsRank}`);
  if (nd > GATHER_ND_MAX_INDEX_DIMS)
    throw new KernelError(OP, node.index, `index innermost dimension length ${nd} must not exceed ${GATHER_ND_MAX_INDEX_DIMS}`);
  if (isDataDependent(params)) refuseDataDependentInput(OP, context, node, 0, 'GATHER_ND follows the actual shape of its indices only');
  const bounded = isDataDependent(indices);
  if (bounded && params.type === TensorType.STRING)
    refuseDataDependentInput(OP, context, node, 1, 'GATHER_ND moves strings by a map sized in prepare');
  const expected = [...Array.from(indices.dims).slice(0, -1), ...Array.from(params.dims).slice(nd)];
  setOutputShapeOrBound(OP, context, node, 0, expected, bounded);
  const dimStrides = new Int32Array(nd);
  for (let i = 0; i < nd; i++) dimStrides[i] = dimProduct(params.dims, i + 1);
  const data: GatherNdOpData = {
    nSlices: dimProduct(indices.dims, 0, indicesRank - 1),
    indexDims: nd,
    sliceSize: dimProduct(params.dims, nd),
    paramsSize: params.elementCount,
    dimStrides,
    layout: params.type === TensorType.STRING ? { useWords: false, units: 1 } : elementLayout(params.type, OP, node),
    strings: params.type === TensorType.STRING ? prepareStringMove(OP, context, node, params, false) : null,
    dims: bounded ? Int32Array.from(expected) : null,
  };
  fillOpData(OP, node, data);
}

function outOfBounds(node: Node, slice: number, from: number, d: GatherNdOpData): never {
  throw new KernelError(
    OP,
    node.index,
    `gather_nd index out of bounds: index row ${slice} selects elements [${from}, ${from + d.sliceSize}) of params holding ${d.paramsSize}`,
  );
}

/** Invoke, data-dependent indices: as many slices as their actual leading dims hold, each of the prepared index depth. */
function followIndices(context: TfLiteContext, node: Node, d: GatherNdOpData, out: Int32Array, dims: Int32Array): void {
  const last = dims.length - 1;
  if (dims[last] !== d.indexDims)
    throw new KernelError(OP, node.index, `indices have an innermost dimension of ${dims[last]} at this invoke, ${d.indexDims} in prepare`);
  let slices = 1;
  for (let i = 0; i < last; i++) {
    out[i] = dims[i]!;
    slices *= dims[i]!;
  }
  d.nSlices = slices;
  context.setActualShape(node.outputs[0]!, out);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<GatherNdOpData>(OP, node);
  const paramsTensor = context.getEvalTensor(node.inputs[0]!);
  const indices = context.getEvalTensor(node.inputs[1]!);
  if (d.dims !== null) followIndices(context, node, d, d.dims, indices.dims);
  const outputTensor = context.getEvalTensor(node.outputs[0]!);
  const strings = d.strings;
  const params: NumberArray = strings ? strings.iota : movableData(paramsTensor, d.layout);
  const output: NumberArray = strings ? strings.map : movableData(outputTensor, d.layout);
  const { nSlices, indexDims, sliceSize, paramsSize, dimStrides } = d;
  const units = d.layout.units;
  let o = 0;
  for (let i = 0; i < nSlices; i++) {
    let from = 0;
    for (let j = 0; j < indexDims; j++) from += indexAt(indices, i * indexDims + j) * dimStrides[j]!;
    if (from < 0 || from + sliceSize > paramsSize) outOfBounds(node, i, from, d);
    for (let k = 0, p = from * units, n = sliceSize * units; k < n; k++) output[o++] = params[p++]!;
  }
  if (strings) writeMappedStrings(strings, paramsTensor.bytes, outputTensor.bytes);
}

/** GATHER_ND registration (op versions 1..5). */
export const GATHER_ND: Registration = {
  builtinCode: BuiltinOperator.GATHER_ND,
  version: 5,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => {
    const p = typeSupport(context, node, TYPES);
    return p === true ? typeSupport(context, node, INDEX_TYPES, 1) : p;
  },
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
