/**
 * RANGE (TFLite range.cc): the 1-D sequence start, start + delta, … up to (not including) limit, from
 * three scalars of one type: int32 or float32 (and int64, after TFLite 2.9). Values accumulate in the
 * type as TFLite's EvalImpl does (`value += delta`: float32 rounding, int64 with two 32-bit words and a
 * carry). The length — ⌈|limit − start| / |delta|⌉ — is computed in prepare from constant inputs; with
 * runtime inputs there is no bound (data-dependent-shape.ts).
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
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectSameType, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';

const OP = 'RANGE';
const TYPES: readonly TensorType[] = [TensorType.INT32, TensorType.FLOAT32, TensorType.INT64];

interface RangeOpData {
  type: TensorType;
  count: number;
}

/** A constant scalar as a bigint (int types) or number (float32). */
function scalarOf(t: Tensor): bigint | number {
  if (t.type === TensorType.INT64) return (t.data as BigInt64Array)[0]!;
  if (t.type === TensorType.INT32) return BigInt((t.data as Int32Array)[0]!);
  return (t.data as Float32Array)[0]!;
}

/** TFLite's GetSize: the number of values, or a KernelError for a zero delta or one pointing away from limit. */
function rangeSize(node: Node, start: bigint | number, limit: bigint | number, delta: bigint | number): number {
  if (delta === 0 || delta === 0n) throw new KernelError(OP, node.index, 'delta is 0');
  if (!((start >= limit && delta < 0) || (start <= limit && delta > 0)))
    throw new KernelError(OP, node.index, `delta ${delta} does not lead from start ${start} to limit ${limit}`);
  if (typeof start === 'bigint') {
    const abs = (v: bigint) => (v < 0n ? -v : v);
    return Number((abs((limit as bigint) - start) + abs(delta as bigint) - 1n) / abs(delta as bigint));
  }
  const f = Math.fround;
  return Math.ceil(Math.abs(f(f((limit as number) - start) / (delta as number))));
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 3, 1);
  const start = getInput(context, node, 0, OP);
  const limit = getInput(context, node, 1, OP);
  const delta = getInput(context, node, 2, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'start', start, TYPES);
  expectSameType(OP, node, 'start and limit', start, limit);
  expectSameType(OP, node, 'start and delta', start, delta);
  expectSameType(OP, node, 'start and output', start, output);
  for (const [what, t] of [
    ['start', start],
    ['limit', limit],
    ['delta', delta],
  ] as const)
    expectRank(OP, node, what, t, 0);
  if (!start.isConstant || !limit.isConstant || !delta.isConstant)
    noShapeBound(OP, context, node, 0, 'start, limit and delta are not all constant');
  const count = rangeSize(node, scalarOf(start), scalarOf(limit), scalarOf(delta));
  setOutputShape(OP, context, node, 0, [count]);
  const d = opData<RangeOpData>(OP, node);
  d.type = start.type;
  d.count = count;
}

function setWord(b: Uint8Array, at: number, v: number): void {
  b[at] = v;
  b[at + 1] = v >>> 8;
  b[at + 2] = v >>> 16;
  b[at + 3] = v >>> 24;
}

/** value += delta over n int64 elements of `out` (bytes), as two 32-bit words with a carry. */
function rangeInt64(start: Uint8Array, delta: Uint8Array, out: Uint8Array, n: number): void {
  const word = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
  let lo = word(start, 0) >>> 0;
  let hi = word(start, 4);
  const dLo = word(delta, 0) >>> 0;
  const dHi = word(delta, 4);
  for (let i = 0; i < n; i++) {
    setWord(out, 8 * i, lo);
    setWord(out, 8 * i + 4, hi);
    const sum = lo + dLo;
    hi = (hi + dHi + (sum > 0xffffffff ? 1 : 0)) | 0;
    lo = sum >>> 0;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<RangeOpData>(OP, node);
  const start = context.getEvalTensor(node.inputs[0]!);
  const delta = context.getEvalTensor(node.inputs[2]!);
  const out = context.getEvalTensor(node.outputs[0]!);
  const n = d.count;
  if (d.type === TensorType.INT64) {
    rangeInt64(start.bytes, delta.bytes, out.bytes, n);
    return;
  }
  const y = out.data as Float32Array | Int32Array;
  const step = (delta.data as Float32Array | Int32Array)[0]!;
  let value = (start.data as Float32Array | Int32Array)[0]!;
  if (d.type === TensorType.FLOAT32)
    for (let i = 0; i < n; i++) {
      y[i] = value;
      value = Math.fround(value + step);
    }
  else
    for (let i = 0; i < n; i++) {
      y[i] = value;
      value = (value + step) | 0;
    }
}

/** RANGE registration (op versions 1..2). */
export const RANGE: Registration<RangeOpData> = {
  builtinCode: BuiltinOperator.RANGE,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 3, 1) ?? declineTypes(context, node, [0, 1, 2], TYPES) ?? true,
  init: () => ({ type: TensorType.INT32, count: 0 }),
  prepare,
  invoke,
};
