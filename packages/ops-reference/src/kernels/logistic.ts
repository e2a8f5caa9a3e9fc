/**
 * LOGISTIC (tflite-micro kernels/logistic.cc, logistic_common.cc; reference_ops::Logistic for float,
 * reference_integer_ops::Logistic for int8 and int16).
 *
 * - float32: 1 / (1 + exp(-x)), with TFLM's cut-offs (1 above 16.619..., exp(x) below -9).
 * - int8: the input difference from its zero point is rescaled to Q4.27 and run through gemmlowp's
 *   fixed-point logistic; the Q0.31 result is rounded to the output scale 1/256 with zero point -128.
 *   Inputs beyond the saturation radius give -128 / 127 directly.
 * - int16: TFLM's sigmoid lookup table with linear interpolation; input and output zero points 0, output
 *   scale 2^-15, input rescaled by 3 * 4096 * scale (or a power-of-two shortcut for scale 2^-12).
 */
import { BuiltinOperator, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { TFLM_OP_DATA_BYTES } from './elementwise-common.js';
import { prepareSigmoidQuantized, sigmoidInt16, sigmoidInt8Lut } from './logistic-tanh-common.js';
import { FLOAT32_INT8_INT16_UINT8, lookupBytes, unaryKernel, type UnaryOpData } from './unary-common.js';
import { LOGISTIC_SPEC, SigmoidFunction, allocateOpData, opData } from '@micrort/kernel-support';

const EMPTY_U8 = new Uint8Array(0);
const OP = 'LOGISTIC';

/** float32 inputs above this give exactly 1 (TFLM's cutoff_upper). */
const CUTOFF_UPPER = 16.619047164916992;
/** float32 inputs below this give exp(x) (TFLM's cutoff_lower). */
const CUTOFF_LOWER = -9;

interface LogisticOpData extends UnaryOpData {
  /** TFLM's OpDataLogistic in the arena. */
  params: Int32Array;
  type: TensorType;
  /** uint8: TFLite's 256-entry table (persistent). */
  table: Uint8Array;
  /** int8: TFLM's function of each input byte (sigmoidInt8Lut; op data outside the arena). */
  lut: Uint8Array;
}

function prepare(context: TfLiteContext, node: Node, data: LogisticOpData, input: Tensor, output: Tensor): void {
  data.table = prepareSigmoidQuantized(OP, context, node, input, output, data.params, LOGISTIC_SPEC) ?? EMPTY_U8;
  data.type = input.type;
  if (input.type === TensorType.INT8) sigmoidInt8Lut(SigmoidFunction.Logistic, data.params, data.lut);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<LogisticOpData>(OP, node);
  const inT = context.getEvalTensor(node.inputs[0]!);
  const outT = context.getEvalTensor(node.outputs[0]!);
  const input = inT.data;
  const output = outT.data;
  switch (data.type) {
    case TensorType.FLOAT32:
      logisticFloat(input as Float32Array, output as Float32Array, data.count);
      break;
    case TensorType.INT8:
      lookupBytes(data.lut, inT.bytes, outT.bytes, data.count);
      break;
    case TensorType.UINT8:
      lookupBytes(data.table, inT.bytes, outT.bytes, data.count);
      break;
    default:
      sigmoidInt16(SigmoidFunction.Logistic, input as Int16Array, output as Int16Array, data.count, data.params);
  }
}

function logisticFloat(x: Float32Array, y: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    y[i] = v > CUTOFF_UPPER ? 1 : v < CUTOFF_LOWER ? Math.exp(v) : 1 / (1 + Math.exp(-v));
  }
}

/** LOGISTIC reference kernel: float32, int8, int16, uint8. */
export const LOGISTIC = unaryKernel<LogisticOpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.LOGISTIC,
  version: 3,
  types: FLOAT32_INT8_INT16_UINT8,
  init: (context) => ({
    params: allocateOpData(context, TFLM_OP_DATA_BYTES.LOGISTIC).i32,
    type: TensorType.FLOAT32,
    count: 0,
    table: EMPTY_U8,
    lut: new Uint8Array(256),
  }),
  prepare,
  invoke,
});
