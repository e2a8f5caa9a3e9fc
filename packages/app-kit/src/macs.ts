/**
 * Multiply-accumulates of a model's nodes, from the shapes in the file (the weight-carrying ops:
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV; 0 for the others and where a shape is
 * unknown), for "what share of the work each package served".
 */
import type { ModelDef } from '@micrort/core';
import { opMacs } from '@micrort/kernel-support';

/** MACs of operator `index` of `subgraph` over its whole output; 0 when not one of the weight-carrying ops. */
export function nodeMacs(model: ModelDef, subgraph: number, index: number): number {
  const sg = model.subgraphs[subgraph];
  const op = sg?.operators[index];
  if (!sg || !op) return 0;
  const code = model.operatorCodes[op.opcodeIndex]?.builtinCode ?? -1;
  const shape = (k: number | undefined) => (k !== undefined && k >= 0 ? sg.tensors[k]?.shape : undefined);
  return opMacs(code, shape(op.outputs[0]), shape(op.inputs[1]), shape(op.inputs[2]));
}
