/**
 * SQUEEZE (TFLM kernels/squeeze.cc): removes dimensions of size 1 — those listed in `squeeze_dims`
 * (negative counts from the end; each must have size 1), or every size-1 dimension when the list is
 * empty. At most 8 input dimensions. The output takes the squeezed shape through kernel-support's
 * `setOutputShape` (TFLite's ResizeTensor: a converter that stored a 0-D result as shape [1] gets the
 * shape TFLite computes, [], wherever setOutputShape resizes); invoke copies the bytes (nothing when the
 * output shares the input's memory). Any fixed-size type (TFLM copies raw bytes), and string as TFLite
 * (the serialized strings pass through whole). A data-dependent input (WHERE, GATHER of data-dependent
 * indices…) with `squeeze_dims` listed makes the output data-dependent: its actual dims are the input's
 * actual ones without those (a listed dimension that is not 1 at invoke fails that invoke). Without
 * `squeeze_dims` the dimensions to drop would depend on the data: refused (DataDependentShapeError).
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, elementSize, getInput, getOutput, tensorTypeName } from '@micrort/core';
import type { Node, Registration, SqueezeOptions, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { prepareStringCopy, requireSameTypeAs } from './data-common.js';
import { flatInPlace } from './in-place-common.js';
import { isDataDependent, newOpData, opData, refuseDataDependentInput, setOutputShapeOrBound } from '@micrort/kernel-support';
import { type DimsMap, dimsMap, followMappedShape } from './data-dependent-shape.js';

/** Op data: the dims map of a data-dependent input, else null. */
interface SqueezeOpData {
  map: DimsMap | null;
}

const OP = 'SQUEEZE';
/** TFLM's max_squeeze_dims. */
export const SQUEEZE_MAX_DIMS = 8;

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  if (elementSize(input.type) === undefined && input.type !== TensorType.STRING)
    throw new KernelError(
      OP,
      node.index,
      `input type ${tensorTypeName(input.type)} (tensor ${input.index}) is not supported (no fixed element size)`,
    );
  requireSameTypeAs(OP, node, output, 'output', input, 'input');
  const rank = input.dims.length;
  if (rank > SQUEEZE_MAX_DIMS)
    throw new KernelError(OP, node.index, `input has ${rank} dimensions, at most ${SQUEEZE_MAX_DIMS} are supported`);
  const squeezeDims = (node.builtinData as SqueezeOptions | null)?.squeezeDims ?? new Int32Array(0);
  const bounded = isDataDependent(input);
  if (bounded && squeezeDims.length === 0)
    refuseDataDependentInput(OP, context, node, 0, 'SQUEEZE without squeeze_dims would drop the dimensions that are 1 at invoke');
  const squeeze = new Array<boolean>(rank).fill(false);
  if (squeezeDims.length === 0) {
    for (let i = 0; i < rank; i++) squeeze[i] = input.dims[i] === 1;
  } else {
    for (const d of squeezeDims) {
      const a = d < 0 ? d + rank : d;
      if (!(a >= 0 && a < rank)) throw new KernelError(OP, node.index, `squeeze_dims entry ${d} is out of range for a ${rank}-D input`);
      if (input.dims[a] !== 1)
        throw new KernelError(
          OP,
          node.index,
          `cannot squeeze dimension ${d}: it has size ${input.dims[a]} in input shape [${Array.from(input.dims).join(', ')}], not 1`,
        );
      squeeze[a] = true;
    }
  }
  const kept = Array.from(input.dims.keys()).filter((i) => !squeeze[i]);
  setOutputShapeOrBound(
    OP,
    context,
    node,
    0,
    kept.map((i) => input.dims[i]!),
    bounded,
  );
  opData<SqueezeOpData>(OP, node).map = bounded ? dimsMap(kept) : null;
  prepareStringCopy(OP, context, node, input);
}

function invoke(context: TfLiteContext, node: Node): void {
  const map = opData<SqueezeOpData>(OP, node).map;
  if (map) {
    const dims = context.getEvalTensor(node.inputs[0]!).dims;
    // A squeezed dimension is 1 in the bound; at invoke it may be 0 (nothing to squeeze: TFLite refuses).
    for (let i = 0; i < dims.length; i++)
      if (dims[i] !== 1 && !includes(map.from, i))
        throw new KernelError(OP, node.index, `cannot squeeze dimension ${i}: it has size ${dims[i]} at this invoke, not 1`);
    followMappedShape(context, node, map);
  }
  const input = context.getEvalTensor(node.inputs[0]!).bytes;
  const output = context.getEvalTensor(node.outputs[0]!).bytes;
  if (input.buffer === output.buffer && input.byteOffset === output.byteOffset) return; // in place
  output.set(input);
}

/** SQUEEZE registration (op versions 1..2). */
export const SQUEEZE: Registration = {
  builtinCode: BuiltinOperator.SQUEEZE,
  version: 2,
  provider: PROVIDER,
  name: OP,
  inPlace: flatInPlace,
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};

function includes(list: Int32Array, v: number): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}
