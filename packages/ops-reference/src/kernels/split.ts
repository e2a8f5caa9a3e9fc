/**
 * SPLIT (TFLM kernels/split.cc): splits input 1 into `num_splits` equal parts along the constant axis
 * (input 0: an int32 scalar or 1-element tensor; negative counts from the end). Every output has the
 * input's shape with axis size input / outputs. Types: float32, int8, int16, int32 as TFLM, and uint8 and
 * int64 as TFLite. TFLM keeps no op data. A data-dependent input is followed: equal parts of its actual
 * axis at every invoke (a KernelError when they do not divide).
 */
import { BuiltinOperator, KernelError, TensorType, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, SplitOptions, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, readConstantAxis, requireSameTypeAs, resolveAxis, typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit } from './split-common.js';
import { elementLayout } from './transpose-common.js';
import { expectType, fillOpData, isDataDependent, newOpData, opData, setOutputShapeOrBound } from '@micrort/kernel-support';

const OP = 'SPLIT';
/** Types TFLM's SPLIT and SPLIT_V handle, plus uint8 and int64 (TFLite's). */
export const SPLIT_TYPES = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT8,
  TensorType.INT64,
] as const;

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length !== 2) throw new KernelError(OP, node.index, `expects 2 inputs (axis, input), got ${node.inputs.length}`);
  const count = node.outputs.length;
  if (count < 1) throw new KernelError(OP, node.index, 'expects at least 1 output');
  const axisTensor = getInput(context, node, 0, OP);
  const input = getInput(context, node, 1, OP);
  expectType(OP, node, 'input', input, SPLIT_TYPES);
  const numSplits = (node.builtinData as SplitOptions | null)?.numSplits ?? 0;
  if (numSplits !== 0 && numSplits !== count)
    throw new KernelError(OP, node.index, `num_splits is ${numSplits} but the node has ${count} outputs`);
  const rank = input.dims.length;
  const axis = resolveAxis(OP, node, readConstantAxis(OP, node, axisTensor, 'axis'), rank);
  const size = input.dims[axis]!;
  if (size % count !== 0) throw new KernelError(OP, node.index, `axis ${axis} of size ${size} does not split into ${count} equal parts`);
  const expected = Array.from(input.dims);
  expected[axis] = size / count;
  const layout = elementLayout(input.type, OP, node);
  const run = (size / count) * dimProduct(input.dims, axis + 1) * layout.units;
  const bounded = isDataDependent(input);
  for (let i = 0; i < count; i++) {
    const output = getOutput(context, node, i, OP);
    requireSameTypeAs(OP, node, output, `output ${i}`, input, 'input');
    setOutputShapeOrBound(OP, context, node, i, expected, bounded);
  }
  const plan: SplitOpData = {
    layout,
    outer: dimProduct(input.dims, 0, axis),
    runs: new Int32Array(count).fill(run),
    axis,
    dims: bounded ? Int32Array.from(expected) : null,
  };
  fillOpData(OP, node, plan);
}

/** SPLIT's plan, plus the axis and, for a data-dependent input, the outputs' dims at this invoke. */
interface SplitOpData extends SplitPlan {
  axis: number;
  dims: Int32Array | null;
}

/** Invoke, data-dependent input: equal parts of its actual split axis; the sizes and the outputs' dims follow. */
function followInput(context: TfLiteContext, node: Node, d: SplitOpData, out: Int32Array): void {
  const dims = context.getEvalTensor(node.inputs[1]!).dims;
  const count = node.outputs.length;
  const size = dims[d.axis]!;
  if (size % count !== 0)
    throw new KernelError(OP, node.index, `axis ${d.axis} of size ${size} does not split into ${count} equal parts at this invoke`);
  let outer = 1;
  let run = d.layout.units;
  for (let i = 0; i < dims.length; i++) {
    const n = i === d.axis ? size / count : dims[i]!;
    out[i] = n;
    if (i < d.axis) outer *= n;
    else run *= n;
  }
  d.outer = outer;
  d.runs.fill(run);
  for (let i = 0; i < count; i++) context.setActualShape(node.outputs[i]!, out);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SplitOpData>(OP, node);
  if (d.dims !== null) followInput(context, node, d, d.dims);
  invokeSplit(context, node, d, 1);
}

/** SPLIT registration (op versions 1..4). */
export const SPLIT: Registration = {
  builtinCode: BuiltinOperator.SPLIT,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, SPLIT_TYPES, 1),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
