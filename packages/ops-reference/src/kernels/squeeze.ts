/**
 * SQUEEZE (TFLM kernels/squeeze.cc): removes dimensions of size 1 — those listed in `squeeze_dims`
 * (negative counts from the end; each must have size 1), or every size-1 dimension when the list is
 * empty. At most 8 input dimensions. The output takes the squeezed shape through kernel-support's
 * `setOutputShape` (TFLite's ResizeTensor: a converter that stored a 0-D result as shape [1] gets the
 * shape TFLite computes, [], wherever setOutputShape resizes); invoke copies the bytes (nothing when the
 * output shares the input's memory). Any fixed-size type (TFLM copies raw bytes), and string as TFLite
 * (the serialized strings pass through whole).
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, elementSize, getInput, getOutput, tensorTypeName } from '@micrort/core';
import type { Node, Registration, SqueezeOptions, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { prepareStringCopy, requireSameTypeAs } from './data-common.js';
import { setOutputShape } from '@micrort/kernel-support';
import { flatInPlace } from './in-place-common.js';

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
  setOutputShape(
    OP,
    context,
    node,
    0,
    Array.from(input.dims).filter((_, i) => !squeeze[i]),
  );
  prepareStringCopy(OP, context, node, input);
}

function invoke(context: TfLiteContext, node: Node): void {
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
  prepare,
  invoke,
};
