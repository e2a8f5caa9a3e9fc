/**
 * REVERSE_V2 (TFLM kernels/reverse.cc) in WebAssembly: the input as [outer, middle, inner] with the
 * reversed (contiguous) axes as `middle`, copied by TRANSPOSE's byte kernel with a negative byte stride
 * along `middle` from its last row (prepareStridedCopy; whole runs of `inner` elements by memory.copy).
 * float32, int8, uint8, int16, int32, int64, bool, float16, byte-exact; the checks and the axes are
 * kernel-support's prepareReverse, as in ops-reference. Declines axes computed at invoke and a
 * data-dependent input.
 */
import { BuiltinOperator, elementSize, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { REVERSE_V2_TYPES, declineArity, declineNotConstant, declineType, prepareReverse } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { constantInputCopies } from './kernel-common.js';
import { type SliceCopyData, declineSliceInput, initSliceCopy, invokeSliceCopy } from './slice-copy.js';
import { prepareStridedCopy } from './transpose.js';

const OP = 'REVERSE_V2';

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  return (
    declineType('input', input, REVERSE_V2_TYPES) ??
    declineSliceInput(input) ??
    declineNotConstant(context, node, 1, 'axis', 'the view is fixed at prepare') ??
    true
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as SliceCopyData;
  const g = prepareReverse(OP, context, node);
  const es = elementSize(g.input.type)!;
  const row = g.inner * es;
  const t = prepareStridedCopy(OP, context, node, [g.outer, g.middle, g.inner], [g.middle * row, -row, es], es);
  data.k = t.k;
  data.params = Int32Array.of(t.params);
  data.bases = Int32Array.of((g.middle - 1) * row);
  data.inputPosition = 0;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

/** The REVERSE_V2 registration. */
export function createReverseV2(): Registration<SliceCopyData> {
  return {
    builtinCode: BuiltinOperator.REVERSE_V2,
    version: 3,
    provider: PROVIDER,
    name: 'REVERSE_V2/wasm-bytes',
    supports,
    init: initSliceCopy,
    prepare,
    invoke: (context, node) => invokeSliceCopy(context, node, node.userData as SliceCopyData),
  };
}
