/**
 * DYNAMIC_UPDATE_SLICE (TFLM kernels/dynamic_update_slice.cc; XLA DynamicUpdateSlice): the output is the
 * operand with the `update` tensor written at `start_indices` (a runtime 1-D int32 or int64 tensor, one
 * index per operand dimension). Each start index is clamped to [0, operand_dim - update_dim], as TFLM
 * and XLA do, so no index is out of range. Up to 6 dimensions; update and operand have the same rank and
 * every update dimension fits the operand's. Types: float32, int8, int16, int32 as TFLM, and uint8,
 * int64, bool and float16 as TFLite. When the output shares the operand's memory (in-place planning)
 * the copy is skipped.
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput, numElements } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { int64At, requireSameTypeAs, requireShape, typeSupport } from './data-common.js';
import { flatInPlace } from './in-place-common.js';
import {
  type ElementLayout,
  type NumberArray,
  elementLayout,
  extendShape,
  movableData,
  rowMajorStrides,
  shapeString,
} from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'DYNAMIC_UPDATE_SLICE';
const TYPES = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT8,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.FLOAT16,
] as const;
/** TFLM's kMaxDimensions. */
export const DYNAMIC_UPDATE_SLICE_MAX_DIMS = 6;

/** Op data computed in prepare (TFLM keeps none); arrays are front-padded to 6 axes. */
interface DynamicUpdateSliceOpData {
  rank: number;
  int64Indices: boolean;
  /** Update covers the whole operand: the output is the update. */
  whole: boolean;
  /** Highest start per (own) axis: operand_dim - update_dim. */
  maxStart: Int32Array;
  /** Operand strides per padded axis, in elements. */
  outStrides: Int32Array;
  /** Update dims, padded. */
  updDims: Int32Array;
  /** Clamped starts of the current invoke (padded), filled without allocating. */
  starts: Int32Array;
  layout: ElementLayout;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 3, 1);
  const operand = getInput(context, node, 0, OP);
  const update = getInput(context, node, 1, OP);
  const indices = getInput(context, node, 2, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'operand', operand, TYPES);
  requireSameTypeAs(OP, node, update, 'update', operand, 'operand');
  requireSameTypeAs(OP, node, output, 'output', operand, 'operand');
  expectType(OP, node, 'start_indices', indices, [TensorType.INT32, TensorType.INT64]);
  requireShape(OP, node, output, 'output', operand.dims);
  const rank = operand.dims.length;
  if (rank > DYNAMIC_UPDATE_SLICE_MAX_DIMS)
    throw new KernelError(OP, node.index, `operand has ${rank} dimensions, at most ${DYNAMIC_UPDATE_SLICE_MAX_DIMS} are supported`);
  if (indices.dims.length !== 1 || indices.dims[0] !== rank)
    throw new KernelError(
      OP,
      node.index,
      `start_indices has shape ${shapeString(indices.dims)}, expected [${rank}] (one index per operand dimension)`,
    );
  if (update.dims.length !== rank)
    throw new KernelError(
      OP,
      node.index,
      `update has shape ${shapeString(update.dims)}, expected ${rank} dimensions like the operand ${shapeString(operand.dims)}`,
    );
  const maxStart = new Int32Array(rank);
  for (let i = 0; i < rank; i++) {
    if (update.dims[i]! > operand.dims[i]!)
      throw new KernelError(
        OP,
        node.index,
        `update shape ${shapeString(update.dims)} is larger than the operand ${shapeString(operand.dims)} in dimension ${i}`,
      );
    maxStart[i] = operand.dims[i]! - update.dims[i]!;
  }
  const pad = DYNAMIC_UPDATE_SLICE_MAX_DIMS;
  const data: DynamicUpdateSliceOpData = {
    rank,
    int64Indices: indices.type === TensorType.INT64,
    whole: numElements(operand.dims) === numElements(update.dims),
    maxStart,
    outStrides: Int32Array.from(rowMajorStrides(extendShape(operand.dims, pad))),
    updDims: Int32Array.from(extendShape(update.dims, pad)),
    starts: new Int32Array(pad),
    layout: elementLayout(operand.type, OP, node),
  };
  fillOpData(OP, node, data);
}

/** Copies the update, row by row of its last axis, to its clamped place in the output. */
function writeUpdate(d: DynamicUpdateSliceOpData, upd: NumberArray, out: NumberArray): void {
  const u = d.updDims,
    s = d.outStrides,
    st = d.starts,
    k = d.layout.units;
  const n0 = u[0]!,
    n1 = u[1]!,
    n2 = u[2]!,
    n3 = u[3]!,
    n4 = u[4]!,
    n5 = u[5]! * k;
  const s0 = s[0]! * k,
    s1 = s[1]! * k,
    s2 = s[2]! * k,
    s3 = s[3]! * k,
    s4 = s[4]! * k;
  const base = st[0]! * s0 + st[1]! * s1 + st[2]! * s2 + st[3]! * s3 + st[4]! * s4 + st[5]! * k;
  let p = 0;
  for (let i0 = 0, q0 = base; i0 < n0; i0++, q0 += s0)
    for (let i1 = 0, q1 = q0; i1 < n1; i1++, q1 += s1)
      for (let i2 = 0, q2 = q1; i2 < n2; i2++, q2 += s2)
        for (let i3 = 0, q3 = q2; i3 < n3; i3++, q3 += s3)
          for (let i4 = 0, q4 = q3; i4 < n4; i4++, q4 += s4) for (let i5 = 0, q = q4; i5 < n5; i5++) out[q++] = upd[p++]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<DynamicUpdateSliceOpData>(OP, node);
  const operand = context.getEvalTensor(node.inputs[0]!);
  const update = context.getEvalTensor(node.inputs[1]!);
  const indices = context.getEvalTensor(node.inputs[2]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  if (d.whole) {
    output.bytes.set(update.bytes);
    return;
  }
  if (operand.bytes.buffer !== output.bytes.buffer || operand.bytes.byteOffset !== output.bytes.byteOffset) output.bytes.set(operand.bytes);
  if (update.bytes.length === 0) return;
  const rank = d.rank;
  const shift = DYNAMIC_UPDATE_SLICE_MAX_DIMS - rank;
  for (let i = 0; i < rank; i++) {
    const raw = d.int64Indices ? int64At(indices.bytes, i) : (indices.data as Int32Array)[i]!;
    const hi = d.maxStart[i]!;
    d.starts[shift + i] = raw < 0 ? 0 : raw > hi ? hi : raw;
  }
  writeUpdate(d, movableData(update, d.layout), movableData(output, d.layout));
}

/** DYNAMIC_UPDATE_SLICE registration (op versions 1..4). */
export const DYNAMIC_UPDATE_SLICE: Registration = {
  builtinCode: BuiltinOperator.DYNAMIC_UPDATE_SLICE,
  version: 4,
  provider: PROVIDER,
  name: OP,
  inPlace: flatInPlace,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
