/**
 * REAL and IMAG (TFLite complex_support.cc): one part of each element of a complex64 (→ float32) or
 * complex128 (→ float64) tensor, in the input's shape.
 */
import { TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineTypes, fillOpData, newOpData, opData, TensorTypeError } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';

const COMPLEX: readonly TensorType[] = [TensorType.COMPLEX64, TensorType.COMPLEX128];

interface ComplexPartOpData {
  count: number;
}

/** The registration of REAL (`part` 0) or IMAG (`part` 1). */
export function complexPartKernel(op: string, builtinCode: number, part: 0 | 1): Registration {
  return {
    builtinCode,
    version: 1,
    provider: PROVIDER,
    name: op,
    supports: (context, node) =>
      declineArity(node, 1, 1) ?? declineTypes(context, node, [0], COMPLEX, [TensorType.FLOAT32, TensorType.FLOAT64]) ?? true,
    init: newOpData,
    prepare(context: TfLiteContext, node: Node) {
      const { input, output, count } = prepareUnary(op, context, node, COMPLEX, [TensorType.FLOAT32, TensorType.FLOAT64]);
      const want = input.type === TensorType.COMPLEX64 ? TensorType.FLOAT32 : TensorType.FLOAT64;
      if (output.type !== want) throw new TensorTypeError(op, node.index, 'output', output.index, output.type, [want]);
      fillOpData<ComplexPartOpData>(op, node, { count });
    },
    invoke(context: TfLiteContext, node: Node) {
      const n = opData<ComplexPartOpData>(op, node).count;
      const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array | Float64Array;
      const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array | Float64Array;
      for (let i = 0, j = part; i < n; i++, j += 2) y[i] = x[j]!;
    },
  };
}
