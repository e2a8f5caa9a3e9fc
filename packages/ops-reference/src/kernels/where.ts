/**
 * WHERE (TFLite where.cc, reference_ops::SelectTrueCoords): the int64 coordinates, in row-major order,
 * of the non-zero elements of the condition — [count, rank]. Conditions of bool, float32, int32, int64,
 * int8, uint8 or uint32 (TFLite's current kernel; a float NaN counts as non-zero, -0 as zero).
 *
 * The count depends on the data. A constant condition is counted in prepare, so the output gets its
 * exact shape; otherwise the output is data-dependent, planned at its upper bound [elements, rank], and
 * `whereInvoke` writes the coordinates and states the actual dims [count, rank] (data-dependent-shape.ts).
 */
import {
  BuiltinOperator,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type EvalTensor,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { boundOutputShape, setActualOutputShape } from './data-dependent-shape.js';

const OP = 'WHERE';
const TYPES: readonly TensorType[] = [
  TensorType.BOOL,
  TensorType.FLOAT32,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.UINT32,
];

interface WhereOpData {
  type: TensorType;
  size: number;
  /** Row-major strides of the condition. */
  strides: Int32Array;
  /** The output's dims at this invoke: [count, rank]. */
  dims: Int32Array;
  bounded: boolean;
}

/** Whether element i of a condition of `type` (its typed data and raw bytes) is non-zero. */
function isTrue(type: TensorType, data: ArrayLike<number>, bytes: Uint8Array, i: number): boolean {
  if (type === TensorType.INT64) {
    const p = i * 8;
    return (
      (bytes[p]! | bytes[p + 1]! | bytes[p + 2]! | bytes[p + 3]! | bytes[p + 4]! | bytes[p + 5]! | bytes[p + 6]! | bytes[p + 7]!) !== 0
    );
  }
  return data[i] !== 0;
}

function countTrue(t: Tensor): number {
  let n = 0;
  for (let i = 0; i < t.elementCount; i++) if (isTrue(t.type, t.data as unknown as ArrayLike<number>, t.bytes, i)) n++;
  return n;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const cond = getInput(context, node, 0, OP);
  expectType(OP, node, 'condition', cond, TYPES);
  expectType(OP, node, 'output', getOutput(context, node, 0, OP), [TensorType.INT64]);
  const rank = cond.dims.length;
  const d = opData<WhereOpData>(OP, node);
  d.type = cond.type;
  d.size = cond.elementCount;
  d.strides = new Int32Array(rank);
  for (let i = rank - 1, s = 1; i >= 0; i--) {
    d.strides[i] = s;
    s *= cond.dims[i]!;
  }
  d.bounded = !cond.isConstant;
  const rows = d.bounded ? d.size : countTrue(cond);
  d.dims = Int32Array.from([rows, rank]);
  if (d.bounded) boundOutputShape(OP, context, node, 0, d.dims);
  else setOutputShape(OP, context, node, 0, d.dims);
}

/** Writes the coordinates of the true elements into `out` (int64 bytes); returns their count. */
function selectTrueCoords(d: WhereOpData, data: ArrayLike<number>, bytes: Uint8Array, out: Uint8Array): number {
  const rank = d.strides.length;
  let count = 0;
  for (let i = 0; i < d.size; i++) {
    if (!isTrue(d.type, data, bytes, i)) continue;
    let rest = i;
    for (let j = 0; j < rank; j++) {
      const s = d.strides[j]!;
      const coord = Math.floor(rest / s);
      rest -= coord * s;
      const p = (count * rank + j) * 8;
      out[p] = coord;
      out[p + 1] = coord >>> 8;
      out[p + 2] = coord >>> 16;
      out[p + 3] = coord >>> 24;
      out[p + 4] = 0;
      out[p + 5] = 0;
      out[p + 6] = 0;
      out[p + 7] = 0;
    }
    count++;
  }
  return count;
}

/** The data-dependent part: fills the output and states its actual dims. */
function whereInvoke(context: TfLiteContext, node: Node, d: WhereOpData, cond: EvalTensor, out: Uint8Array): void {
  const count = selectTrueCoords(d, cond.data as ArrayLike<number>, cond.bytes, out);
  d.dims[0] = count;
  if (d.bounded) setActualOutputShape(context, node, 0, d.dims);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<WhereOpData>(OP, node);
  whereInvoke(context, node, d, context.getEvalTensor(node.inputs[0]!), context.getEvalTensor(node.outputs[0]!).bytes);
}

/** WHERE registration (op versions 1..2). */
export const WHERE: Registration<WhereOpData> = {
  builtinCode: BuiltinOperator.WHERE,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], TYPES, [TensorType.INT64]) ?? true,
  init: () => ({
    type: TensorType.BOOL,
    size: 0,
    strides: new Int32Array(0),
    dims: new Int32Array(2),
    bounded: false,
  }),
  prepare,
  invoke,
};
