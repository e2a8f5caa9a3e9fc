/**
 * SPLIT_V (TFLM kernels/split_v.cc) in WebAssembly: parts of the given sizes along a constant axis, each
 * output one strided copy of runs of the input (slice-copy.ts). float32, int8, int16, int32, uint8, int64,
 * byte-exact; the checks and the sizes (the outputs' extents along the axis; a constant size_splits with
 * one -1 sets them, as TFLite) are kernel-support's prepareSplitV, as in ops-reference. Declines an axis
 * computed at invoke and a data-dependent input.
 */
import { BuiltinOperator, KernelError, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { SPLIT_TYPES, declineNotConstant, declineType, prepareSplitV } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { type SliceCopyData, declineSliceInput, initSliceCopy, invokeSliceCopy, prepareSplitCopy } from './slice-copy.js';

const OP = 'SPLIT_V';

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length !== 3 || node.outputs.length < 1)
    return `${node.inputs.length} inputs, ${node.outputs.length} outputs (handles 3 inputs, 1 or more outputs)`;
  const input = context.getTensor(node.inputs[0]!);
  return (
    declineType('input', input, SPLIT_TYPES) ??
    declineSliceInput(input) ??
    declineNotConstant(context, node, 2, 'axis', 'the view is fixed at prepare') ??
    true
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareSplitV(OP, context, node);
  if (g.bounded) throw new KernelError(OP, node.index, 'the input shape depends on data (supports() declines it)');
  prepareSplitCopy(OP, context, node, node.userData as SliceCopyData, g);
}

/** The SPLIT_V registration. */
export function createSplitV(): Registration<SliceCopyData> {
  return {
    builtinCode: BuiltinOperator.SPLIT_V,
    version: 3,
    provider: PROVIDER,
    name: 'SPLIT_V/wasm-bytes',
    supports,
    init: initSliceCopy,
    prepare,
    invoke: (context, node) => invokeSliceCopy(context, node, node.userData as SliceCopyData),
  };
}
