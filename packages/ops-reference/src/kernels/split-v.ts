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
import { typeSupport } from './data-common.js';
import { type SplitPlan, invokeSplit, splitPlan } from './split-common.js';
import { SPLIT_TYPES, fillOpData, newOpData, opData, prepareSplitV, readConstantIndexTensor } from '@micrort/kernel-support';

const OP = 'SPLIT_V';

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareSplitV(OP, context, node);
  let follow: SplitVOpData['follow'] = null;
  if (g.bounded) {
    // every output is bounded: its shape follows the input's actual dims
    const raw = readConstantIndexTensor(getInput(context, node, 1, OP), OP, node, 'size_splits');
    follow = {
      sizes: Int32Array.from(raw),
      open: raw.indexOf(-1),
      dims: Array.from({ length: node.outputs.length }, (_, i) => Int32Array.from(getOutput(context, node, i, OP).dims)),
    };
  }
  const plan: SplitVOpData = { ...splitPlan(OP, node, g), axis: g.axis, follow };
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
