/**
 * The geometry the reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN; float32 in float/reduce-common.ts, int8
 * and uint8 in reduce-quantized.ts) share: kernel-support's resolveReduceAxes, reducedShape and
 * reduceLoops (TFLite's ResolveAxis and ResizeOutputTensor, as ops-reference), and the loops written into
 * parameter block RD for f32_reduce / qs8_reduce. Any set of reduced axes of an input of up to 5
 * dimensions: the kept and reduced axes, size-1 axes set aside, merge into alternating groups that the
 * kernels run as nested loops, every output folding its values in row-major input order.
 */
import type { Node, ReducerOptions, Tensor, TfLiteContext } from '@micrort/core';
import { TensorType } from '@micrort/core';
import { isDataDependent, reduceLoops, reducedShape, resolveReduceAxes, type ReduceLoops } from '@micrort/kernel-support';
import { RD } from '../generated/abi.js';

/** RD.Kind: the reduction f32_reduce / qs8_reduce compute. */
export enum ReduceKind {
  Mean = 0,
  Sum = 1,
  Max = 2,
  Min = 3,
}

/** ops-reference's input rank limit for the reductions (TFLM's kMaxNumberOfAxis). */
export const MAX_REDUCE_DIMS = 5;

/** A reduction node resolved: its input, output, per input axis whether it is reduced, and the loops. */
export interface ReducePlan {
  input: Tensor;
  output: Tensor;
  reduced: boolean[];
  loops: ReduceLoops;
}

/** The resolved reduction of `node` (2 inputs, 1 output), or why the kernels here do not take it. */
export function planReduce(op: string, context: TfLiteContext, node: Node): ReducePlan | string {
  const input = context.getTensor(node.inputs[0]!);
  const axis = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (!axis.isConstant || axis.type !== TensorType.INT32) return 'the axis is not a constant int32 tensor';
  if (input.dims.length > MAX_REDUCE_DIMS) return `rank ${input.dims.length} input (handles up to ${MAX_REDUCE_DIMS})`;
  if (isDataDependent(input)) return 'the input shape is data-dependent';
  if (input.elementCount === 0) return 'the input is empty';
  let reduced: boolean[];
  try {
    reduced = resolveReduceAxes(op, node, input.dims.length, axis.data as Int32Array).reduced;
  } catch (e) {
    return (e as Error).message;
  }
  const loops = reduceLoops(input.dims, reduced);
  if (!loops) return 'the axes form more groups than a 5-D input has';
  return { input, output, reduced, loops };
}

/** The output shape of `plan` under the node's keep_dims. */
export function planOutputShape(plan: ReducePlan, node: Node): number[] {
  const keepDims = (node.builtinData as ReducerOptions | null)?.keepDims ?? false;
  return reducedShape(plan.input.dims, plan.reduced, keepDims);
}

/** Writes RD.Kind and the loops of `loops` (RD.Inner .. RD.Count) into the block `p`. */
export function writeReduceLoops(p: Int32Array, kind: ReduceKind, loops: ReduceLoops): void {
  const [ka, kb] = loops.kept as [ReduceLoops['kept'][0], ReduceLoops['kept'][0]];
  const [ra, rb, rc] = loops.reduced as [ReduceLoops['reduced'][0], ReduceLoops['reduced'][0], ReduceLoops['reduced'][0]];
  p[RD.Kind] = kind;
  p[RD.Inner] = loops.inner;
  p[RD.KA] = ka.n;
  p[RD.SKA] = ka.stride;
  p[RD.KB] = kb.n;
  p[RD.SKB] = kb.stride;
  p[RD.RA] = ra.n;
  p[RD.SRA] = ra.stride;
  p[RD.RB] = rb.n;
  p[RD.SRB] = rb.stride;
  p[RD.RC] = rc.n;
  // Inner = 1: the kernels read each run of RC values as contiguous (its stride is then 1)
  p[RD.SRC] = rc.stride;
  p[RD.Count] = loops.count;
}
