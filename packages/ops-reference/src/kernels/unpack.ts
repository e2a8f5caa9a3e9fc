/**
 * UNPACK (TFLM kernels/unpack.cc): splits the input along `axis` into `num` tensors of rank - 1 (one per
 * index along the axis). Types: float32, int8, int16, int32 as TFLM, and uint8, bool and float16 as
 * TFLite. TFLM keeps no op data.
 */
import { BuiltinOperator, KernelError, TensorType, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext, UnpackOptions } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, requireSameTypeAs, requireShape, resolveAxis, typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit } from './split-common.js';
import { elementLayout } from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

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
  for (let i = 0; i < count; i++) {
    const output = getOutput(context, node, i, OP);
    requireSameTypeAs(OP, node, output, `output ${i}`, input, 'input');
    requireShape(OP, node, output, `output ${i}`, expected);
  }
  const layout = elementLayout(input.type, OP, node);
  const run = dimProduct(input.dims, axis + 1) * layout.units;
  const plan: SplitPlan = { layout, outer: dimProduct(input.dims, 0, axis), runs: new Int32Array(count).fill(run) };
  fillOpData(OP, node, plan);
}

function invoke(context: TfLiteContext, node: Node): void {
  invokeSplit(context, node, opData<SplitPlan>(OP, node), 0);
}

/** UNPACK registration (op versions 1..4). */
export const UNPACK: Registration = {
  builtinCode: BuiltinOperator.UNPACK,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
