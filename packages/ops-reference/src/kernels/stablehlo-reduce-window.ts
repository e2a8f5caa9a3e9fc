/**
 * STABLEHLO_REDUCE_WINDOW (LiteRT tflite/kernels/reduce_window.cc, StablehloData): input 0 reduced over
 * windows from the init value (input 1), after base dilation and padding, all from
 * StablehloReduceWindowOptions. As LiteRT, the body subgraph is read, not run: its single operator
 * names the reduction (ADD / STABLEHLO_ADD, MUL / STABLEHLO_MULTIPLY, MAXIMUM, MINIMUM, LOGICAL_AND /
 * STABLEHLO_AND, LOGICAL_OR / STABLEHLO_OR). Absent option vectors read as LiteRT's defaults (strides
 * and dilations 1, padding 0). The arithmetic: reduce-window-common.ts.
 */
import {
  BuiltinOperator,
  KernelError,
  builtinOperatorName,
  type Node,
  type Registration,
  type StablehloReduceWindowOptions,
  type TfLiteContext,
} from '@micrort/core';
import { opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { checkSubgraphIndex } from './control-flow-common.js';
import {
  ReduceFunction,
  emptyReduceWindowPlan,
  invokeReduceWindow,
  prepareReduceWindow,
  type ReduceWindowPlan,
} from './reduce-window-common.js';

const OP = 'STABLEHLO_REDUCE_WINDOW';
const B = BuiltinOperator;

/** The reduction a body's single operator names (StablehloData::GetBodyFunction). */
const BODIES: ReadonlyMap<number, ReduceFunction> = new Map([
  [B.ADD, ReduceFunction.Add],
  [B.STABLEHLO_ADD, ReduceFunction.Add],
  [B.MUL, ReduceFunction.Mul],
  [B.STABLEHLO_MULTIPLY, ReduceFunction.Mul],
  [B.MAXIMUM, ReduceFunction.Max],
  [B.STABLEHLO_MAXIMUM, ReduceFunction.Max],
  [B.MINIMUM, ReduceFunction.Min],
  [B.STABLEHLO_MINIMUM, ReduceFunction.Min],
  [B.LOGICAL_AND, ReduceFunction.All],
  [B.STABLEHLO_AND, ReduceFunction.All],
  [B.LOGICAL_OR, ReduceFunction.Any],
  [B.STABLEHLO_OR, ReduceFunction.Any],
]);

function prepare(context: TfLiteContext, node: Node): void {
  const p = node.builtinData as Partial<StablehloReduceWindowOptions> | null;
  if (!p?.windowDimensions) throw new KernelError(OP, node.index, 'StablehloReduceWindowOptions are missing');
  if (node.inputs.length !== 2 || node.outputs.length !== 1)
    throw new KernelError(OP, node.index, `expects 2 inputs and 1 output, got ${node.inputs.length} and ${node.outputs.length}`);
  const body = p.bodySubgraphIndex ?? 0;
  checkSubgraphIndex(OP, context, node, body, 'body');
  const codes = context.subgraphBuiltinCodes(body);
  if (codes.length !== 1)
    throw new KernelError(OP, node.index, `only one operator is allowed in the reduce window body, subgraph ${body} has ${codes.length}`);
  const fn = BODIES.get(codes[0]!);
  if (fn === undefined) throw new KernelError(OP, node.index, `unsupported reduction body ${builtinOperatorName(codes[0]!)}`);
  const rank = context.getTensor(node.inputs[0]!).dims.length;
  const or = (v: Int32Array | undefined, fill: number, n: number) => (v && v.length > 0 ? v : new Int32Array(n).fill(fill));
  prepareReduceWindow(OP, context, node, opData<ReduceWindowPlan>(OP, node), fn, {
    windowDimensions: p.windowDimensions,
    windowStrides: or(p.windowStrides, 1, rank),
    baseDilations: or(p.baseDilations, 1, rank),
    windowDilations: or(p.windowDilations, 1, rank),
    padding: or(p.padding, 0, 2 * rank),
  });
}

/** The reference STABLEHLO_REDUCE_WINDOW kernel. */
export const STABLEHLO_REDUCE_WINDOW: Registration<ReduceWindowPlan> = {
  builtinCode: BuiltinOperator.STABLEHLO_REDUCE_WINDOW,
  provider: PROVIDER,
  name: OP,
  init: emptyReduceWindowPlan,
  prepare,
  invoke: (context, node) => invokeReduceWindow(context, opData<ReduceWindowPlan>(OP, node)),
};
