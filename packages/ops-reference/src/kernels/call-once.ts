/**
 * CALL_ONCE (tflite-micro kernels/call_once.cc): invokes its init subgraph on the first invoke after
 * prepare, and does nothing afterwards. No inputs, no outputs. As in TFLM the kernel has no reset, so
 * `interpreter.reset()` does not make it run again (reset only refills variables).
 */
import { BuiltinOperator, KernelError, type CallOnceOptions, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkSubgraphIndex } from './control-flow-common.js';
import { opData } from '@micrort/kernel-support';

const OP = 'CALL_ONCE';
/** sizeof(OpData) in TFLM: an int and a bool. */
const TFLM_OP_DATA_BYTES = 8;

interface OpData {
  initSubgraph: number;
  hasRun: boolean;
}

function init(context: TfLiteContext): OpData {
  context.allocatePersistentBuffer(TFLM_OP_DATA_BYTES);
  return { initSubgraph: -1, hasRun: false };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const params = node.builtinData as Partial<CallOnceOptions> | null;
  if (!params || params.initSubgraphIndex === undefined)
    throw new KernelError(OP, node.index, 'CallOnceOptions (init_subgraph_index) are missing');
  if (node.inputs.length !== 0) throw new KernelError(OP, node.index, `expects no inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 0) throw new KernelError(OP, node.index, `expects no outputs, got ${node.outputs.length}`);
  checkSubgraphIndex(OP, context, node, params.initSubgraphIndex, 'init');
  d.initSubgraph = params.initSubgraphIndex;
  d.hasRun = false;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (d.hasRun) return;
  context.invokeSubgraph(d.initSubgraph);
  d.hasRun = true;
}

/** The reference CALL_ONCE kernel. */
export const CALL_ONCE: Registration<OpData> = {
  builtinCode: BuiltinOperator.CALL_ONCE,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
