/**
 * SPLIT_V (TFLM kernels/split_v.cc): splits input 0 along the constant axis (input 2, int32 scalar or
 * 1-element) into parts whose sizes are the outputs' sizes along that axis (as TFLM, the size_splits
 * input 1 is not read: its -1 entry is resolved in the model's output shapes). The sizes must add up to
 * the input's; every other dimension equals the input's. Types: float32, int8, int16, int32 as TFLM, and
 * uint8 as TFLite. TFLM keeps no op data. A data-dependent input with a constant size_splits is
 * followed: the parts (a -1 taking the rest) of its actual axis at every invoke.
 */
import { BuiltinOperator, KernelError, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { dimProduct, readConstantAxis, requireSameTypeAs, resolveAxis, typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit } from './split-common.js';
import { SPLIT_TYPES } from './split.js';
import { elementLayout, readConstantIndexTensor, shapeString } from './transpose-common.js';
import {
  expectType,
  fillOpData,
  isDataDependent,
  newOpData,
  opData,
  refuseDataDependentInput,
  setOutputShapeOrBound,
} from '@micrort/kernel-support';

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
  const sizes = splitSizes(context, node, input.dims[axis]!, count);
  const bounded = isDataDependent(input);
  if (bounded && !sizes)
    refuseDataDependentInput(OP, context, node, 0, 'SPLIT_V follows a data-dependent input with a constant size_splits only');
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (sizes) {
      const dims = Array.from(input.dims);
      dims[axis] = sizes[i]!;
      setOutputShapeOrBound(OP, context, node, i, dims, bounded);
    }
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
  let follow: SplitVOpData['follow'] = null;
  if (bounded) {
    // every output is bounded: its shape follows the input's actual dims
    const raw = readConstantIndexTensor(getInput(context, node, 1, OP), OP, node, 'size_splits');
    follow = {
      sizes: Int32Array.from(raw),
      open: raw.indexOf(-1),
      dims: Array.from({ length: count }, (_, i) => Int32Array.from(getOutput(context, node, i, OP).dims)),
    };
  }
  const plan: SplitVOpData = { layout, outer: dimProduct(input.dims, 0, axis), runs, axis, follow };
  fillOpData(OP, node, plan);
}

/** SPLIT_V's plan, plus what a data-dependent input needs at invoke. */
interface SplitVOpData extends SplitPlan {
  axis: number;
  /** The constant size_splits (one -1 at `open` takes the rest) and each output's dims at this invoke. */
  follow: { sizes: Int32Array; open: number; dims: Int32Array[] } | null;
}

/** Invoke, data-dependent input: the parts of its actual axis; the sizes and the outputs' dims follow. */
function followInput(context: TfLiteContext, node: Node, d: SplitVOpData, f: NonNullable<SplitVOpData['follow']>): void {
  const dims = context.getEvalTensor(node.inputs[0]!).dims;
  const axis = d.axis;
  const axisSize = dims[axis]!;
  let known = 0;
  for (let i = 0; i < f.sizes.length; i++) if (i !== f.open) known += f.sizes[i]!;
  const rest = axisSize - known;
  if (f.open < 0 ? rest !== 0 : rest < 0)
    throw new KernelError(OP, node.index, `size_splits do not split an axis of ${axisSize} at this invoke`);
  let outer = 1;
  let inner = d.layout.units;
  for (let k = 0; k < dims.length; k++)
    if (k < axis) outer *= dims[k]!;
    else if (k > axis) inner *= dims[k]!;
  d.outer = outer;
  for (let i = 0; i < f.sizes.length; i++) {
    const size = i === f.open ? rest : f.sizes[i]!;
    const out = f.dims[i]!;
    for (let k = 0; k < dims.length; k++) out[k] = k === axis ? size : dims[k]!;
    d.runs[i] = size * inner;
    context.setActualShape(node.outputs[i]!, out);
  }
}

/**
 * The outputs' sizes along the axis from a constant size_splits (model data or folded; one -1 takes the
 * rest, as TFLite's split_v Prepare), or null when size_splits is computed at invoke (the outputs keep
 * their own shapes, TFLM's rule).
 */
function splitSizes(context: TfLiteContext, node: Node, axisSize: number, count: number): number[] | null {
  const t = getInput(context, node, 1, OP);
  if (!t.isConstant) return null;
  const sizes = readConstantIndexTensor(t, OP, node, 'size_splits');
  if (sizes.length !== count)
    throw new KernelError(OP, node.index, `size_splits has ${sizes.length} entries, the node has ${count} outputs`);
  const open = sizes.indexOf(-1);
  if (open >= 0) {
    if (sizes.indexOf(-1, open + 1) >= 0) throw new KernelError(OP, node.index, 'size_splits has more than one -1');
    sizes[open] = axisSize - sizes.reduce((a, b, i) => (i === open ? a : a + b), 0);
  }
  for (let i = 0; i < count; i++)
    if (sizes[i]! < 0) throw new KernelError(OP, node.index, `size_splits [${sizes.join(', ')}] do not split an axis of ${axisSize}`);
  return sizes;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SplitVOpData>(OP, node);
  if (d.follow !== null) followInput(context, node, d, d.follow);
  invokeSplit(context, node, d, 0);
}

/** SPLIT_V registration (op versions 1..3). */
export const SPLIT_V: Registration = {
  builtinCode: BuiltinOperator.SPLIT_V,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, SPLIT_TYPES),
  init: newOpData,
  dynamicInputShapes: true,
  prepare,
  invoke,
};
