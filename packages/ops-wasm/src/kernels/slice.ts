/**
 * SLICE (TFLM kernels/slice.cc) in WebAssembly: input[begin : begin + size] (size -1: to the end of the
 * axis) with constant begin and size, as a strided copy (slice-copy.ts): whole rows by memory.copy where
 * the innermost axis is taken whole or in part. Every fixed-size type of 1, 2, 4 or 8 bytes, byte-exact;
 * the checks and the slice are kernel-support's (checkSliceNode, resolveSlice), as in ops-reference.
 * Declines begin or size computed at invoke, strings, and a data-dependent input.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import {
  FIXED_SIZE_TYPES,
  SLICE_MAX_DIMS,
  checkSliceNode,
  declineArity,
  declineNotConstant,
  newSliceAxes,
  resolveSlice,
  setOutputShape,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { type SliceCopyData, declineSliceInput, initSliceCopy, invokeSliceCopy, prepareSliceCopy } from './slice-copy.js';

const OP = 'SLICE';

function supports(context: TfLiteContext, node: Node): true | string {
  return (
    declineArity(node, 3, 1) ??
    declineSliceInput(context.getTensor(node.inputs[0]!)) ??
    declineNotConstant(context, node, 1, 'begin', 'the view is fixed at prepare') ??
    declineNotConstant(context, node, 2, 'size', 'the view is fixed at prepare') ??
    true
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const s = checkSliceNode(OP, context, node, FIXED_SIZE_TYPES);
  if (!s.begin.isConstant || !s.size.isConstant)
    throw new KernelError(OP, node.index, 'begin and size must be constant (supports() declines them)');
  const inDims = new Int32Array(SLICE_MAX_DIMS).fill(1);
  inDims.set(s.input.dims, SLICE_MAX_DIMS - s.rank);
  const axes = newSliceAxes();
  const problem = resolveSlice(axes, inDims, s.rank, s.begin, s.size, s.int64, 0, false);
  if (problem !== null) throw new KernelError(OP, node.index, problem);
  setOutputShape(OP, context, node, 0, axes.counts.subarray(SLICE_MAX_DIMS - s.rank));
  prepareSliceCopy(OP, context, node, node.userData as SliceCopyData, s.input, axes);
}

/** The SLICE registration. */
export function createSlice(): Registration<SliceCopyData> {
  return {
    builtinCode: BuiltinOperator.SLICE,
    version: 6,
    provider: PROVIDER,
    name: 'SLICE/wasm-bytes',
    supports,
    init: initSliceCopy,
    prepare,
    invoke: (context, node) => invokeSliceCopy(context, node, node.userData as SliceCopyData),
  };
}
