/**
 * READ_VARIABLE (tflite-micro kernels/read_variable.cc): copies the resource variable whose id input 0
 * holds into output 0. A variable no ASSIGN_VARIABLE has written yet holds its default value (the zero
 * point of the tensor that first assigned it, TFLM's Allocate), so a read before the first assignment
 * returns that zero point. No op data.
 */
import {
  BuiltinOperator,
  KernelError,
  type EvalTensor,
  type Node,
  type Registration,
  type ResourceVariables,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkResourceInput, requireResources } from './assign-variable.js';
import { opData } from '@micrort/kernel-support';

const OP = 'READ_VARIABLE';

interface State {
  resources: ResourceVariables | null;
  id: EvalTensor | null;
  output: EvalTensor | null;
}

function init(): State {
  return { resources: null, id: null, output: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const s = opData<State>(OP, node);
  if (node.inputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 input, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  s.id = checkResourceInput(OP, context, node);
  s.output = context.getEvalTensor(node.outputs[0]!);
  s.resources = requireResources(OP, context, node);
}

function invoke(_context: TfLiteContext, node: Node): void {
  const s = opData<State>(OP, node);
  s.resources!.read(s.id!.data[0] as number, s.output!);
}

/** The reference READ_VARIABLE kernel. */
export const READ_VARIABLE: Registration<State> = {
  builtinCode: BuiltinOperator.READ_VARIABLE,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
