/**
 * REDUCE_ALL (tflite-micro kernels/reduce.cc): the logical AND of bool elements over the given axes
 * (reference_ops::ReduceGeneric with initial value true). Arena as TFLM's min/max reductions:
 * OpDataReduce plus scratch requests of 4 bytes per input dimension and per axis value.
 */
import { BuiltinOperator, TensorType, type Node, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  OP_DATA_REDUCE_BYTES,
  Reducer,
  type ReduceOpData,
  fillOutputs,
  foldInput,
  prepareReduce,
  writeReduceShapeFields,
  followsReduce,
} from './reduce-common.js';
import { allocateOpDataBlock, opDataBlock } from './transpose-common.js';
import { opData, supportsInputTypes } from '@micrort/kernel-support';

const OP = 'REDUCE_ALL';
const BOOL: readonly TensorType[] = [TensorType.BOOL];

function prepare(context: TfLiteContext, node: Node): void {
  const block = opDataBlock(OP, node);
  const d = opData<ReduceOpData>(OP, node);
  const { input, axis, plan } = prepareReduce(OP, context, node, BOOL);
  block.setInt32(8, context.requestScratchBufferInArena(4 * input.dims.length), true);
  block.setInt32(12, context.requestScratchBufferInArena(4 * axis.elementCount), true);
  writeReduceShapeFields(block, plan);
  d.plan = plan;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ReduceOpData>(OP, node);
  const plan = d.plan!;
  const out = context.getEvalTensor(node.outputs[0]!).data as Uint8Array;
  fillOutputs(out, plan.numOutputs, 1);
  foldInput(plan, Reducer.All, context.getEvalTensor(node.inputs[0]!).data as Uint8Array, out);
}

/** REDUCE_ALL reference kernel: bool. */
export const REDUCE_ALL = followsReduce<ReduceOpData>(
  {
    builtinCode: BuiltinOperator.REDUCE_ALL,
    version: 1,
    provider: PROVIDER,
    name: OP,
    supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, BOOL),
    init: (context: TfLiteContext): ReduceOpData => ({
      ...allocateOpDataBlock(context, OP_DATA_REDUCE_BYTES),
      plan: null,
      reducer: Reducer.All,
      initial: 1,
    }),
    prepare,
    invoke,
  },
  (d) => d.plan,
);
