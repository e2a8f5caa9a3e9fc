/**
 * LOGICAL_AND and LOGICAL_OR (tflite-micro kernels/logical.cc, logical_common.cc; reference_ops
 * BinaryFunction / BroadcastBinaryFunction4DSlow on bool): bool inputs and output, elementwise with
 * broadcasting up to 4-D. TFLM has no prepare for them; this one checks the types and shapes.
 */
import { TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typedBinaryTensors, followsBroadcast } from './elementwise-common.js';
import { broadcastInPlace } from './in-place-common.js';
import { type BroadcastPlan, opData, planBinary, supportsInputTypes } from '@micrort/kernel-support';

const BOOL: readonly TensorType[] = [TensorType.BOOL];
/** TFLM's BroadcastBinaryFunction4DSlow. */
const MAX_BROADCAST_RANK = 4;

/** The two binary logical functions. */
export enum LogicalFunction {
  And,
  Or,
}

/** Op data of LOGICAL_AND / LOGICAL_OR. */
export interface LogicalOpData {
  plan: BroadcastPlan | null;
}

function run(plan: BroadcastPlan, a: Uint8Array, b: Uint8Array, out: Uint8Array, fn: LogicalFunction): void {
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    if (fn === LogicalFunction.And)
      for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = a[i1] !== 0 && b[i2] !== 0 ? 1 : 0;
    else for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = a[i1] !== 0 || b[i2] !== 0 ? 1 : 0;
    plan.next();
  }
}

/** The registration of LOGICAL_AND or LOGICAL_OR. */
export function logicalKernel(name: string, builtinCode: number, fn: LogicalFunction): Registration<LogicalOpData> {
  return followsBroadcast<LogicalOpData>(
    {
      builtinCode,
      version: 1,
      provider: PROVIDER,
      name,
      inPlace: broadcastInPlace,
      supports: (context, node) => supportsInputTypes(context, node, BOOL),
      init: () => ({ plan: null }),
      prepare(context: TfLiteContext, node: Node): void {
        const d = opData<LogicalOpData>(name, node);
        const t = typedBinaryTensors(name, context, node, BOOL);
        d.plan = planBinary(name, node, t.input1, t.input2, t.output, MAX_BROADCAST_RANK);
      },
      invoke(context: TfLiteContext, node: Node): void {
        const d = opData<LogicalOpData>(name, node);
        const a = context.getEvalTensor(node.inputs[0]!).data as Uint8Array;
        const b = context.getEvalTensor(node.inputs[1]!).data as Uint8Array;
        run(d.plan!, a, b, context.getEvalTensor(node.outputs[0]!).data as Uint8Array, fn);
      },
    },
    (d) => d.plan,
  );
}
