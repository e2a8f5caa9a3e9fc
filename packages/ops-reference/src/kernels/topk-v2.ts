/**
 * TOPK_V2 (TFLite topk_v2.cc): along the last dimension, the k largest values (output 0) and their
 * positions (output 1, int32, or int16 after TFLite 2.9), largest first, equal values by lower
 * position first (TFLite's TopContainer comparator). float32, uint8, int8, int32, int64 and (after
 * TFLite 2.9) int16 values, compared raw; k an int32 (or int16) scalar no larger than the last dimension.
 * Each row is ranked by a partial selection over an index buffer kept from prepare.
 *
 * A constant k gives the outputs their shape in prepare. A runtime k makes it data-dependent: the outputs
 * are data-dependent, planned at the bound [..., n], and `topkInvoke` writes k columns per row into the
 * leading elements ([..., k] row-major) and states the actual dims (data-dependent-shape.ts).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  type EvalTensor,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectSameType, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { int64At } from './data-common.js';
import { boundOutputShape, setActualOutputShape } from './data-dependent-shape.js';
import { constantInts, copyElements } from './tflite-ops-common.js';

const OP = 'TOPK_V2';
const TYPES: readonly TensorType[] = [
  TensorType.FLOAT32,
  TensorType.UINT8,
  TensorType.INT8,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.INT16,
];
const K_TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.INT16];

interface TopKOpData {
  rows: number;
  n: number;
  /** k when constant, -1 when read at invoke. */
  k: number;
  type: TensorType;
  size: number;
  /** The row's positions being ranked (length n). */
  order: Int32Array;
  /** The outputs' dims at this invoke ([..., k]). */
  dims: Int32Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 2);
  const input = getInput(context, node, 0, OP);
  const kTensor = getInput(context, node, 1, OP);
  const values = getOutput(context, node, 0, OP);
  const indices = getOutput(context, node, 1, OP);
  expectType(OP, node, 'input', input, TYPES);
  expectType(OP, node, 'k', kTensor, K_TYPES);
  expectSameType(OP, node, 'input and output 0', input, values);
  expectType(OP, node, 'output 1', indices, [TensorType.INT32, TensorType.INT16]);
  if (kTensor.elementCount !== 1) throw new KernelError(OP, node.index, 'k must be a scalar');
  const rank = input.dims.length;
  if (rank < 1) throw new KernelError(OP, node.index, 'the input must have at least 1 dimension');
  const n = input.dims[rank - 1]!;
  const d = opData<TopKOpData>(OP, node);
  d.n = n;
  d.rows = n === 0 ? 0 : input.elementCount / n;
  d.type = input.type;
  d.size = input.byteLength / Math.max(1, input.elementCount);
  d.order = new Int32Array(n);
  let k = -1;
  if (kTensor.isConstant) {
    k = kTensor.type === TensorType.INT16 ? (kTensor.data as Int16Array)[0]! : constantInts(OP, node, kTensor, 'k')![0]!;
    if (k < 0 || k > n) throw new KernelError(OP, node.index, `k = ${k} is outside [0, ${n}] (the last dimension)`);
  }
  d.k = k;
  d.dims = Int32Array.from(input.dims);
  d.dims[rank - 1] = k < 0 ? n : k;
  for (const position of [0, 1]) {
    if (k < 0) boundOutputShape(OP, context, node, position, d.dims);
    else setOutputShape(OP, context, node, position, d.dims);
  }
}

/** Whether position a ranks before position b in a row starting at element `base` (larger first, then lower position). */
function before(d: TopKOpData, x: EvalTensor, base: number, a: number, b: number): boolean {
  let va: number;
  let vb: number;
  if (d.type === TensorType.INT64) {
    va = int64At(x.bytes, base + a);
    vb = int64At(x.bytes, base + b);
  } else {
    const v = x.data as Float32Array;
    va = v[base + a]!;
    vb = v[base + b]!;
  }
  return va > vb || (va === vb && a < b);
}

/** The data-dependent part: ranks every row, writes k columns per row, states the dims. */
function topkInvoke(
  context: TfLiteContext,
  node: Node,
  d: TopKOpData,
  x: EvalTensor,
  k: number,
  values: EvalTensor,
  indices: EvalTensor,
): void {
  const { rows, n, order, size } = d;
  const i32 = indices.type === TensorType.INT32 ? (indices.data as Int32Array) : null;
  const i16 = indices.type === TensorType.INT16 ? (indices.data as Int16Array) : null;
  for (let r = 0; r < rows; r++) {
    const base = r * n;
    for (let i = 0; i < n; i++) order[i] = i;
    // selection of the k first positions in rank order
    for (let i = 0; i < k; i++) {
      let best = i;
      for (let j = i + 1; j < n; j++) if (before(d, x, base, order[j]!, order[best]!)) best = j;
      const t = order[i]!;
      order[i] = order[best]!;
      order[best] = t;
      copyElements(x.bytes, base + order[i]!, values.bytes, r * k + i, 1, size);
      if (i32) i32[r * k + i] = order[i]!;
      else i16![r * k + i] = order[i]!;
    }
  }
  if (d.k < 0) {
    d.dims[d.dims.length - 1] = k;
    setActualOutputShape(context, node, 0, d.dims);
    setActualOutputShape(context, node, 1, d.dims);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<TopKOpData>(OP, node);
  let k = d.k;
  if (k < 0) {
    const kt = context.getEvalTensor(node.inputs[1]!);
    k = (kt.data as Int32Array | Int16Array)[0]!;
    if (k < 0 || k > d.n) throw new KernelError(OP, node.index, `k = ${k} is outside [0, ${d.n}] (the last dimension)`);
  }
  topkInvoke(
    context,
    node,
    d,
    context.getEvalTensor(node.inputs[0]!),
    k,
    context.getEvalTensor(node.outputs[0]!),
    context.getEvalTensor(node.outputs[1]!),
  );
}

/** TOPK_V2 registration (op versions 1..3). */
export const TOPK_V2: Registration<TopKOpData> = {
  builtinCode: BuiltinOperator.TOPK_V2,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 2) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: () => ({ rows: 0, n: 0, k: 0, type: TensorType.FLOAT32, size: 0, order: new Int32Array(0), dims: new Int32Array(0) }),
  prepare,
  invoke,
};
