/**
 * RESHAPE (tflite-micro kernels/reshape.cc + reshape_common.cc; the target shape as TFLite's
 * reshape.cc GetOutputShape), any element type.
 *
 * The target shape, as TFLite: the shape input (input 1) when it is a constant int32 vector — model data,
 * or folded during prepare from the SHAPE → … → PACK subgraph the converter writes for a dynamic batch
 * (core's interpreter/folding.ts) —, else the new_shape option (`[0]`: a scalar, the legacy encoding),
 * else — a shape computed at invoke, which TFLite resizes at eval — the output tensor's own shape, as
 * TFLM. A single -1 is inferred from the input's element count, and the output gets the result
 * (setOutputShape) before memory planning. invoke copies the bytes, or does nothing when input and
 * output share their memory.
 *
 * A data-dependent input (WHERE, UNIQUE…) with a target shape that has a -1 makes the output
 * data-dependent: planned with the -1 inferred from the input's bound, it gets at every invoke the target
 * with the -1 inferred from the input's actual element count (which must divide, as TFLite requires). A
 * target without -1 keeps its shape, and an invoke whose input does not hold that many elements fails.
 * Without a target known in prepare, a data-dependent input is refused (DataDependentShapeError).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  numElements,
  tensorTypeName,
  type Node,
  type Registration,
  type ReshapeOptions,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { isDataDependent, newOpData, opData, refuseDataDependentInput, setOutputShapeOrBound } from '@micrort/kernel-support';
import { prepareStringCopy } from './data-common.js';

const OP = 'RESHAPE';

/** Op data, for a data-dependent input only. */
interface ReshapeOpData {
  /** The input is data-dependent. */
  bounded: boolean;
  /** Position of the -1 in `target`, or -1: the output keeps its shape. */
  stretch: number;
  /** Product of the target's other dimensions. */
  known: number;
  /** The output's dims at this invoke. */
  dims: Int32Array;
}

/**
 * Resolves the single -1 ("stretch") dimension of `dims` in place so that it holds `inputCount` elements.
 * Returns null when done, else a description of the problem (several -1, counts that do not divide).
 */
export function inferStretchDimension(dims: Int32Array, inputCount: number): string | null {
  let stretch = -1;
  let known = 1;
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i]!;
    if (d === -1) {
      if (stretch !== -1) return `output shape [${Array.from(dims).join(', ')}] has more than one -1 dimension`;
      stretch = i;
    } else if (d < 0) {
      return `output shape [${Array.from(dims).join(', ')}] has a negative dimension ${d}`;
    } else {
      known *= d;
    }
  }
  if (stretch === -1) return null;
  if (known === 0 || inputCount % known !== 0)
    return `cannot infer the -1 dimension of [${Array.from(dims).join(', ')}] from ${inputCount} input elements`;
  dims[stretch] = inputCount / known;
  return null;
}

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length < 1 || node.inputs.length > 2)
    throw new KernelError(OP, node.index, `expects 1 or 2 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== output.type)
    throw new KernelError(
      OP,
      node.index,
      `input type ${tensorTypeName(input.type)} and output type ${tensorTypeName(output.type)} must match`,
    );
  const inputCount = numElements(input.dims);
  const target = targetShape(context, node);
  const d = opData<ReshapeOpData>(OP, node);
  d.bounded = isDataDependent(input);
  if (d.bounded) {
    if (target === null) refuseDataDependentInput(OP, context, node, 0, 'RESHAPE has no target shape in prepare to follow it with');
    d.stretch = target.indexOf(-1);
    d.known = 1;
    for (let i = 0; i < target.length; i++) if (i !== d.stretch) d.known *= target[i]!;
  }
  if (target === null && node.inputs.length === 1 && output.dims.length === 1 && output.dims[0] === 0 && inputCount === 1)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) uses the legacy scalar shape [0], which micrort does not support`,
    );
  const dims = target ?? Int32Array.from(output.dims);
  const problem = inferStretchDimension(dims, inputCount);
  if (problem !== null) throw new KernelError(OP, node.index, problem);
  const outputCount = numElements(dims);
  if (outputCount !== inputCount)
    throw new KernelError(
      OP,
      node.index,
      `input (tensor ${input.index}, shape [${Array.from(input.dims).join(', ')}]) has ${inputCount} elements, output (tensor ${output.index}, shape [${Array.from(dims).join(', ')}]) has ${outputCount}`,
    );
  d.dims = dims;
  setOutputShapeOrBound(OP, context, node, 0, dims, d.bounded && d.stretch >= 0);
  prepareStringCopy(OP, context, node, input);
}

/**
 * The target shape TFLite's GetOutputShape takes when micrort knows it in prepare: a constant int32
 * vector shape input, else the new_shape option ([0] is the legacy scalar); null when neither (the
 * output keeps its own shape, as TFLM).
 */
function targetShape(context: TfLiteContext, node: Node): Int32Array | null {
  const shapeIndex = node.inputs.length === 2 ? node.inputs[1]! : -1;
  const shape = shapeIndex >= 0 ? context.getTensor(shapeIndex) : null;
  if (shape && shape.dims.length === 1 && shape.type === TensorType.INT32 && shape.isConstant)
    return Int32Array.from(shape.data as Int32Array);
  const option = (node.builtinData as ReshapeOptions | null)?.newShape;
  if (option && option.length > 0) return option.length === 1 && option[0] === 0 ? new Int32Array(0) : Int32Array.from(option);
  return null;
}

/** A data-dependent input: the output's dims from its actual element count. */
function followInput(context: TfLiteContext, node: Node, d: ReshapeOpData): void {
  const count = numElements(context.getEvalTensor(node.inputs[0]!).dims);
  if (d.stretch < 0) {
    if (count !== numElements(d.dims))
      throw new KernelError(OP, node.index, `the input holds ${count} elements at this invoke, the output's shape ${numElements(d.dims)}`);
    return;
  }
  if (d.known === 0 ? count !== 0 : count % d.known !== 0)
    throw new KernelError(OP, node.index, `cannot infer the -1 dimension: ${count} input elements at this invoke, ${d.known} per -1 step`);
  d.dims[d.stretch] = d.known === 0 ? 0 : count / d.known;
  context.setActualShape(node.outputs[0]!, d.dims);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ReshapeOpData>(OP, node);
  if (d.bounded) followInput(context, node, d);
  const input = context.getEvalTensor(node.inputs[0]!).bytes;
  const output = context.getEvalTensor(node.outputs[0]!).bytes;
  if (input.buffer === output.buffer && input.byteOffset === output.byteOffset) return; // in place
  output.set(input);
}

/** The reference RESHAPE kernel (op data read only for a data-dependent input). */
export const RESHAPE: Registration = {
  builtinCode: BuiltinOperator.RESHAPE,
  version: 2,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: OP,
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
