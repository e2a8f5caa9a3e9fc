/**
 * UNPACK (TFLM kernels/unpack.cc): splits the input along `axis` into `num` tensors of rank - 1 (one per
 * index along the axis). Types: float32, int8, int16, int32 as TFLM, and uint8, bool and float16 as
 * TFLite. TFLM keeps no op data.
 */
import { BuiltinOperator, KernelError } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit, splitPlan } from './split-common.js';
import { UNPACK_TYPES as TYPES, fillOpData, newOpData, opData, prepareUnpack } from '@micrort/kernel-support';

const OP = 'UNPACK';

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareUnpack(OP, context, node);
  const expected = Array.from(g.input.dims);
  expected.splice(g.axis, 1);
  const plan: UnpackOpData = { ...splitPlan(OP, node, g), axis: g.axis, dims: g.bounded ? Int32Array.from(expected) : null };
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
