/**
 * The axes and output shape of a reduction (MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, REDUCE_ANY,
 * REDUCE_ALL; TFLite's ResolveAxis and ResizeOutputTensor in reduce.cc), for every kernel package.
 */
import { KernelError, type Node } from '@micrort/core';

/**
 * Resolves the raw axis values `raw` against an input of `rank` dimensions as TFLite's ResolveAxis:
 * negative axes count from the end, repeated ones count once, a scalar input (rank 0) ignores them all.
 * Returns per input axis whether it is reduced, and the distinct axes in the order given. Throws
 * KernelError naming an axis out of range.
 */
export function resolveReduceAxes(op: string, node: Node, rank: number, raw: ArrayLike<number>): { reduced: boolean[]; axes: number[] } {
  const reduced = new Array<boolean>(rank).fill(false);
  const axes: number[] = [];
  if (rank > 0) {
    for (let i = 0; i < raw.length; i++) {
      const a = raw[i]!;
      const r = a < 0 ? a + rank : a;
      if (r < 0 || r >= rank) throw new KernelError(op, node.index, `axis[${i}] = ${a} is out of range for a ${rank}-D input`);
      if (!reduced[r]) axes.push(r);
      reduced[r] = true;
    }
  }
  return { reduced, axes };
}

/** The reduced shape of `dims`: reduced axes become 1 with `keepDims`, else they are dropped (TFLite's ResizeOutputTensor). */
export function reducedShape(dims: ArrayLike<number>, reduced: readonly boolean[], keepDims: boolean): number[] {
  const out: number[] = [];
  for (let d = 0; d < dims.length; d++) if (!reduced[d] || keepDims) out.push(reduced[d] ? 1 : dims[d]!);
  return out;
}

/**
 * The reduction as [outer, R, inner] when its reduced axes, once axes of size 1 are set aside, form one
 * contiguous block (kept axes, reduced axes, kept axes): R the product of the reduced sizes, outer and
 * inner of the kept ones before and after; null when kept and reduced axes alternate more than that.
 */
export function reduceBlock(dims: ArrayLike<number>, reduced: readonly boolean[]): { outer: number; R: number; inner: number } | null {
  let outer = 1;
  let R = 1;
  let inner = 1;
  // 0: before the block, 1: inside it, 2: after it
  let phase = 0;
  for (let d = 0; d < dims.length; d++) {
    const n = dims[d]!;
    if (n === 1) continue;
    if (reduced[d]) {
      if (phase === 2) return null;
      phase = 1;
      R *= n;
    } else if (phase === 0) outer *= n;
    else {
      phase = 2;
      inner *= n;
    }
  }
  return { outer, R, inner };
}
