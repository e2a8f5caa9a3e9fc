/**
 * REDUCE_ANY (TFLite reduce.cc, the OrOp reduction): the logical OR of bool elements over constant axes,
 * false for an empty reduction; the output keeps reduced dimensions as 1 with `keep_dims`.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { declineArity, declineTypes, fillOpData, newOpData, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { followsWalk, prepareReduceWalk, walkNext, walkStart, type ReduceWalk } from './reduce-walk-common.js';

const OP = 'REDUCE_ANY';
const BOOL: readonly TensorType[] = [TensorType.BOOL];

interface ReduceAnyOpData {
  walk: ReduceWalk;
}

function prepare(context: TfLiteContext, node: Node): void {
  fillOpData<ReduceAnyOpData>(OP, node, { walk: prepareReduceWalk(OP, context, node, BOOL).walk });
}

function invoke(context: TfLiteContext, node: Node): void {
  const w = opData<ReduceAnyOpData>(OP, node).walk;
  const x = context.getEvalTensor(node.inputs[0]!).bytes;
  const y = context.getEvalTensor(node.outputs[0]!).bytes;
  const r = w.reduced;
  let base = walkStart(w);
  for (let o = 0; o < w.numOutputs; o++) {
    let any = 0;
    for (let k = 0; k < w.count && any === 0; k++) if (x[base + r[k]!] !== 0) any = 1;
    y[o] = any;
    base = walkNext(w, base);
  }
}

/** REDUCE_ANY registration (op version 1). */
export const REDUCE_ANY: Registration = followsWalk<object>(
  {
    builtinCode: BuiltinOperator.REDUCE_ANY,
    version: 1,
    provider: PROVIDER,
    name: OP,
    supports: (context, node) => declineArity(node, 2, 1) ?? declineTypes(context, node, [0], BOOL) ?? true,
    init: newOpData,
    prepare,
    invoke,
  },
  (d) => (d as ReduceAnyOpData).walk,
);
