/**
 * TANH (tflite-micro kernels/tanh.cc; reference_ops::Tanh for float, reference_integer_ops::Tanh for
 * int8 and int16).
 *
 * - float32: tanh(x).
 * - int8: the input difference from its zero point is rescaled to Q4.27 and run through gemmlowp's
 *   fixed-point tanh; the Q0.31 result is rounded to the output scale 1/128 (zero point 0). Inputs
 *   beyond the saturation radius give -128 / 127 directly.
 * - int16: TFLM's sigmoid lookup table (tanh(x) = 2 sigmoid(2x) - 1) with linear interpolation; zero
 *   points 0, output scale 2^-15; power-of-two input scales 2^-12 and 2^-11 need no multiplier.
 * - uint8 (TFLite only): TFLite's 256-entry float-computed table (tanhf), built in prepare.
 */
import { BuiltinOperator, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { TFLM_OP_DATA_BYTES } from './elementwise-common.js';
import { prepareSigmoidQuantized, sigmoidInt16, sigmoidInt8Lut } from './logistic-tanh-common.js';
import { FLOAT32_INT8_INT16_UINT8, lookupBytes, unaryKernel, type UnaryOpData } from './unary-common.js';
import { TANH_SPEC, SigmoidFunction, allocateOpData, opData } from '@micrort/kernel-support';

const EMPTY_U8 = new Uint8Array(0);
const OP = 'TANH';

interface TanhOpData extends UnaryOpData {
  /** TFLM's tanh OpData in the arena. */
  params: Int32Array;
  type: TensorType;
  /** uint8: TFLite's 256-entry table (persistent). */
  table: Uint8Array;
  /** int8: TFLM's function of each input byte (sigmoidInt8Lut; op data outside the arena). */
  lut: Uint8Array;
}

function prepare(context: TfLiteContext, node: Node, data: TanhOpData, input: Tensor, output: Tensor): void {
  data.table = prepareSigmoidQuantized(OP, context, node, input, output, data.params, TANH_SPEC) ?? EMPTY_U8;
  data.type = input.type;
  if (input.type === TensorType.INT8) sigmoidInt8Lut(SigmoidFunction.Tanh, data.params, data.lut);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<TanhOpData>(OP, node);
  const inT = context.getEvalTensor(node.inputs[0]!);
  const outT = context.getEvalTensor(node.outputs[0]!);
  const input = inT.data;
  const output = outT.data;
  const n = data.count;
  switch (data.type) {
    case TensorType.FLOAT32: {
      const x = input as Float32Array;
      const y = output as Float32Array;
      for (let i = 0; i < n; i++) y[i] = Math.tanh(x[i]!);
      break;
    }
    case TensorType.INT8:
      lookupBytes(data.lut, inT.bytes, outT.bytes, n);
      break;
    case TensorType.UINT8:
      lookupBytes(data.table, inT.bytes, outT.bytes, n);
      break;
    default:
      sigmoidInt16(SigmoidFunction.Tanh, input as Int16Array, output as Int16Array, n, data.params);
  }
}

/** TANH reference kernel: float32, int8, int16, uint8. */
export const TANH = unaryKernel<TanhOpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.TANH,
  version: 3,
  types: FLOAT32_INT8_INT16_UINT8,
  init: (context) => ({
    params: allocateOpData(context, TFLM_OP_DATA_BYTES.TANH).i32,
    type: TensorType.FLOAT32,
    count: 0,
    table: EMPTY_U8,
    lut: new Uint8Array(256),
  }),
  prepare,
  invoke,
});
