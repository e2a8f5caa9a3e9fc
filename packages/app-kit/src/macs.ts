/**
 * Multiply-accumulates of a model's nodes, from the shapes in the file (the weight-carrying ops:
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV; 0 for the others and where a shape is
 * unknown), for "what share of the work each package served".
 */
import { BuiltinOperator, type ModelDef } from '@micrort/core';

function elements(shape: ArrayLike<number> | undefined): number {
  if (!shape) return 0;
  let n = 1;
  for (let i = 0; i < shape.length; i++) n *= Math.max(0, shape[i]!);
  return n;
}

/** MACs of operator `index` of `subgraph` over its whole output; 0 when not one of the weight-carrying ops. */
export function nodeMacs(model: ModelDef, subgraph: number, index: number): number {
  const sg = model.subgraphs[subgraph];
  const op = sg?.operators[index];
  if (!sg || !op) return 0;
  const code = model.operatorCodes[op.opcodeIndex]?.builtinCode;
  const shape = (k: number) => (k >= 0 ? sg.tensors[k]?.shape : undefined);
  const out = elements(shape(op.outputs[0] ?? -1));
  const w = shape(op.inputs[1] ?? -1);
  switch (code) {
    case BuiltinOperator.CONV_2D:
      return w && w.length === 4 ? out * w[1]! * w[2]! * w[3]! : 0;
    case BuiltinOperator.DEPTHWISE_CONV_2D:
      return w && w.length === 4 ? out * w[1]! * w[2]! : 0;
    case BuiltinOperator.FULLY_CONNECTED:
      return w && w.length === 2 ? out * w[1]! : 0;
    case BuiltinOperator.TRANSPOSE_CONV:
      return w && w.length === 4 ? elements(shape(op.inputs[2] ?? -1)) * w[0]! * w[1]! * w[2]! : 0;
    default:
      return 0;
  }
}
