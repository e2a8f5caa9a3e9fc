/**
 * VAR_HANDLE (tflite-micro kernels/var_handle.cc): finds or creates the resource variable named by its
 * options (container, shared name) in the interpreter's resource variables, and makes its output (a
 * RESOURCE tensor of one element) hold the variable's id. As in TFLM the output's data is the op data
 * itself (a persistent int32), bound in prepare, so the planner gives it no arena space.
 */
import {
  AllocationType,
  BuiltinOperator,
  KernelError,
  type Node,
  type Registration,
  type TfLiteContext,
  type VarHandleOptions,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { opData } from '@micrort/kernel-support';

const OP = 'VAR_HANDLE';
/** sizeof(OpData) in TFLM: the int32 resource id. */
const TFLM_OP_DATA_BYTES = 4;

interface OpData {
  /** The persistent op data: one int32, the resource id. */
  resourceId: Int32Array;
  id: number;
}

function init(context: TfLiteContext): OpData {
  const region = context.allocatePersistentBuffer(TFLM_OP_DATA_BYTES);
  return { resourceId: region.i32, id: -1 };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (node.inputs.length !== 0) throw new KernelError(OP, node.index, `expects no inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const params = (node.builtinData as Partial<VarHandleOptions> | null) ?? {};
  const resources = context.getResourceVariables();
  if (!resources)
    throw new KernelError(
      OP,
      node.index,
      'requires resource variables: create the interpreter with the option resourceVariables (a slot count)',
    );
  const id = resources.createIdIfNoneFound(params.container ?? null, params.sharedName ?? null);
  if (id < 0)
    throw new KernelError(
      OP,
      node.index,
      `no free resource variable slot for "${params.sharedName ?? ''}" (all ${resources.capacity} are taken; raise the interpreter option resourceVariables)`,
    );
  const output = context.getTensor(node.outputs[0]!);
  if (output.elementCount !== 1)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) must hold one resource id, it has ${output.elementCount} elements`,
    );
  d.id = id;
  d.resourceId[0] = id;
  const region = d.resourceId;
  output.bind(region.buffer, region.byteOffset, AllocationType.ArenaRwPersistent);
}

function invoke(_context: TfLiteContext, node: Node): void {
  // The output is the op data; keep the id in it whatever ran before (TFLM re-points the output).
  const d = opData<OpData>(OP, node);
  d.resourceId[0] = d.id;
}

/** The reference VAR_HANDLE kernel. */
export const VAR_HANDLE: Registration<OpData> = {
  builtinCode: BuiltinOperator.VAR_HANDLE,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
