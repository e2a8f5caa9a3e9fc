/**
 * ASSIGN_VARIABLE (tflite-micro kernels/assign_variable.cc): copies input 1 into the resource variable
 * whose id input 0 holds. Prepare gives the variable its buffer (persistent, sized like input 1 and
 * filled with input 1's zero point, TFLM's MicroResourceVariables::Allocate) when the id is known then —
 * i.e. when input 0 comes from a VAR_HANDLE of the same subgraph; an id that arrives through a subgraph
 * input is only known at invoke, where the variable must already have its buffer. No op data (TFLM
 * without compression has none).
 */
import {
  AllocationType,
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type ResourceVariables,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { opData } from '@micrort/kernel-support';

const OP = 'ASSIGN_VARIABLE';

interface State {
  resources: ResourceVariables | null;
  id: EvalTensor | null;
  value: EvalTensor | null;
}

/** Checks a resource-id input (RESOURCE or INT32, one element), as TFLM's ASSIGN/READ_VARIABLE do. */
export function checkResourceInput(op: string, context: TfLiteContext, node: Node): EvalTensor {
  if (node.inputs[0] === undefined || node.inputs[0] < 0) throw new KernelError(op, node.index, 'input 0 (the resource id) is missing');
  const t = context.getTensor(node.inputs[0]);
  if (t.type !== TensorType.RESOURCE && t.type !== TensorType.INT32)
    throw new KernelError(op, node.index, `input 0 must be a resource (or int32) id, got ${tensorTypeName(t.type)}`);
  if (t.elementCount !== 1) throw new KernelError(op, node.index, `input 0 must hold one resource id, it has ${t.elementCount} elements`);
  return context.getEvalTensor(node.inputs[0]);
}

/** The interpreter's resource variables, or a KernelError saying how to get them. */
export function requireResources(op: string, context: TfLiteContext, node: Node): ResourceVariables {
  const r = context.getResourceVariables();
  if (!r)
    throw new KernelError(
      op,
      node.index,
      'requires resource variables: create the interpreter with the option resourceVariables (a slot count)',
    );
  return r;
}

function init(): State {
  return { resources: null, id: null, value: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const s = opData<State>(OP, node);
  if (node.inputs.length !== 2) throw new KernelError(OP, node.index, `expects 2 inputs, got ${node.inputs.length}`);
  if (node.outputs.length !== 0) throw new KernelError(OP, node.index, `expects no outputs, got ${node.outputs.length}`);
  s.id = checkResourceInput(OP, context, node);
  if (node.inputs[1]! < 0) throw new KernelError(OP, node.index, 'input 1 (the value) is missing');
  const value = context.getTensor(node.inputs[1]!);
  s.value = value;
  s.resources = requireResources(OP, context, node);
  const idTensor = context.getTensor(node.inputs[0]!);
  // The id is known now when its tensor has data (a VAR_HANDLE prepared before, or a constant).
  if (idTensor.allocationType !== AllocationType.None) s.resources.allocate(idTensor.data[0] as number, context, value);
}

function invoke(_context: TfLiteContext, node: Node): void {
  const s = opData<State>(OP, node);
  s.resources!.assign(s.id!.data[0] as number, s.value!);
}

/** The reference ASSIGN_VARIABLE kernel. */
export const ASSIGN_VARIABLE: Registration<State> = {
  builtinCode: BuiltinOperator.ASSIGN_VARIABLE,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
