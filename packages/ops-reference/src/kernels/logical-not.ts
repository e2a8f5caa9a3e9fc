/**
 * LOGICAL_NOT (tflite-micro kernels/elementwise.cc: LogicalNotEval): bool only (TFLM's prepare type check
 * is a no-op and its eval requires bool; this kernel refuses other types in prepare); y = !x.
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { unaryKernel, type UnaryOpData } from './unary-common.js';
import { opData, supportsInputTypes } from '@micrort/kernel-support';

const BOOL: readonly TensorType[] = [TensorType.BOOL];

function invoke(context: TfLiteContext, node: Node): void {
  const n = opData<UnaryOpData>('LOGICAL_NOT', node).count;
  const x = context.getEvalTensor(node.inputs[0]!).data as Uint8Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Uint8Array;
  for (let i = 0; i < n; i++) y[i] = x[i] === 0 ? 1 : 0;
}

/** LOGICAL_NOT reference kernel: bool. */
export const LOGICAL_NOT = {
  ...unaryKernel<UnaryOpData>({
    readsActualDims: true,
    name: 'LOGICAL_NOT',
    builtinCode: BuiltinOperator.LOGICAL_NOT,
    version: 1,
    types: BOOL,
    init: () => ({ count: 0 }),
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, BOOL),
};
