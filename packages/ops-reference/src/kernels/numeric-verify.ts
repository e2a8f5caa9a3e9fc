/**
 * NumericVerify (TFLite's custom op, kernels/numeric_verify.cc): compares a quantized tensor (uint8, int8,
 * int16) or a float16 one with its float32 reference; the float32 output holds dequantized − reference
 * per element (dequantized as TFLite's DEQUANTIZE: scale · (q − zero point) in double, rounded to float).
 * With `log_if_failed` and a `tolerance` of at least 0.1, a difference above tolerance · scale fails the
 * invoke with the mismatching values, as TFLite reports it. Options: a FlexBuffers map (tolerance,
 * log_if_failed).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  parseFlexMap,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectType, opData, sameDims, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { dequantizeFloat16 } from './quantize-common.js';

const OP = 'NumericVerify';
const TYPES: readonly TensorType[] = [TensorType.UINT8, TensorType.INT8, TensorType.INT16, TensorType.FLOAT16];

interface NumericVerifyOpData {
  count: number;
  float16: boolean;
  scale: number;
  zeroPoint: number;
  check: boolean;
  maxDiff: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const ref = getInput(context, node, 1, OP);
  expectType(OP, node, 'input', input, TYPES);
  expectType(OP, node, 'reference', ref, [TensorType.FLOAT32]);
  expectType(OP, node, 'output', getOutput(context, node, 0, OP), [TensorType.FLOAT32]);
  if (!sameDims(input.dims, ref.dims))
    throw new KernelError(OP, node.index, `input [${input.dims.join(',')}] and reference [${ref.dims.join(',')}] must have one shape`);
  setOutputShape(OP, context, node, 0, input.dims);
  const m = node.customInitialData ? parseFlexMap(node.customInitialData) : null;
  const tolerance = Math.fround(m?.get('tolerance')?.value ?? 0);
  const log = (m?.get('log_if_failed')?.value ?? 0) !== 0;
  const d = opData<NumericVerifyOpData>(OP, node);
  d.count = input.elementCount;
  d.float16 = input.type === TensorType.FLOAT16;
  d.scale = input.params.scale;
  d.zeroPoint = input.params.zeroPoint;
  d.check = log && tolerance >= 0.1;
  d.maxDiff = Math.fround(tolerance * input.params.scale);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<NumericVerifyOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!);
  const ref = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!);
  const y = out.data as Float32Array;
  if (d.float16) dequantizeFloat16(x.data as Uint16Array, y, out.bytes, d.count);
  else {
    const q = x.data as Int8Array | Uint8Array | Int16Array;
    for (let i = 0; i < d.count; i++) y[i] = d.scale * (q[i]! - d.zeroPoint);
  }
  for (let i = 0; i < d.count; i++) {
    const dequant = y[i]!;
    y[i] = dequant - ref[i]!;
    if (d.check && Math.abs(y[i]!) > d.maxDiff)
      throw new KernelError(
        OP,
        node.index,
        `mismatch at ${i}: reference ${ref[i]} dequantized to ${dequant} (scale ${d.scale}, zero point ${d.zeroPoint}), |difference| ${Math.abs(y[i]!)} > ${d.maxDiff}`,
      );
  }
}

/** NumericVerify registration (TFLite's custom op). */
export const NUMERIC_VERIFY: Registration<NumericVerifyOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0], TYPES, [TensorType.FLOAT32]) ?? true,
  init: () => ({ count: 0, float16: false, scale: 0, zeroPoint: 0, check: false, maxDiff: 0 }),
  prepare,
  invoke,
};
