/**
 * BITWISE_XOR and RIGHT_SHIFT (TFLite bitwise_xor.cc, right_shift.cc, after TFLite 2.9): two integer
 * tensors of one type (int8, uint8, int16, uint16, int32, uint32) broadcast against each other.
 * RIGHT_SHIFT clamps the shift to [0, bits - 1] (TFLite's RightShift) and shifts arithmetically for
 * signed types.
 */
import { TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { BroadcastPlan, declineArity, declineTypes, fillOpData, newOpData, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareBroadcastBinary } from './tflite-ops-common.js';
import { followsBroadcast } from './elementwise-common.js';

const TYPES: readonly TensorType[] = [
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.UINT16,
  TensorType.INT32,
  TensorType.UINT32,
];

const BITS: Partial<Record<TensorType, number>> = {
  [TensorType.INT8]: 8,
  [TensorType.UINT8]: 8,
  [TensorType.INT16]: 16,
  [TensorType.UINT16]: 16,
  [TensorType.INT32]: 32,
  [TensorType.UINT32]: 32,
};

type IntArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

interface IntegerBinaryOpData {
  plan: BroadcastPlan;
  /** Largest shift (bits - 1). */
  maxShift: number;
  /** uint32: shift with `>>>`. */
  unsigned32: boolean;
}

function xor(plan: BroadcastPlan, a: IntArray, b: IntArray, out: IntArray): void {
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) out[o] = a[i1]! ^ b[i2]!;
    plan.next();
  }
}

function shiftRight(d: IntegerBinaryOpData, a: IntArray, b: IntArray, out: IntArray): void {
  const plan = d.plan;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  const max = d.maxShift;
  const logical = d.unsigned32;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < plan.inner; k++, o++, i1 += s1, i2 += s2) {
      const y = b[i2]!;
      const s = y < 0 ? 0 : y > max ? max : y;
      out[o] = logical ? a[i1]! >>> s : a[i1]! >> s;
    }
    plan.next();
  }
}

/** The registration of BITWISE_XOR (`shift` false) or RIGHT_SHIFT (`shift` true). */
export function integerBinaryKernel(op: string, builtinCode: number, shift: boolean): Registration {
  return followsBroadcast<object>(
    {
      builtinCode,
      version: 1,
      provider: PROVIDER,
      name: op,
      supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0, 1], TYPES) ?? true,
      init: newOpData,
      prepare(context: TfLiteContext, node: Node) {
        const plan = prepareBroadcastBinary(op, context, node, TYPES);
        const type = context.getTensor(node.inputs[0]!).type;
        fillOpData<IntegerBinaryOpData>(op, node, { plan, maxShift: BITS[type]! - 1, unsigned32: type === TensorType.UINT32 });
      },
      invoke(context: TfLiteContext, node: Node) {
        const d = opData<IntegerBinaryOpData>(op, node);
        const a = context.getEvalTensor(node.inputs[0]!).data as IntArray;
        const b = context.getEvalTensor(node.inputs[1]!).data as IntArray;
        const out = context.getEvalTensor(node.outputs[0]!).data as IntArray;
        if (shift) shiftRight(d, a, b, out);
        else xor(d.plan, a, b, out);
      },
    },
    (d) => (d as IntegerBinaryOpData).plan,
  ) as Registration;
}
