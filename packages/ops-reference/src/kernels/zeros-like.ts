/**
 * ZEROS_LIKE (tflite-micro kernels/zeros_like.cc): an output of the input's type and element count filled
 * with zeros, for int64, int32, int8 and float32 (TFLM refuses others at invoke, "ZerosLike only currently
 * supports int64, int32, and float32"; this kernel refuses them in prepare). int8 gets raw zeros, not the
 * zero point, as TFLM writes them.
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { unaryKernel, type UnaryOpData } from './unary-common.js';
import { supportsInputTypes } from '@micrort/kernel-support';

const TYPES: readonly TensorType[] = [TensorType.INT64, TensorType.INT32, TensorType.INT8, TensorType.FLOAT32];

function invoke(context: TfLiteContext, node: Node): void {
  // All-zero bytes are 0 in every handled type (and +0.0 in float32).
  context.getEvalTensor(node.outputs[0]!).bytes.fill(0);
}

/** ZEROS_LIKE reference kernel: int64, int32, int8, float32. */
export const ZEROS_LIKE = {
  ...unaryKernel<UnaryOpData>({
    readsActualDims: true,
    name: 'ZEROS_LIKE',
    builtinCode: BuiltinOperator.ZEROS_LIKE,
    version: 1,
    types: TYPES,
    init: () => ({ count: 0 }),
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
