/**
 * EXPAND_DIMS (TFLM kernels/expand_dims.cc): inserts a dimension of size 1 at `axis` (a constant int32
 * scalar or 1-element tensor; negative counts from the end, `axis + rank + 1`; constant, or folded
 * during prepare). The output gets the expanded shape; invoke copies the elements (nothing when the
 * output shares the input's memory). A data-dependent input makes the output data-dependent: its actual
 * dims are the input's actual ones with the 1 inserted.
 * Types: float32, int8, int16 as TFLM; every fixed-size type and string (a byte copy, as TFLite's
 * kernel), with an int32 or int64 axis, as TFLite.
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { FIXED_SIZE_TYPES, prepareStringCopy, readConstantAxis, requireSameTypeAs, typeSupport } from './data-common.js';
import { flatInPlace } from './in-place-common.js';
import { expectType, isDataDependent, newOpData, opData, setOutputShapeOrBound } from '@micrort/kernel-support';
import { type DimsMap, dimsMap, followMappedShape } from './data-dependent-shape.js';

/** Op data: the dims map of a data-dependent input, else null. */
interface ExpandDimsOpData {
  map: DimsMap | null;
}

const OP = 'EXPAND_DIMS';
const TYPES: readonly TensorType[] = [...FIXED_SIZE_TYPES, TensorType.STRING];

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const axisTensor = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TYPES);
  requireSameTypeAs(OP, node, output, 'output', input, 'input');
  if (axisTensor.dims.length > 1)
    throw new KernelError(
      OP,
      node.index,
      `axis (tensor ${axisTensor.index}) must be a scalar or a 1-element vector, got ${axisTensor.dims.length} dimensions`,
    );
  const rank = input.dims.length;
  const raw = readConstantAxis(OP, node, axisTensor, 'axis', [TensorType.INT32, TensorType.INT64]);
  const axis = raw < 0 ? raw + rank + 1 : raw;
  if (axis < 0 || axis > rank)
    throw new KernelError(OP, node.index, `axis ${raw} is out of range for a ${rank}-D input (valid: ${-rank - 1}..${rank})`);
  const expected = Array.from(input.dims);
  expected.splice(axis, 0, 1);
  const bounded = isDataDependent(input);
  setOutputShapeOrBound(OP, context, node, 0, expected, bounded);
  const from = Array.from(input.dims.keys());
  from.splice(axis, 0, -1);
  opData<ExpandDimsOpData>(OP, node).map = bounded ? dimsMap(from) : null;
  prepareStringCopy(OP, context, node, input);
}

function invoke(context: TfLiteContext, node: Node): void {
  const map = opData<ExpandDimsOpData>(OP, node).map;
  if (map) followMappedShape(context, node, map);
  const input = context.getEvalTensor(node.inputs[0]!).bytes;
  const output = context.getEvalTensor(node.outputs[0]!).bytes;
  if (input.buffer === output.buffer && input.byteOffset === output.byteOffset) return; // in place
  output.set(input);
}

/** EXPAND_DIMS registration (op versions 1..3). */
export const EXPAND_DIMS: Registration = {
  builtinCode: BuiltinOperator.EXPAND_DIMS,
  version: 3,
  provider: PROVIDER,
  name: OP,
  inPlace: flatInPlace,
  supports: (context, node) => typeSupport(context, node, TYPES),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
