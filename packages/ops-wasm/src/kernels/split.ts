/**
 * SPLIT (TFLM kernels/split.cc) in WebAssembly: equal parts along a constant axis, each output one
 * strided copy of runs of the input (slice-copy.ts). float32, int8, int16, int32, uint8, int64, byte-exact;
 * the checks and the cut are kernel-support's prepareSplit, as in ops-reference. Declines an axis computed
 * at invoke and a data-dependent input.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { SPLIT_TYPES, declineNotConstant, declineType, prepareSplit } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { type SliceCopyData, declineSliceInput, initSliceCopy, invokeSliceCopy, prepareSplitCopy } from './slice-copy.js';

const OP = 'SPLIT';

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 2 || node.outputs.length < 1)
    return `${node.inputs.length} inputs, ${node.outputs.length} outputs (handles 2 inputs, 1 or more outputs)`;
  const input = context.getTensor(node.inputs[1]!);
  return (
    declineType('input', input, SPLIT_TYPES) ??
    declineSliceInput(input) ??
    declineNotConstant(context, node, 0, 'axis', 'the view is fixed at prepare') ??
    true
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareSplit(OP, context, node);
  if (g.bounded) throw new KernelError(OP, node.index, 'the input shape depends on data (supports() declines it)');
  prepareSplitCopy(OP, context, node, node.userData as SliceCopyData, g);
}

/** The SPLIT registration. */
export function createSplit(): Registration<SliceCopyData> {
  return {
    builtinCode: BuiltinOperator.SPLIT,
    version: 4,
    provider: PROVIDER,
    name: 'SPLIT/wasm-bytes',
    supports,
    init: initSliceCopy,
    prepare,
    invoke: (context, node) => invokeSliceCopy(context, node, node.userData as SliceCopyData),
  };
}
