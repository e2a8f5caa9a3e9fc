/**
 * FLOOR_DIV (tflite-micro kernels/floor_div.cc; reference_ops::FloorDiv): floor(double(a) / double(b)),
 * broadcasting up to 4-D. float32 as TFLM (the double quotient rounded to float32); int32 as TFLite, and
 * its later int16 and int8: the double quotient's floor converted back as C's static_cast on x86 (a
 * quotient out of the type's range, INT32_MIN / −1, wraps through INT32_MIN). The double quotient of
 * two integers below 2^31 is never rounded across an integer (its distance to the nearest integer, at
 * least 1/|b|, exceeds its rounding error, at most 2^-22/|b|), so the floor is exact. A zero anywhere in
 * the divisor fails the invoke before anything is written ("Division by 0"), as in TFLM.
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { type FloorDivModOpData, checkDivisor, floorDivModKernel } from './floor-div-mod-common.js';
import { floatToInt32X86 } from './cast.js';
import { opData } from '@micrort/kernel-support';

const OP = 'FLOOR_DIV';

type Values = Float32Array | Int32Array | Int16Array | Int8Array;

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<FloorDivModOpData>(OP, node);
  const plan = d.plan!;
  const divisor = context.getEvalTensor(node.inputs[1]!);
  const a = context.getEvalTensor(node.inputs[0]!).data as Values;
  const b = divisor.data as Values;
  const out = context.getEvalTensor(node.outputs[0]!).data as Values;
  checkDivisor(OP, node, divisor);
  const integer = d.type !== TensorType.FLOAT32;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    if (integer)
      for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = floatToInt32X86(Math.floor(a[i1]! / b[i2]!));
    else for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) out[o] = Math.floor(a[i1]! / b[i2]!);
    plan.next();
  }
}

/** FLOOR_DIV reference kernel: float32, int32, int16, int8. */
export const FLOOR_DIV = floorDivModKernel(
  OP,
  BuiltinOperator.FLOOR_DIV,
  3,
  [TensorType.FLOAT32, TensorType.INT32, TensorType.INT16, TensorType.INT8],
  invoke,
);
