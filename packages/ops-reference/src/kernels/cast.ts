/**
 * CAST (tflite-micro kernels/cast.cc): elementwise static_cast between element types.
 *
 * TFLM micro casts from int8, int16, int32, uint32, float32 to int8, int16, int32, uint32, float32; this
 * kernel also accepts uint8 and bool on either side (same static_cast semantics). Results are C's on
 * x86-64: integers wrap to the target width, integer to float rounds to nearest even, float to integer
 * truncates toward zero, and out-of-range floats (and NaN) give what the x86 conversion instructions
 * give: INT32_MIN truncated to the target width, or for uint32 the low 32 bits of the int64 conversion.
 * Any value cast to bool is `x != 0`.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { unaryTensors } from './elementwise-common.js';
import { expectSameElementCount, expectType, opData } from '@micrort/kernel-support';

const OP = 'CAST';

const INPUT_TYPES = [
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT32,
  TensorType.FLOAT32,
  TensorType.BOOL,
] as const;
const OUTPUT_TYPES = INPUT_TYPES;

/** How the values are converted, chosen in prepare. */
enum CastMode {
  /** Typed-array assignment is the C conversion (integer wrap, int to float rounding, same type). */
  Assign,
  /** Any type to bool: x != 0. */
  ToBool,
  /** float32 to a type of at most 32 bits other than uint32: x86 cvttss2si (32-bit). */
  FloatToInt32,
  /** float32 to uint32: x86-64 cvttss2si into 64 bits, low 32 bits kept. */
  FloatToUint32,
}

type Values = Float32Array | Int8Array | Uint8Array | Int16Array | Int32Array | Uint32Array;

interface CastOpData {
  mode: CastMode;
  count: number;
}

const TWO_POW_31 = 2147483648;
const TWO_POW_32 = 4294967296;
const TWO_POW_63 = 9223372036854775808;

/** static_cast<int32_t>(float) as x86 computes it: truncation, INT32_MIN when out of range or NaN. */
export function floatToInt32X86(x: number): number {
  return x > -TWO_POW_31 - 1 && x < TWO_POW_31 ? x | 0 : -TWO_POW_31;
}

/** static_cast<uint32_t>(float) as x86-64 computes it: the low 32 bits of the truncated int64 (0 when out of range or NaN). */
export function floatToUint32X86(x: number): number {
  if (!(x > -TWO_POW_63 && x < TWO_POW_63)) return 0;
  const t = Math.trunc(x) % TWO_POW_32;
  return t < 0 ? t + TWO_POW_32 : t;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<CastOpData>(OP, node);
  const { input, output } = unaryTensors(OP, context, node);
  expectType(OP, node, 'input', input, INPUT_TYPES);
  expectType(OP, node, 'output', output, OUTPUT_TYPES);
  data.count = expectSameElementCount(OP, node, input, output);
  if (output.type === TensorType.BOOL) data.mode = input.type === TensorType.BOOL ? CastMode.Assign : CastMode.ToBool;
  else if (input.type === TensorType.FLOAT32 && output.type === TensorType.UINT32) data.mode = CastMode.FloatToUint32;
  else if (input.type === TensorType.FLOAT32 && output.type !== TensorType.FLOAT32) data.mode = CastMode.FloatToInt32;
  else data.mode = CastMode.Assign;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<CastOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Values;
  const y = context.getEvalTensor(node.outputs[0]!).data as Values;
  const n = data.count;
  switch (data.mode) {
    case CastMode.Assign:
      for (let i = 0; i < n; i++) y[i] = x[i]!;
      break;
    case CastMode.ToBool:
      for (let i = 0; i < n; i++) y[i] = x[i] !== 0 ? 1 : 0;
      break;
    case CastMode.FloatToInt32:
      for (let i = 0; i < n; i++) y[i] = floatToInt32X86(x[i]!);
      break;
    case CastMode.FloatToUint32:
      for (let i = 0; i < n; i++) y[i] = floatToUint32X86(x[i]!);
      break;
  }
}

/** CAST reference kernel: int8, uint8, int16, int32, uint32, float32, bool in any combination. */
export const CAST: Registration<CastOpData> = {
  builtinCode: BuiltinOperator.CAST,
  version: 6,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: 'CAST',
  init: () => ({ mode: CastMode.Assign, count: 0 }),
  prepare,
  invoke,
};
