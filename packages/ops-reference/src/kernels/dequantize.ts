/**
 * DEQUANTIZE (tflite-micro kernels/dequantize.cc + dequantize_common.cc): int8, uint8 or int16 to
 * float32 as (float)scale * (q - zero_point). Per-tensor quantization only (TFLM reads the first scale;
 * a per-channel input is rejected here instead of being silently dequantized with one scale).
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { opDataOf, requireQuantized, requireSameElementCount, requireType, unaryTensors } from './elementwise-common.js';
import { dequantize } from './quantize-common.js';

const OP = 'DEQUANTIZE';

/** Bytes of TFLM's DequantizeOpData ({double scale; int32 zero_point} + 3 int32, 8-aligned). */
const OP_DATA_DEQUANTIZE_BYTES = 32;

/** Offsets in DequantizeOpData: the double scale is f64 word 0, the zero point int32 word 2. */
const SCALE_F64 = 0;
const ZERO_POINT = 2;

interface DequantizeOpData {
  params: Int32Array;
  paramsF64: Float64Array;
  count: number;
}

function init(context: TfLiteContext): DequantizeOpData {
  const region = context.allocatePersistentBuffer(OP_DATA_DEQUANTIZE_BYTES);
  return { params: region.i32, paramsF64: new Float64Array(region.buffer, region.offset, OP_DATA_DEQUANTIZE_BYTES / 8), count: 0 };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opDataOf<DequantizeOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  requireType(OP, node, input, 'input', [TensorType.INT8, TensorType.UINT8, TensorType.INT16]);
  requireType(OP, node, output, 'output', [TensorType.FLOAT32]);
  requireQuantized(OP, node, input, 'input');
  if (input.quantization!.scale.length !== 1)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be per-tensor quantized, got ${input.quantization!.scale.length} scales`);
  data.count = requireSameElementCount(OP, node, input, output);
  data.paramsF64[SCALE_F64] = input.params.scale;
  data.params[ZERO_POINT] = input.params.zeroPoint;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as DequantizeOpData;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int8Array | Uint8Array | Int16Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  dequantize(input, output, data.count, data.paramsF64[SCALE_F64]!, data.params[ZERO_POINT]!);
}

/** The reference DEQUANTIZE kernel. */
export const DEQUANTIZE: Registration<DequantizeOpData> = {
  builtinCode: BuiltinOperator.DEQUANTIZE,
  version: 6,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
