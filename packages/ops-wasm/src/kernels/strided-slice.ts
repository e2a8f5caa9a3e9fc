/**
 * STRIDED_SLICE (TFLM kernels/strided_slice.cc) in WebAssembly: constant begin/end/strides with the begin,
 * end and shrink masks, negative indices and strides and the `offset` flag, as a strided copy
 * (slice-copy.ts; a negative stride walks the input backwards). Every fixed-size type of 1, 2, 4 or 8
 * bytes, byte-exact; the checks, the slice and the output shape are kernel-support's prepareStridedSlice,
 * as in ops-reference. Declines begin, end or strides computed at invoke, strings, and a data-dependent
 * input.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineNotConstant, prepareStridedSlice } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { type SliceCopyData, declineSliceInput, initSliceCopy, invokeSliceCopy, prepareSliceCopy } from './slice-copy.js';

const OP = 'STRIDED_SLICE';
const WHY = 'the view is fixed at prepare';

function supports(context: TfLiteContext, node: Node): true | string {
  return (
    declineArity(node, 4, 1) ??
    declineSliceInput(context.getTensor(node.inputs[0]!)) ??
    declineNotConstant(context, node, 1, 'begin', WHY) ??
    declineNotConstant(context, node, 2, 'end', WHY) ??
    declineNotConstant(context, node, 3, 'strides', WHY) ??
    true
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareStridedSlice(OP, context, node);
  if (g.bounded) throw new KernelError(OP, node.index, 'the input shape depends on data (supports() declines it)');
  prepareSliceCopy(OP, context, node, node.userData as SliceCopyData, g.input, g.axes);
}

/** The STRIDED_SLICE registration. */
export function createStridedSlice(): Registration<SliceCopyData> {
  return {
    builtinCode: BuiltinOperator.STRIDED_SLICE,
    version: 8,
    provider: PROVIDER,
    name: 'STRIDED_SLICE/wasm-bytes',
    supports,
    init: initSliceCopy,
    prepare,
    invoke: (context, node) => invokeSliceCopy(context, node, node.userData as SliceCopyData),
  };
}
