/**
 * TILE (TFLite tile.cc): the input repeated `multiples[i]` times along each dimension i. Any fixed-size
 * element type (TFLite 2.9: float32, uint8, int8, int32, int64, bool; later int16 and the wide types)
 * and strings (TFLite's TileString: each output string is a copy of its input string; here the output's
 * string indices are tiled once in prepare and invoke writes the strings they name), int32 or int64
 * multiples. The output shape comes from constant multiples in prepare; with runtime
 * multiples there is no bound (data-dependent-shape.ts). Elements are moved as bytes, innermost
 * dimension first, then each finished block is copied `multiples - 1` more times (TFLite's
 * TileOneDimension).
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
import {
  declineArity,
  expectRank,
  expectSameType,
  expectType,
  isDataDependent,
  opData,
  refuseDataDependentInput,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareStringMove, writeMappedStrings, type StringMove } from './data-common.js';
import { noShapeBound } from './data-dependent-shape.js';
import { constantInts, copyElements, fixedElementSize, supportsFixedSize } from './tflite-ops-common.js';

const OP = 'TILE';

interface TileOpData {
  inDims: Int32Array;
  multiples: Int32Array;
  size: number;
  /** STRING input: the input string index of each output string, and the writer. */
  strings: StringMove | null;
  /** A data-dependent input: the output's dims at this invoke (inDims then follow the input's actual dims). */
  outDims: Int32Array | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const multiplesTensor = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  const strings = input.type === TensorType.STRING;
  const size = strings ? 4 : fixedElementSize(OP, node, 'input', input);
  expectSameType(OP, node, 'input and output', input, output);
  expectType(OP, node, 'multiples', multiplesTensor, [TensorType.INT32, TensorType.INT64]);
  expectRank(OP, node, 'multiples', multiplesTensor, 1);
  if (multiplesTensor.dims[0] !== input.dims.length)
    throw new KernelError(OP, node.index, `multiples has ${multiplesTensor.dims[0]} values for an input of rank ${input.dims.length}`);
  const multiples = constantInts(OP, node, multiplesTensor, 'multiples');
  if (multiples === null) noShapeBound(OP, context, node, 0, 'the multiples input is not constant');
  multiples.forEach((m, i) => {
    if (m < 0) throw new KernelError(OP, node.index, `multiples[${i}] = ${m} is negative`);
  });
  const bounded = isDataDependent(input);
  if (bounded && strings) refuseDataDependentInput(OP, context, node, 0, 'TILE moves strings by a map tiled in prepare');
  const outShape = Array.from(input.dims, (d, i) => d * multiples[i]!);
  setOutputShapeOrBound(OP, context, node, 0, outShape, bounded);
  const data = opData<TileOpData>(OP, node);
  data.inDims = Int32Array.from(input.dims);
  data.multiples = Int32Array.from(multiples);
  data.size = size;
  data.strings = null;
  data.outDims = bounded ? Int32Array.from(outShape) : null;
  if (strings) {
    // Tile the input's string indices (int32) into the output's: the strings each output element copies.
    const move = prepareStringMove(OP, context, node, input, false);
    const bytes = (a: Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    if (data.inDims.length === 0) move.map.set(move.iota.subarray(0, 1));
    else if (move.map.length > 0) tileDim(data, 0, bytes(move.iota), 0, bytes(move.map), 0, COUNTS);
    data.strings = move;
  }
}

/** Tiles dimension `dim` and the ones inside it; returns [input elements read, output elements written]. */
function tileDim(d: TileOpData, dim: number, x: Uint8Array, inAt: number, y: Uint8Array, outAt: number, counts: Int32Array): void {
  const n = d.inDims[dim]!;
  const m = d.multiples[dim]!;
  const size = d.size;
  let read = 0;
  let written = 0;
  if (dim === d.inDims.length - 1) {
    copyElements(x, inAt, y, outAt, n, size);
    read = n;
    written = n;
  } else {
    for (let i = 0; i < n; i++) {
      tileDim(d, dim + 1, x, inAt + read, y, outAt + written, counts);
      read += counts[0]!;
      written += counts[1]!;
    }
  }
  for (let k = 1; k < m; k++) y.copyWithin((outAt + written * k) * size, outAt * size, (outAt + written) * size);
  counts[0] = read;
  counts[1] = written * m;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<TileOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).bytes;
  const y = context.getEvalTensor(node.outputs[0]!).bytes;
  if (d.strings) {
    writeMappedStrings(d.strings, x, y);
    return;
  }
  const out = d.outDims;
  if (out !== null) {
    // a data-dependent input: tile its actual dims
    const dims = context.getEvalTensor(node.inputs[0]!).dims;
    for (let i = 0; i < dims.length; i++) {
      d.inDims[i] = dims[i]!;
      out[i] = dims[i]! * d.multiples[i]!;
    }
    context.setActualShape(node.outputs[0]!, out);
  }
  if (d.inDims.length === 0) {
    copyElements(x, 0, y, 0, 1, d.size);
    return;
  }
  tileDim(d, 0, x, 0, y, 0, COUNTS);
}

/** Scratch for tileDim's two return values (invoke is synchronous, so one module-level pair serves every node). */
const COUNTS = new Int32Array(2);

/** Whether the node's input is a string tensor (served: strings are tiled by index). */
function isString(context: TfLiteContext, node: Node): boolean {
  const i = node.inputs[0];
  return i !== undefined && i >= 0 && context.getTensor(i).type === TensorType.STRING;
}

/** TILE registration (op versions 1..3). */
export const TILE: Registration<TileOpData> = {
  builtinCode: BuiltinOperator.TILE,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? (isString(context, node) || supportsFixedSize(context, node, 0)),
  init: () => ({ inDims: new Int32Array(0), multiples: new Int32Array(0), size: 0, strings: null, outDims: null }),
  dynamicInputShapes: true,
  prepare,
  invoke,
};
