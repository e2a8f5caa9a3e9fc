/**
 * MAXIMUM and MINIMUM (tflite-micro kernels/maximum_minimum.cc; reference_ops::MaximumMinimumBroadcastSlow).
 *
 * float32, int8, int16, int32, and TFLite's uint8 and int64 (compared as int32 word pairs), with
 * broadcasting up to 5-D. Like TFLM, the raw values
 * are compared, so quantized inputs and output are assumed to share scale and zero point; MAXIMUM picks
 * `a > b ? a : b` and MINIMUM `a < b ? a : b` (so a NaN in `a` yields `b`, as in TFLM).
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { broadcastInPlace } from './in-place-common.js';
import { typedBinaryTensors, followsBroadcast } from './elementwise-common.js';
import { Int64Op, binaryInt64 } from './int64-common.js';
import { type BroadcastPlan, opData, planBinary } from '@micrort/kernel-support';

/** TFLM's MaximumMinimumBroadcastSlow<N = 5>. */
const MAX_BROADCAST_RANK = 5;

type Values = Float32Array | Int8Array | Int16Array | Int32Array | Uint8Array;

interface MaxMinOpData {
  plan: BroadcastPlan | null;
  int64: boolean;
}

function prepareFor(op: string) {
  return (context: TfLiteContext, node: Node): void => {
    const data = opData<MaxMinOpData>(op, node);
    const { input1, input2, output } = typedBinaryTensors(op, context, node, [
      TensorType.FLOAT32,
      TensorType.INT8,
      TensorType.INT16,
      TensorType.INT32,
      TensorType.UINT8,
      TensorType.INT64,
    ]);
    data.plan = planBinary(op, node, input1, input2, output, MAX_BROADCAST_RANK);
    data.int64 = output.type === TensorType.INT64;
  };
}

function maximum(plan: BroadcastPlan, a: Values, b: Values, out: Values): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x = a[i1]!;
      const y = b[i2]!;
      out[o] = x > y ? x : y;
    }
    plan.next();
  }
}

function minimum(plan: BroadcastPlan, a: Values, b: Values, out: Values): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const x = a[i1]!;
      const y = b[i2]!;
      out[o] = x < y ? x : y;
    }
    plan.next();
  }
}

function invokeInt64(op: string, fn: Int64Op, context: TfLiteContext, node: Node, plan: BroadcastPlan): void {
  const a = context.getEvalTensor(node.inputs[0]!).words;
  const b = context.getEvalTensor(node.inputs[1]!).words;
  binaryInt64(op, node, fn, plan, a, b, context.getEvalTensor(node.outputs[0]!).words, null);
}

/** MAXIMUM reference kernel: float32, int8, int16, int32, uint8 with broadcasting up to 5-D. */
export const MAXIMUM: Registration<MaxMinOpData> = followsBroadcast<MaxMinOpData>(
  {
    builtinCode: BuiltinOperator.MAXIMUM,
    version: 4,
    provider: PROVIDER,
    inPlace: broadcastInPlace,
    name: 'MAXIMUM',
    init: () => ({ plan: null, int64: false }),
    prepare: prepareFor('MAXIMUM'),
    invoke(context, node) {
      const d = opData<MaxMinOpData>('MAXIMUM', node);
      const plan = d.plan!;
      if (d.int64) return invokeInt64('MAXIMUM', Int64Op.Max, context, node, plan);
      const a = context.getEvalTensor(node.inputs[0]!).data as Values;
      const b = context.getEvalTensor(node.inputs[1]!).data as Values;
      maximum(plan, a, b, context.getEvalTensor(node.outputs[0]!).data as Values);
    },
  },
  (d) => d.plan,
);

/** MINIMUM reference kernel: float32, int8, int16, int32, uint8 with broadcasting up to 5-D. */
export const MINIMUM: Registration<MaxMinOpData> = followsBroadcast<MaxMinOpData>(
  {
    builtinCode: BuiltinOperator.MINIMUM,
    version: 4,
    provider: PROVIDER,
    inPlace: broadcastInPlace,
    name: 'MINIMUM',
    init: () => ({ plan: null, int64: false }),
    prepare: prepareFor('MINIMUM'),
    invoke(context, node) {
      const d = opData<MaxMinOpData>('MINIMUM', node);
      const plan = d.plan!;
      if (d.int64) return invokeInt64('MINIMUM', Int64Op.Min, context, node, plan);
      const a = context.getEvalTensor(node.inputs[0]!).data as Values;
      const b = context.getEvalTensor(node.inputs[1]!).data as Values;
      minimum(plan, a, b, context.getEvalTensor(node.outputs[0]!).data as Values);
    },
  },
  (d) => d.plan,
);
