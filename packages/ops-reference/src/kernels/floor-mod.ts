/**
 * FLOOR_MOD (tflite-micro kernels/floor_mod.cc; reference_ops::FloorMod): float32, the remainder with the
 * sign of the divisor: r = fmodf(a, b), plus b when r is non-zero and its sign differs from b's;
 * broadcasting up to 4-D. fmod is exact, so `%` on the float32 values gives fmodf's result; a zero
 * divisor gives NaN (TFLM does not check it).
 */
import { BuiltinOperator, type Node, type TfLiteContext } from '@micrort/core';
import { type FloorDivModOpData, floorDivModKernel } from './floor-div-mod-common.js';
import { opData } from '@micrort/kernel-support';

function invoke(context: TfLiteContext, node: Node): void {
  const plan = opData<FloorDivModOpData>('FLOOR_MOD', node).plan!;
  const a = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const b = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const y = b[i2]!;
      const m = a[i1]! % y;
      out[o] = m !== 0 && y < 0 !== m < 0 ? m + y : m;
    }
    plan.next();
  }
}

/** FLOOR_MOD reference kernel: float32. */
export const FLOOR_MOD = floorDivModKernel('FLOOR_MOD', BuiltinOperator.FLOOR_MOD, 2, invoke);
