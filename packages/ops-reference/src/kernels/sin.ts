/**
 * SIN (tflite-micro kernels/elementwise.cc: GenericPrepare<IsNumericSupportedType>, SinEval): float32
 * only, elementwise std::sin.
 */
import { BuiltinOperator, type Registration } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { prepareUnaryFloat, type UnaryFloatOpData } from './elementwise-common.js';

const OP = 'SIN';

/** SIN reference kernel: float32. */
export const SIN: Registration<UnaryFloatOpData> = {
  builtinCode: BuiltinOperator.SIN,
  version: 1,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: 'SIN',
  init: () => ({ count: 0 }),
  prepare: (context, node) => prepareUnaryFloat(OP, context, node),
  invoke(context, node) {
    const n = (node.userData as UnaryFloatOpData).count;
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < n; i++) y[i] = Math.sin(x[i]!);
  },
};
