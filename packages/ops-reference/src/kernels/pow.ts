/**
 * POW (TFLite pow.cc): x^y elementwise for float32 or int32, broadcast up to 4-D (BroadcastPow4D).
 * float32: powf, computed in double and rounded once. int32: TFLite computes `std::pow` in double and
 * converts to int32 — exact below 2^53, and a result outside the int32 range becomes INT32_MIN (x86's
 * conversion, what TFLite 2.9 on x86-64 gives); a negative exponent fails the invoke, as in TFLite.
 */
import { BuiltinOperator, KernelError, TensorType, numElements, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { BroadcastPlan, declineArity, declineTypes, fillOpData, newOpData, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { followsBroadcast } from './elementwise-common.js';
import { prepareBroadcastBinary } from './tflite-ops-common.js';

const OP = 'POW';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32];

interface PowOpData {
  plan: BroadcastPlan;
  int32: boolean;
  exponents: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const plan = prepareBroadcastBinary(OP, context, node, TYPES);
  if (plan.requiresBroadcast && plan.shape.length > 4)
    throw new KernelError(OP, node.index, `broadcasting supports at most 4 dimensions, got rank ${plan.shape.length}`);
  const y = context.getTensor(node.inputs[1]!);
  fillOpData<PowOpData>(OP, node, { plan, int32: y.type === TensorType.INT32, exponents: y.elementCount });
}

function powInt32(a: number, b: number): number {
  const v = Math.trunc(Math.pow(a, b));
  return v >= -2147483648 && v <= 2147483647 ? v : -2147483648;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<PowOpData>(OP, node);
  const a = context.getEvalTensor(node.inputs[0]!).data as Float32Array | Int32Array;
  const b = context.getEvalTensor(node.inputs[1]!).data as Float32Array | Int32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array | Int32Array;
  const exponents = d.plan.actualOutputDims === null ? d.exponents : numElements(context.getEvalTensor(node.inputs[1]!).dims);
  if (d.int32)
    for (let i = 0; i < exponents; i++)
      if (b[i]! < 0) throw new KernelError(OP, node.index, `exponent ${b[i]} at ${i}: POW does not support negative int32 exponents`);
  const plan = d.plan;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    if (d.int32) for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) out[o] = powInt32(a[i1]!, b[i2]!);
    else for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) out[o] = Math.pow(a[i1]!, b[i2]!);
    plan.next();
  }
}

/** POW registration (op version 1). */
export const POW: Registration = followsBroadcast<object>(
  {
    builtinCode: BuiltinOperator.POW,
    version: 1,
    provider: PROVIDER,
    name: OP,
    supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0, 1], TYPES) ?? true,
    init: newOpData,
    prepare,
    invoke,
  },
  (d) => (d as PowOpData).plan,
);
