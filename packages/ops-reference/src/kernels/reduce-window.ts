/**
 * REDUCE_WINDOW (LiteRT tflite/kernels/reduce_window.cc, TFLiteData; deprecated in LiteRT's schema, still
 * registered by its BuiltinOpResolver): input 0 reduced over windows from the init value (input 1); the
 * window shape, strides and dilations are constant int64 inputs 2–4, the reduction is
 * ReduceWindowOptions.reduce_function; no base dilation, no padding. The arithmetic:
 * reduce-window-common.ts.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  type Node,
  type ReduceWindowOptions,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import {
  emptyReduceWindowPlan,
  invokeReduceWindow,
  prepareReduceWindow,
  type ReduceFunction,
  type ReduceWindowPlan,
} from './reduce-window-common.js';
import { readIndex } from './stablehlo-index-common.js';

const OP = 'REDUCE_WINDOW';

/** A constant int64 vector input, as numbers. */
function int64Vector(context: TfLiteContext, node: Node, position: number, name: string): number[] {
  const t = context.getTensor(node.inputs[position]!);
  if (t.type !== TensorType.INT64) throw new KernelError(OP, node.index, `${name} (input ${position}) must be int64`);
  if (!t.isConstant) throw new KernelError(OP, node.index, `${name} (input ${position}) must be a constant`);
  return Array.from({ length: t.elementCount }, (_, i) => readIndex(t, true, i));
}

function prepare(context: TfLiteContext, node: Node): void {
  const p = node.builtinData as Partial<ReduceWindowOptions> | null;
  if (node.inputs.length !== 5 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 5 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const rank = context.getTensor(node.inputs[0]!).dims.length;
  prepareReduceWindow(OP, context, node, opData<ReduceWindowPlan>(OP, node), (p?.reduceFunction ?? 0) as ReduceFunction, {
    windowDimensions: int64Vector(context, node, 2, 'window_shape'),
    windowStrides: int64Vector(context, node, 3, 'window_strides'),
    windowDilations: int64Vector(context, node, 4, 'window_dilations'),
    baseDilations: new Int32Array(rank).fill(1),
    padding: new Int32Array(2 * rank),
  });
}

/** The reference REDUCE_WINDOW kernel. */
export const REDUCE_WINDOW: Registration<ReduceWindowPlan> = {
  builtinCode: BuiltinOperator.REDUCE_WINDOW,
  provider: PROVIDER,
  name: OP,
  init: emptyReduceWindowPlan,
  prepare,
  invoke: (context, node) => invokeReduceWindow(context, opData<ReduceWindowPlan>(OP, node)),
};
