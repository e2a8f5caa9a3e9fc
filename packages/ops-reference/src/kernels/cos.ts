/**
 * COS (tflite-micro kernels/elementwise.cc: GenericPrepare<IsNumericSupportedType>, CosEval): float32
 * only, elementwise std::cos.
 */
import { BuiltinOperator } from '@micrort/core';
import { FLOAT32_ONLY, unaryKernel, type UnaryOpData } from './unary-common.js';
import { opData } from '@micrort/kernel-support';

/** COS reference kernel: float32. */
export const COS = unaryKernel<UnaryOpData>({
  readsActualDims: true,
  name: 'COS',
  builtinCode: BuiltinOperator.COS,
  version: 1,
  types: FLOAT32_ONLY,
  init: () => ({ count: 0 }),
  invoke(context, node) {
    const n = opData<UnaryOpData>('COS', node).count;
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < n; i++) y[i] = Math.cos(x[i]!);
  },
});
