/**
 * BUCKETIZE (TFLite bucketize.cc): the int32 index of each value's bucket among the ascending float
 * `boundaries` — the number of boundaries ≤ the value (std::upper_bound). float32, float64, int32 and
 * int64 inputs; as in C++, an integer value is compared with a float boundary as a float and a float64
 * value as a double. Unsorted boundaries are refused in prepare, as TFLite refuses them.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  type BucketizeOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { int64At } from './data-common.js';
import { prepareUnary } from './tflite-ops-common.js';

const OP = 'BUCKETIZE';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.FLOAT64, TensorType.INT32, TensorType.INT64];

interface BucketizeOpData {
  count: number;
  type: TensorType;
  boundaries: Float64Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const { input, count } = prepareUnary(OP, context, node, TYPES, [TensorType.INT32]);
  const b = (node.builtinData as BucketizeOptions | null)?.boundaries ?? new Float32Array(0);
  for (let i = 1; i < b.length; i++)
    if (b[i - 1]! > b[i]!) throw new KernelError(OP, node.index, `boundaries must be sorted in ascending order (${b[i - 1]} > ${b[i]})`);
  const d = opData<BucketizeOpData>(OP, node);
  d.count = count;
  d.type = input.type;
  d.boundaries = Float64Array.from(b);
}

/** upper_bound: the number of boundaries ≤ v (binary search). */
function bucket(boundaries: Float64Array, v: number): number {
  let lo = 0;
  let hi = boundaries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v < boundaries[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<BucketizeOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!);
  const y = context.getEvalTensor(node.outputs[0]!).data as Int32Array;
  const b = d.boundaries;
  const n = d.count;
  if (d.type === TensorType.INT64) for (let i = 0; i < n; i++) y[i] = bucket(b, Math.fround(int64At(x.bytes, i)));
  else if (d.type === TensorType.INT32) {
    const v = x.data as Int32Array;
    for (let i = 0; i < n; i++) y[i] = bucket(b, Math.fround(v[i]!));
  } else {
    const v = x.data as Float32Array | Float64Array;
    for (let i = 0; i < n; i++) y[i] = bucket(b, v[i]!);
  }
}

/** BUCKETIZE registration (op version 1). */
export const BUCKETIZE: Registration<BucketizeOpData> = {
  builtinCode: BuiltinOperator.BUCKETIZE,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], TYPES, [TensorType.INT32]) ?? true,
  init: () => ({ count: 0, type: TensorType.FLOAT32, boundaries: new Float64Array(0) }),
  prepare,
  invoke,
};
