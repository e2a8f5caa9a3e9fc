/**
 * PACK (TFLM kernels/pack.cc) in WebAssembly: stacking N inputs of one shape along a new axis is
 * CONCATENATION along that axis of the inputs with a 1 inserted there, so it runs on CONCATENATION's
 * concat_bytes (assembly/layout/concat.ts): for each of `outer` steps (the input axes before the new
 * one) every input contributes one run of its remaining axes, moved with memory.copy. float32, int8,
 * int16, int32, int64, uint8 and uint32, byte-exact; the checks and the output shape are kernel-support's
 * preparePack, as in ops-reference. Declines inputs whose shape depends on data.
 */
import { BuiltinOperator, KernelError, elementSize, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PACK_TYPES, declineType, isDataDependent, preparePack } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { type ConcatData, initConcat, invokeConcat, prepareConcatBytes } from './concatenation.js';

const OP = 'PACK';

function supports(context: TfLiteContext, node: Node): true | string {
  if (node.inputs.length < 1 || node.outputs.length !== 1)
    return `${node.inputs.length} inputs, ${node.outputs.length} outputs (handles 1 or more inputs, 1 output)`;
  for (let i = 0; i < node.inputs.length; i++) {
    const input = context.getTensor(node.inputs[i]!);
    const why = declineType(`input ${i}`, input, PACK_TYPES);
    if (why) return why;
    if (isDataDependent(input)) return `input ${i}'s shape depends on data (the runs are fixed at prepare)`;
  }
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = preparePack(OP, context, node);
  if (g.bounded) throw new KernelError(OP, node.index, 'an input shape depends on data (supports() declines it)');
  const run = g.inner * elementSize(g.first.type)!;
  prepareConcatBytes(OP, context, node, node.userData as ConcatData, g.outer, new Array<number>(node.inputs.length).fill(run));
}

/** The PACK registration. */
export function createPack(): Registration<ConcatData> {
  return {
    builtinCode: BuiltinOperator.PACK,
    version: 4,
    provider: PROVIDER,
    name: 'PACK/wasm-bytes',
    supports,
    init: initConcat,
    prepare,
    invoke: invokeConcat,
  };
}
