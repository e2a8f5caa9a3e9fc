/**
 * SPLIT_V (TFLM kernels/split_v.cc): splits input 0 along the constant axis (input 2, int32 scalar or
 * 1-element) into parts whose sizes are the outputs' sizes along that axis (as TFLM, the size_splits
 * input 1 is not read: its -1 entry is resolved in the model's output shapes). The sizes must add up to
 * the input's; every other dimension equals the input's. Types: float32, int8, int16, int32 as TFLM, and
 * uint8 as TFLite. TFLM keeps no op data.
 */
import { BuiltinOperator, KernelError, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, readConstantAxis, requireSameTypeAs, resolveAxis, typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit } from './split-common.js';
import { SPLIT_TYPES } from './split.js';
import { elementLayout, shapeString } from './transpose-common.js';
import { expectType, fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'SPLIT_V';

function prepare(context: TfLiteContext, node: Node): void {
  if (node.inputs.length !== 3)
    throw new KernelError(OP, node.index, `expects 3 inputs (input, size_splits, axis), got ${node.inputs.length}`);
  const count = node.outputs.length;
  if (count < 1) throw new KernelError(OP, node.index, 'expects at least 1 output');
  const input = getInput(context, node, 0, OP);
  const axisTensor = getInput(context, node, 2, OP);
  expectType(OP, node, 'input', input, SPLIT_TYPES);
  const rank = input.dims.length;
  const axis = resolveAxis(OP, node, readConstantAxis(OP, node, axisTensor, 'axis'), rank);
  const layout = elementLayout(input.type, OP, node);
  const inner = dimProduct(input.dims, axis + 1) * layout.units;
  const runs = new Int32Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const output = getOutput(context, node, i, OP);
    requireSameTypeAs(OP, node, output, `output ${i}`, input, 'input');
    const ok = output.dims.length === rank && Array.from(output.dims).every((v, k) => k === axis || v === input.dims[k]);
    if (!ok)
      throw new KernelError(
        OP,
        node.index,
        `output ${i} has shape ${shapeString(output.dims)}; it must equal the input ${shapeString(input.dims)} except along axis ${axis}`,
      );
    runs[i] = output.dims[axis]! * inner;
    total += output.dims[axis]!;
  }
  if (total !== input.dims[axis])
    throw new KernelError(OP, node.index, `the outputs add up to ${total} along axis ${axis}, the input has ${input.dims[axis]}`);
  const plan: SplitPlan = { layout, outer: dimProduct(input.dims, 0, axis), runs };
  fillOpData(OP, node, plan);
}

function invoke(context: TfLiteContext, node: Node): void {
  invokeSplit(context, node, opData<SplitPlan>(OP, node), 0);
}

/** SPLIT_V registration (op versions 1..3). */
export const SPLIT_V: Registration = {
  builtinCode: BuiltinOperator.SPLIT_V,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, SPLIT_TYPES),
  init: newOpData,
  prepare,
  invoke,
};
