/**
 * RESHAPE (tflite-micro kernels/reshape.cc + reshape_common.cc), any element type.
 *
 * The output shape is the output tensor's own shape, as in TFLM. A single -1 in it is inferred in
 * prepare from the input's element count (written into the output's dims, before memory planning); the
 * shape input (input 1) and the new_shape option are not needed to run the op and, as in TFLM, are not
 * consulted. invoke copies the bytes, or does nothing when input and output share their memory.
 */
import { BuiltinOperator, KernelError, numElements, tensorTypeName, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { prepareStringCopy } from './data-common.js';

const OP = 'RESHAPE';

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
  if (node.inputs.length === 1 && output.dims.length === 1 && output.dims[0] === 0 && inputCount === 1)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) uses the legacy scalar shape [0], which micrort does not support`,
    );
  const problem = inferStretchDimension(output.dims, inputCount);
  if (problem !== null) throw new KernelError(OP, node.index, problem);
  const outputCount = numElements(output.dims);
  if (outputCount !== inputCount)
    throw new KernelError(
      OP,
      node.index,
      `input (tensor ${input.index}, shape [${Array.from(input.dims).join(', ')}]) has ${inputCount} elements, output (tensor ${output.index}, shape [${Array.from(output.dims).join(', ')}]) has ${outputCount}`,
    );
  prepareStringCopy(OP, context, node, input);
}

function invoke(context: TfLiteContext, node: Node): void {
  const input = context.getEvalTensor(node.inputs[0]!).bytes;
  const output = context.getEvalTensor(node.outputs[0]!).bytes;
  if (input.buffer === output.buffer && input.byteOffset === output.byteOffset) return; // in place
  output.set(input);
}

/** The reference RESHAPE kernel (no op data). */
export const RESHAPE: Registration = {
  builtinCode: BuiltinOperator.RESHAPE,
  version: 2,
  provider: PROVIDER,
  inPlace: flatInPlace,
  name: OP,
  prepare,
  invoke,
};
