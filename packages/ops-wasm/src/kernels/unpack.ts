/**
 * UNPACK (TFLM kernels/unpack.cc) in WebAssembly: one output per index along the axis, each one strided
 * copy of runs of the input (slice-copy.ts). float32, int8, int16, int32, uint8, bool, float16,
 * byte-exact; the checks and the output shapes are kernel-support's prepareUnpack, as in ops-reference.
 * Declines a data-dependent input.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { UNPACK_TYPES, declineType, prepareUnpack } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { type SliceCopyData, declineSliceInput, initSliceCopy, invokeSliceCopy, prepareSplitCopy } from './slice-copy.js';

const OP = 'UNPACK';

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 1 || node.outputs.length < 1)
    return `${node.inputs.length} inputs, ${node.outputs.length} outputs (handles 1 input, 1 or more outputs)`;
  const input = context.getTensor(node.inputs[0]!);
  return declineType('input', input, UNPACK_TYPES) ?? declineSliceInput(input) ?? true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareUnpack(OP, context, node);
  if (g.bounded) throw new KernelError(OP, node.index, 'the input shape depends on data (supports() declines it)');
  prepareSplitCopy(OP, context, node, node.userData as SliceCopyData, g);
}

/** The UNPACK registration. */
export function createUnpack(): Registration<SliceCopyData> {
  return {
    builtinCode: BuiltinOperator.UNPACK,
    version: 4,
    provider: PROVIDER,
    name: 'UNPACK/wasm-bytes',
    supports,
    init: initSliceCopy,
    prepare,
    invoke: (context, node) => invokeSliceCopy(context, node, node.userData as SliceCopyData),
  };
}
