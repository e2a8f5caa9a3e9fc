/**
 * SELECT (TFLite select.cc, kernel version one): output[i] = condition[i] ? x[i] : y[i] for a bool
 * condition of x's shape — or, TFLite's "low rank" case, a 0-D condition choosing all of x or y, or a
 * 1-D condition of x's first dimension choosing whole rows (RankOneSelect). x, y and the output share one
 * shape and one fixed-size type (TFLite 2.9: float32, uint8, int8, int16, int32, int64, bool; later the
 * wide types too); values are moved as bytes. Broadcasting is SELECT_V2's.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  numElements,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import {
  declineArity,
  expectSameType,
  expectType,
  fillOpData,
  isDataDependent,
  newOpData,
  opData,
  sameDims,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { copyElements, fixedElementSize, supportsFixedSize } from './tflite-ops-common.js';

const OP = 'SELECT';

interface SelectOpData {
  /** Conditions read (1 for a 0-D condition). */
  outer: number;
  /** Elements each condition chooses. */
  inner: number;
  size: number;
  /** An input has a data-dependent shape: outer and inner follow the actual dims at every invoke. */
  bounded: boolean;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 3, 1);
  const cond = getInput(context, node, 0, OP);
  const x = getInput(context, node, 1, OP);
  const y = getInput(context, node, 2, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'condition', cond, [TensorType.BOOL]);
  const size = fixedElementSize(OP, node, 'x', x);
  expectSameType(OP, node, 'x and y', x, y);
  expectSameType(OP, node, 'x and output', x, output);
  if (!sameDims(x.dims, y.dims))
    throw new KernelError(OP, node.index, `x [${x.dims.join(',')}] and y [${y.dims.join(',')}] must have the same shape`);
  const count = x.elementCount;
  let outer: number;
  if (sameDims(cond.dims, x.dims)) outer = count;
  else if (cond.dims.length === 0) outer = 1;
  else if (cond.dims.length === 1 && x.dims.length > 0 && cond.dims[0] === x.dims[0]) outer = cond.dims[0]!;
  else
    throw new KernelError(
      OP,
      node.index,
      `condition [${cond.dims.join(',')}] must have x's shape [${x.dims.join(',')}], be 0-D, or be 1-D of x's first dimension`,
    );
  const bounded = isDataDependent(cond) || isDataDependent(x) || isDataDependent(y);
  setOutputShapeOrBound(OP, context, node, 0, x.dims, bounded);
  fillOpData<SelectOpData>(OP, node, { outer, inner: outer === 0 ? 0 : count / outer, size, bounded });
}

/** Invoke, data-dependent inputs: x and y of one actual shape, the condition of x's, 0-D or of x's first dimension. */
function followInputs(context: TfLiteContext, node: Node, d: SelectOpData): void {
  const c = context.getEvalTensor(node.inputs[0]!).dims;
  const x = context.getEvalTensor(node.inputs[1]!).dims;
  const y = context.getEvalTensor(node.inputs[2]!).dims;
  if (!sameDims(x, y)) throw new KernelError(OP, node.index, 'x and y have different shapes at this invoke');
  const count = numElements(x);
  let outer: number;
  if (sameDims(c, x)) outer = count;
  else if (c.length === 0) outer = 1;
  else if (c.length === 1 && x.length > 0 && c[0] === x[0]) outer = c[0]!;
  else throw new KernelError(OP, node.index, "the condition's shape does not fit x's at this invoke");
  d.outer = outer;
  d.inner = outer === 0 ? 0 : count / outer;
  context.setActualShape(node.outputs[0]!, x);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SelectOpData>(OP, node);
  const cond = context.getEvalTensor(node.inputs[0]!).bytes;
  const x = context.getEvalTensor(node.inputs[1]!).bytes;
  const y = context.getEvalTensor(node.inputs[2]!).bytes;
  const out = context.getEvalTensor(node.outputs[0]!).bytes;
  if (d.bounded) followInputs(context, node, d);
  const { outer, inner, size } = d;
  for (let i = 0, at = 0; i < outer; i++, at += inner) copyElements(cond[i] !== 0 ? x : y, at, out, at, inner, size);
}

/** SELECT registration (op versions 1..4). */
export const SELECT: Registration = {
  builtinCode: BuiltinOperator.SELECT,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 3, 1) ?? supportsFixedSize(context, node, 1),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
