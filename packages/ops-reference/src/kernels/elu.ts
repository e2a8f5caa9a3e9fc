/**
 * ELU (tflite-micro kernels/elu.cc; reference_ops::Elu).
 *
 * - float32: x < 0 ? expm1f(x) : x.
 * - int8: a 256-entry table built in prepare exactly as TFLM's PopulateLookupTable does, in float32
 *   (dequantize, exp(x) - 1 for negative x, multiply by 1 / output scale, round half away from zero, add
 *   the output zero point, truncate, clamp). The table is TFLM's OpData, so it lives in the arena.
 *
 * TFLM fails other types at invoke ("ELU only supports float32 and int8 currently"); this kernel refuses
 * them in prepare.
 */
import { BuiltinOperator, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import { requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';
import { eluLutTransform, opData, supportsInputTypes, tflmLutPopulateInt8 } from '@micrort/kernel-support';

const OP = 'ELU';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8];

interface EluOpData extends UnaryOpData {
  /** TFLM's OpData { int8_t table[256] } in the arena, indexed by the input byte (uint8 cast of the int8 value). */
  table: Int8Array;
  type: TensorType;
}

function prepare(_context: TfLiteContext, node: Node, data: EluOpData, input: Tensor, output: Tensor): void {
  data.type = input.type;
  if (input.type !== TensorType.INT8) return;
  requireQuantizedPair(OP, node, input, output);
  tflmLutPopulateInt8(
    input.params.scale,
    input.params.zeroPoint,
    output.params.scale,
    output.params.zeroPoint,
    eluLutTransform,
    data.table,
  );
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<EluOpData>(OP, node);
  const n = d.count;
  if (d.type === TensorType.FLOAT32) {
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      y[i] = v < 0 ? Math.expm1(v) : v;
    }
    return;
  }
  const x = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const table = d.table;
  for (let i = 0; i < n; i++) y[i] = table[x[i]! & 0xff]!;
}

/** ELU reference kernel: float32, int8. */
export const ELU = {
  ...unaryKernel<EluOpData>({
    readsActualDims: true,
    name: OP,
    builtinCode: BuiltinOperator.ELU,
    version: 1,
    types: TYPES,
    init: (context) => ({ table: context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.ELU).i8, type: TensorType.FLOAT32, count: 0 }),
    prepare,
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
