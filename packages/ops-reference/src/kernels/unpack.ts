/**
 * UNPACK (TFLM kernels/unpack.cc): splits the input along `axis` into `num` tensors of rank - 1 (one per
 * index along the axis). Types: float32, int8, int16, int32 as TFLM, and uint8, bool and float16 as
 * TFLite. TFLM keeps no op data.
 */
import { BuiltinOperator, KernelError, TensorType, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext, UnpackOptions } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, requireSameTypeAs, resolveAxis, typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit } from './split-common.js';
import { elementLayout } from './transpose-common.js';
import { expectType, fillOpData, isDataDependent, newOpData, opData, setOutputShapeOrBound } from '@micrort/kernel-support';

const OP = 'UNPACK';
const TYPES = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT8,
  TensorType.BOOL,
  TensorType.FLOAT16,
] as const;

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 input, got ${node.inputs.length}`);
  const input = getInput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TYPES);
  const options = node.builtinData as UnpackOptions | null;
  const rank = input.dims.length;
  if (rank < 1) throw new KernelError(OP, node.index, 'input must have at least 1 dimension');
  const axis = resolveAxis(OP, node, options?.axis ?? 0, rank);
  const count = node.outputs.length;
  const num = options?.num ?? count;
  if (num !== count) throw new KernelError(OP, node.index, `num is ${num} but the node has ${count} outputs`);
  if (input.dims[axis] !== count)
    throw new KernelError(OP, node.index, `axis ${axis} has size ${input.dims[axis]}, expected one per output (${count})`);
  const expected = Array.from(input.dims);
  expected.splice(axis, 1);
  const bounded = isDataDependent(input);
  for (let i = 0; i < count; i++) {
    const output = getOutput(context, node, i, OP);
    requireSameTypeAs(OP, node, output, `output ${i}`, input, 'input');
    setOutputShapeOrBound(OP, context, node, i, expected, bounded);
  }
  const layout = elementLayout(input.type, OP, node);
  const run = dimProduct(input.dims, axis + 1) * layout.units;
  const plan: UnpackOpData = {
    layout,
    outer: dimProduct(input.dims, 0, axis),
    runs: new Int32Array(count).fill(run),
    axis,
    dims: bounded ? Int32Array.from(expected) : null,
  };
  fillOpData(OP, node, plan);
}

/** UNPACK's split plan, plus the axis and, for a data-dependent input, the outputs' dims at this invoke. */
interface UnpackOpData extends SplitPlan {
  axis: number;
  dims: Int32Array | null;
}

/** Invoke, data-dependent input: the unpacked axis keeps one slice per output; the sizes and the outputs' dims follow the rest. */
function followInput(context: TfLiteContext, node: Node, d: UnpackOpData, out: Int32Array): void {
  const dims = context.getEvalTensor(node.inputs[0]!).dims;
  const count = node.outputs.length;
  if (dims[d.axis] !== count)
    throw new KernelError(OP, node.index, `axis ${d.axis} has size ${dims[d.axis]} at this invoke, expected one per output (${count})`);
  let outer = 1;
  let run = d.layout.units;
  for (let k = 0, j = 0; k < dims.length; k++) {
    if (k === d.axis) continue;
    out[j++] = dims[k]!;
    if (k < d.axis) outer *= dims[k]!;
    else run *= dims[k]!;
  }
  d.outer = outer;
  d.runs.fill(run);
  for (let i = 0; i < count; i++) context.setActualShape(node.outputs[i]!, out);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<UnpackOpData>(OP, node);
  if (d.dims !== null) followInput(context, node, d, d.dims);
  invokeSplit(context, node, d, 0);
}

/** UNPACK registration (op versions 1..4). */
export const UNPACK: Registration = {
  builtinCode: BuiltinOperator.UNPACK,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
