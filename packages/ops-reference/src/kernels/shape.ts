/**
 * SHAPE (TFLM kernels/shape.cc): writes the input's dimensions into a 1-D int32 output. The input may have
 * any type, strings included (its values are not read). TFLite's int64 `out_type` is handled too (the
 * dimensions in the low words). A data-dependent input (WHERE, UNIQUE…) has its actual dims written at
 * every invoke (data-dependent-shape.ts); any other input's, known in prepare, are kept from there.
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput, tensorTypeName } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { fillOpData, isDataDependent, newOpData, opData, setOutputShape } from '@micrort/kernel-support';

const OP = 'SHAPE';

/** Op data computed in prepare (TFLM keeps none). */
export interface ShapeOpData {
  dims: Int32Array;
  /** The input is data-dependent: `dims` are refreshed from its actual dims at every invoke. */
  bounded: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  if (output.type !== TensorType.INT32 && output.type !== TensorType.INT64)
    throw new KernelError(
      OP,
      node.index,
      `output type ${tensorTypeName(output.type)} (tensor ${output.index}) is not supported; handled: int32, int64`,
    );
  setOutputShape(OP, context, node, 0, [input.dims.length]);
  const dims = Int32Array.from(input.dims);
  // int64: each dimension as a (low, high = 0) word pair.
  const data: ShapeOpData = {
    dims: output.type === TensorType.INT64 ? Int32Array.from(Array.from(dims).flatMap((v) => [v, 0])) : dims,
    bounded: isDataDependent(input),
  };
  fillOpData(OP, node, data);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ShapeOpData>(OP, node);
  if (d.bounded) {
    const dims = context.getEvalTensor(node.inputs[0]!).dims;
    const step = d.dims.length / Math.max(1, dims.length);
    for (let i = 0; i < dims.length; i++) d.dims[i * step] = dims[i]!;
  }
  context.getEvalTensor(node.outputs[0]!).words.set(d.dims);
}

/** SHAPE registration: any input type, int32 or int64 output. */
export const SHAPE: Registration = {
  builtinCode: BuiltinOperator.SHAPE,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, [TensorType.INT32, TensorType.INT64], 0, 'output'),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
