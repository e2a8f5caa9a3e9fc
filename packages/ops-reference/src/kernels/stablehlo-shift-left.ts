/**
 * STABLEHLO_SHIFT_LEFT (LiteRT tflite/kernels/stablehlo_shift_left.cc): `a << b` element-wise, int8,
 * int16 or int32. C++ shifts the operand promoted to int and stores the result narrowed to the type; the
 * count is taken modulo 32 as x86 and WebAssembly shifts take it (a count of 32 or more, or negative, is
 * undefined behaviour in C++). LiteRT reads the second input with the first's element count without
 * checking its shape; here the two inputs must have the same shape.
 */
import { BuiltinOperator, TensorType, type EvalTensor, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareSameShapeBinary } from './stablehlo-elementwise-common.js';

const OP = 'STABLEHLO_SHIFT_LEFT';

interface OpData {
  a: EvalTensor | null;
  b: EvalTensor | null;
  out: EvalTensor | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  prepareSameShapeBinary(OP, context, node, [TensorType.INT8, TensorType.INT16, TensorType.INT32]);
  const d = opData<OpData>(OP, node);
  d.a = context.getEvalTensor(node.inputs[0]!);
  d.b = context.getEvalTensor(node.inputs[1]!);
  d.out = context.getEvalTensor(node.outputs[0]!);
}

function invoke(_context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const a = d.a!.data as Int8Array | Int16Array | Int32Array;
  const b = d.b!.data as Int8Array | Int16Array | Int32Array;
  const out = d.out!.data as Int8Array | Int16Array | Int32Array;
  // The typed-array store narrows as C++ does; JavaScript's << takes the count modulo 32.
  for (let i = 0; i < out.length; i++) out[i] = a[i]! << b[i]!;
}

/** The reference STABLEHLO_SHIFT_LEFT kernel. */
export const STABLEHLO_SHIFT_LEFT: Registration<OpData> = {
  builtinCode: BuiltinOperator.STABLEHLO_SHIFT_LEFT,
  provider: PROVIDER,
  name: OP,
  init: () => ({ a: null, b: null, out: null }),
  prepare,
  invoke,
};
