/**
 * NEG (tflite-micro kernels/neg.cc; reference_ops::Negate): y = -x. float32 as TFLM (which fails other
 * types at invoke, "Type INT32 (2) not supported."); int32 and int64 as TFLite, wrapping (−INT32_MIN is
 * INT32_MIN; int64 on int32 word pairs).
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { neg64, opData, supportsInputTypes } from '@micrort/kernel-support';
import { type UnaryOpData, unaryKernel } from './unary-common.js';

const OP = 'NEG';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32, TensorType.INT64];

interface NegOpData extends UnaryOpData {
  type: TensorType;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<NegOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!);
  const y = context.getEvalTensor(node.outputs[0]!);
  const n = d.count;
  if (d.type === TensorType.INT64) {
    for (let i = 0; i < 2 * n; i += 2) neg64(y.words, i, x.words, i);
    return;
  }
  const a = x.data as Float32Array | Int32Array;
  const b = y.data as Float32Array | Int32Array;
  for (let i = 0; i < n; i++) b[i] = -a[i]!;
}

const base = unaryKernel<NegOpData>({
  readsActualDims: true,
  name: OP,
  builtinCode: BuiltinOperator.NEG,
  version: 2,
  types: TYPES,
  init: () => ({ count: 0, type: TensorType.FLOAT32 }),
  prepare: (_context, _node, data, input) => {
    data.type = input.type;
  },
  invoke,
});

/** NEG reference kernel: float32, int32, int64. */
export const NEG = { ...base, supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES) };
