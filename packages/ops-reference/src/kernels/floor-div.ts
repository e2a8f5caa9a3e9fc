/**
 * FLOOR_DIV (tflite-micro kernels/floor_div.cc; reference_ops::FloorDiv): float32,
 * floor(double(a) / double(b)) rounded to float32, broadcasting up to 4-D. A zero anywhere in the divisor
 * fails the invoke before anything is written ("Division by 0"), as in TFLM.
 */
import { BuiltinOperator, KernelError, type Node, type TfLiteContext } from '@micrort/core';
import { type FloorDivModOpData, floorDivModKernel } from './floor-div-mod-common.js';
import { opData } from '@micrort/kernel-support';

const OP = 'FLOOR_DIV';

function invoke(context: TfLiteContext, node: Node): void {
  const plan = opData<FloorDivModOpData>(OP, node).plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const b = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  for (let i = 0; i < b.length; i++) if (b[i] === 0) throw new KernelError(OP, node.index, `Division by 0 (divisor element ${i})`);
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = Math.floor(a[i1]! / b[i2]!);
    plan.next();
  }
}

/** FLOOR_DIV reference kernel: float32. */
export const FLOOR_DIV = floorDivModKernel(OP, BuiltinOperator.FLOOR_DIV, 3, invoke);
