/**
 * FLOOR_MOD (tflite-micro kernels/floor_mod.cc; reference_ops::FloorMod): the remainder with the sign of
 * the divisor: r = a mod b truncating (fmodf for float32, C++'s `%` for integers), plus b when r is
 * non-zero and its sign differs from b's; broadcasting up to 4-D. float32 as TFLM: fmod is exact, so `%`
 * on the float32 values gives fmodf's result, and a zero divisor gives NaN (TFLM does not check it).
 * As TFLite, int32, int64 (exact on int32 word pairs, int64-common.ts) and the later int16 and int8, whose
 * zero divisors fail the invoke before anything is written ("Division by 0"). For int32 and narrower,
 * `%` and the correction are exact on doubles (every value below 2^32 in magnitude).
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { type FloorDivModOpData, checkDivisor, floorDivModKernel } from './floor-div-mod-common.js';
import { Int64Op, binaryInt64 } from './int64-common.js';
import { opData } from '@micrort/kernel-support';

const OP = 'FLOOR_MOD';

type Values = Float32Array | Int32Array | Int16Array | Int8Array;

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<FloorDivModOpData>(OP, node);
  const plan = d.plan!;
  const x = context.getEvalTensor(node.inputs[0]!);
  const divisor = context.getEvalTensor(node.inputs[1]!);
  const y = context.getEvalTensor(node.outputs[0]!);
  if (d.type !== TensorType.FLOAT32) checkDivisor(OP, node, divisor);
  if (d.type === TensorType.INT64) {
    binaryInt64(OP, node, Int64Op.FloorMod, plan, x.words, divisor.words, y.words, null);
    return;
  }
  const a = x.data as Values;
  const b = divisor.data as Values;
  const out = y.data as Values;
  const n = plan.inner;
  const s1 = plan.innerStride1;
  const s2 = plan.innerStride2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1;
    let i2 = plan.off2;
    for (let k = 0, o = plan.offOut; k < n; k++, o++, i1 += s1, i2 += s2) {
      const v = b[i2]!;
      const m = a[i1]! % v;
      out[o] = m !== 0 && v < 0 !== m < 0 ? m + v : m;
    }
    plan.next();
  }
}

/** FLOOR_MOD reference kernel: float32, int32, int64, int16, int8. */
export const FLOOR_MOD = floorDivModKernel(
  OP,
  BuiltinOperator.FLOOR_MOD,
  2,
  [TensorType.FLOAT32, TensorType.INT32, TensorType.INT64, TensorType.INT16, TensorType.INT8],
  invoke,
);
