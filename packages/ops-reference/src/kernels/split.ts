/**
 * SPLIT (TFLM kernels/split.cc): splits input 1 into `num_splits` equal parts along the constant axis
 * (input 0: an int32 scalar or 1-element tensor; negative counts from the end). Every output has the
 * input's shape with axis size input / outputs. Types: float32, int8, int16, int32 as TFLM, and uint8 and
 * int64 as TFLite. TFLM keeps no op data. A data-dependent input is followed: equal parts of its actual
 * axis at every invoke (a KernelError when they do not divide).
 */
import { BuiltinOperator, KernelError } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit, splitPlan } from './split-common.js';
import { SPLIT_TYPES, fillOpData, newOpData, opData, prepareSplit } from '@micrort/kernel-support';

const OP = 'SPLIT';
/** kernel-support's SPLIT_TYPES: TFLM's SPLIT and SPLIT_V types, plus uint8 and int64 (TFLite's). */
export { SPLIT_TYPES };

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareSplit(OP, context, node);
  const expected = Array.from(g.input.dims);
  expected[g.axis] = g.sizes[0]!;
  const plan: SplitOpData = { ...splitPlan(OP, node, g), axis: g.axis, dims: g.bounded ? Int32Array.from(expected) : null };
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
