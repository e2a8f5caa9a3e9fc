/**
 * SQRT (tflite-micro kernels/elementwise.cc: SqrtEval; TFLite's elementwise.cc SqrtEvalQuantized):
 * - float32: y = sqrtf(x). The double square root of a float32 rounded to float32 is the correctly
 *   rounded sqrtf, so results are exact.
 * - int8 and int16 (TFLite after 2.9, LiteRT; TFLM refuses them; int16 zero points 0): per element, in
 *   float32, d = input scale × (x − input zero point); a negative d fails invoke as TFLite's
 *   "Sqrt is only defined for non-negative values"; else y = (int)(sqrtf(d) / output scale) + output
 *   zero point — truncated toward zero, not rounded — clamped to the type.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { opData, saturateInt32, supportsInputTypes, typeRange } from '@micrort/kernel-support';
import { FLOAT32_INT8_INT16, requireInt16ZeroPoints, requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';

const OP = 'SQRT';

interface SqrtOpData extends UnaryOpData {
  type: TensorType;
  inputScale: number;
  inputZeroPoint: number;
  outputScale: number;
  outputZeroPoint: number;
  lo: number;
  hi: number;
}

function runFloat(x: Float32Array, y: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) y[i] = Math.sqrt(x[i]!);
}

/** The quantized SQRT; returns the index of the first negative input (nothing written from it on), or -1. */
function runQuantized(x: Int8Array | Int16Array, y: Int8Array | Int16Array, d: SqrtOpData): number {
  const f = Math.fround;
  const { count, inputScale, inputZeroPoint, outputScale, outputZeroPoint, lo, hi } = d;
  for (let i = 0; i < count; i++) {
    const dequantized = f(inputScale * (x[i]! - inputZeroPoint));
    if (!(dequantized >= 0)) return i;
    const q = saturateInt32(f(f(Math.sqrt(dequantized)) / outputScale)) + outputZeroPoint;
    y[i] = q < lo ? lo : q > hi ? hi : q;
  }
  return -1;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SqrtOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data;
  const y = context.getEvalTensor(node.outputs[0]!).data;
  if (d.type === TensorType.FLOAT32) {
    runFloat(x as Float32Array, y as Float32Array, d.count);
    return;
  }
  const bad = runQuantized(x as Int8Array | Int16Array, y as Int8Array | Int16Array, d);
  if (bad >= 0)
    throw new KernelError(
      OP,
      node.index,
      `input element ${bad} is ${(x as Int8Array | Int16Array)[bad]}, below the input zero point ${d.inputZeroPoint}: SQRT is only defined for non-negative values`,
    );
}

/** SQRT reference kernel: float32, int8, int16 (zero points 0). */
export const SQRT = {
  ...unaryKernel<SqrtOpData>({
    readsActualDims: true,
    name: OP,
    builtinCode: BuiltinOperator.SQRT,
    version: 1,
    types: FLOAT32_INT8_INT16,
    init: () => ({
      count: 0,
      type: TensorType.FLOAT32,
      inputScale: 0,
      inputZeroPoint: 0,
      outputScale: 1,
      outputZeroPoint: 0,
      lo: 0,
      hi: 0,
    }),
    prepare(_context, node, data, input, output) {
      data.type = input.type;
      if (input.type === TensorType.FLOAT32) return;
      requireQuantizedPair(OP, node, input, output);
      requireInt16ZeroPoints(OP, node, input, output);
      data.inputScale = Math.fround(input.params.scale);
      data.inputZeroPoint = input.params.zeroPoint;
      data.outputScale = Math.fround(output.params.scale);
      data.outputZeroPoint = output.params.zeroPoint;
      [data.lo, data.hi] = typeRange(input.type);
    },
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, FLOAT32_INT8_INT16),
};
