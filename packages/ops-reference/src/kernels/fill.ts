/**
 * FILL (tflite-micro kernels/fill.cc; reference_ops::Fill): an output filled with the scalar value of
 * input 1, for float32, int32 and int8 values (copied raw; TFLM refuses other value types at invoke,
 * "Fill only currently supports float32 for input 1"; this kernel refuses them in prepare). Input 0 holds
 * the output dims; when it is constant it must be a 1-D int8/int16/int32/int64 tensor equal to the
 * output's shape, as TFLM checks (TFLM never resizes the output).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  tensorTypeName,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { expectType, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'FILL';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT32, TensorType.INT8];
const DIMS_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.INT16, TensorType.INT32, TensorType.INT64];

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const dims = getInput(context, node, 0, OP);
  const value = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  if (value.dims.length !== 0)
    throw new KernelError(OP, node.index, `value (tensor ${value.index}) must be a scalar, it has shape [${value.dims.join(',')}]`);
  expectType(OP, node, 'value', value, TYPES);
  if (output.type !== value.type)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) is ${tensorTypeName(output.type)}, the value ${tensorTypeName(value.type)}`,
    );
  if (!dims.isConstant) return;
  expectType(OP, node, 'dims', dims, DIMS_TYPES);
  if (dims.dims.length !== 1 || dims.dims[0] !== output.dims.length)
    throw new KernelError(
      OP,
      node.index,
      `dims (tensor ${dims.index}) must be a 1-D tensor of ${output.dims.length} values (the output rank), it has shape [${dims.dims.join(',')}]`,
    );
  for (let i = 0; i < output.dims.length; i++) {
    const v = Number(dims.data[i]!);
    if (v !== output.dims[i])
      throw new KernelError(
        OP,
        node.index,
        `dims (tensor ${dims.index}) [${Array.from(dims.data as ArrayLike<number | bigint>, Number).join(',')}] differ from the output shape [${output.dims.join(',')}]`,
      );
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const value = context.getEvalTensor(node.inputs[1]!).data as Float32Array;
  (context.getEvalTensor(node.outputs[0]!).data as Float32Array).fill(value[0]!);
}

/** FILL reference kernel: float32, int32, int8 values. */
export const FILL = {
  builtinCode: BuiltinOperator.FILL,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES, 1, 'value'),
  prepare,
  invoke,
};
