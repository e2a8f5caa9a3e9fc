/**
 * Shared invoke of SPLIT, SPLIT_V and UNPACK (TFLM kernels/split.cc, split_v.cc, unpack.cc): the input is
 * read front to back; for each of `outer` steps, each output in turn takes its next run of elements (its
 * size along the axis times the size of the dimensions after it). UNPACK is SPLIT into pieces of size 1
 * along the axis with that axis removed from the output shapes.
 */
import type { Node, TfLiteContext } from '@micrort/core';
import type { SplitGeometry } from '@micrort/kernel-support';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';

/** How an input is cut into the outputs, computed in prepare. */
export interface SplitPlan {
  layout: ElementLayout;
  /** Product of the input dims before the axis. */
  outer: number;
  /** Array slots each output takes per outer step (in `layout` units). */
  runs: Int32Array;
}

/** The plan of kernel-support's geometry `g`: each output's run is its size along the axis times `inner`, in layout units. */
export function splitPlan(op: string, node: Node, g: SplitGeometry): SplitPlan {
  const layout = elementLayout(g.input.type, op, node);
  const runs = new Int32Array(g.sizes.length);
  for (let i = 0; i < runs.length; i++) runs[i] = g.sizes[i]! * g.inner * layout.units;
  return { layout, outer: g.outer, runs };
}

/** Copies input `inputPosition` of the node into its outputs as `plan` says. */
export function invokeSplit(context: TfLiteContext, node: Node, plan: SplitPlan, inputPosition: number): void {
  const src = movableData(context.getEvalTensor(node.inputs[inputPosition]!), plan.layout);
  const n = node.outputs.length;
  const outer = plan.outer;
  for (let i = 0; i < n; i++) {
    const dst = movableData(context.getEvalTensor(node.outputs[i]!), plan.layout);
    copyRuns(src, dst, plan.runs, i, outer);
  }
}

/** Output `i`'s runs: run k of output i starts at k * (sum of runs) + (runs before i). */
function copyRuns(src: NumberArray, dst: NumberArray, runs: Int32Array, i: number, outer: number): void {
  let rowSlots = 0;
  let before = 0;
  for (let j = 0; j < runs.length; j++) {
    if (j < i) before += runs[j]!;
    rowSlots += runs[j]!;
  }
  const run = runs[i]!;
  let o = 0;
  for (let k = 0; k < outer; k++) {
    let p = k * rowSlots + before;
    for (let c = 0; c < run; c++) dst[o++] = src[p++]!;
  }
}
