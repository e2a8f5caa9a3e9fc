/**
 * GELU (TFLite activations.cc GeluPrepare/GeluEval, reference/gelu.h): x·Φ(x), exact
 * (0.5·x·(1 + erf(x/√2))) or, with `approximate`, the tanh form 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
 * float32 computes the formula per element; uint8 and int8 look every value up in a 256-entry table
 * that prepare fills as TFLite's PopulateLookupTable does (dequantize, transform in float, round to
 * the output's quantization, clamp). The exact form is TFLite 2.9's: erf in double precision and the
 * result rounded once to float; the tanh form is computed in float as TFLite writes it (the arithmetic
 * and the table are kernel-support's gelu.ts, shared with ops-wasm).
 */
import { BuiltinOperator, TensorType, type GeluOptions, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineTypes, expectQuantized, geluApproximate, geluExact, geluTable, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';
import { lookupBytes } from './unary-common.js';

const OP = 'GELU';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.UINT8, TensorType.INT8];

interface GeluOpData {
  type: TensorType;
  count: number;
  approximate: boolean;
  /** uint8/int8: the output byte of each input byte (persistent, TFLite's OpData::table). */
  table: Uint8Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<GeluOpData>(OP, node);
  const { input, output, count } = prepareUnary(OP, context, node, TYPES);
  data.type = input.type;
  data.count = count;
  data.approximate = (node.builtinData as GeluOptions | null)?.approximate ?? false;
  if (input.type !== TensorType.FLOAT32) {
    expectQuantized(OP, node, 'input', input);
    expectQuantized(OP, node, 'output', output);
    geluTable(
      data.table,
      input.type === TensorType.INT8,
      input.params.scale,
      input.params.zeroPoint,
      output.params.scale,
      output.params.zeroPoint,
      data.approximate,
    );
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<GeluOpData>(OP, node);
  const n = data.count;
  if (data.type === TensorType.FLOAT32) {
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    if (data.approximate) for (let i = 0; i < n; i++) y[i] = geluApproximate(x[i]!);
    else for (let i = 0; i < n; i++) y[i] = geluExact(x[i]!);
    return;
  }
  lookupBytes(data.table, context.getEvalTensor(node.inputs[0]!).bytes, context.getEvalTensor(node.outputs[0]!).bytes, n);
}

/** GELU registration (op versions 1..2). */
export const GELU: Registration = {
  builtinCode: BuiltinOperator.GELU,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], TYPES) ?? true,
  init: (context): GeluOpData => ({
    type: TensorType.FLOAT32,
    count: 0,
    approximate: false,
    table: context.allocatePersistentBuffer(256).u8,
  }),
  prepare,
  invoke,
};
