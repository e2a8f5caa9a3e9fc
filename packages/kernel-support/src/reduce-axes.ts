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

/** One group of adjacent input axes of the same kind: its number of values and its input stride (elements). */
export interface ReduceGroup {
  n: number;
  stride: number;
}

/**
 * A reduction as nested loops (the input's row-major strides): the input axes, size-1 axes set aside,
 * merged into alternating groups of kept and reduced axes. `inner` is the number of values of the kept
 * axes after the last reduced one (contiguous, stride 1; 1 when the last axis of more than one value is
 * reduced); `kept` the other kept groups and `reduced` the reduced groups, outermost first, each padded
 * at the front with `{ n: 1, stride: 0 }` to `MAX_KEPT_GROUPS` / `MAX_REDUCED_GROUPS` entries; `count` the
 * values folded into each output. Outputs, in row-major order, are (kept..., inner); each folds its
 * values in row-major input order when the loops run reduced[0] outermost and reduced[last] innermost.
 * Null when the axes form more groups than that (inputs of more than 5 dimensions).
 */
export interface ReduceLoops {
  inner: number;
  kept: ReduceGroup[];
  reduced: ReduceGroup[];
  count: number;
}

/** Kept groups before the innermost kept run that `reduceLoops` describes (enough for 5-D inputs). */
export const MAX_KEPT_GROUPS = 2;
/** Reduced groups that `reduceLoops` describes (enough for 5-D inputs). */
export const MAX_REDUCED_GROUPS = 3;

/** The loops of reducing `dims` over the axes flagged in `reduced` (see {@link ReduceLoops}); null beyond its group limits. */
export function reduceLoops(dims: ArrayLike<number>, reduced: readonly boolean[]): ReduceLoops | null {
  // groups, innermost first: size, stride of the group's innermost axis, reduced
  const groups: { n: number; stride: number; reduced: boolean }[] = [];
  let stride = 1;
  for (let d = dims.length - 1; d >= 0; d--) {
    const n = dims[d]!;
    if (n !== 1) {
      const last = groups[groups.length - 1];
      if (last && last.reduced === reduced[d]) last.n *= n;
      else groups.push({ n, stride, reduced: reduced[d]! });
    }
    stride *= n;
  }
  let inner = 1;
  if (groups.length > 0 && !groups[0]!.reduced) inner = groups.shift()!.n;
  groups.reverse();
  const pad = (gs: ReduceGroup[], max: number): ReduceGroup[] | null =>
    gs.length > max ? null : [...Array.from({ length: max - gs.length }, () => ({ n: 1, stride: 0 })), ...gs];
  const kept = pad(
    groups.filter((g) => !g.reduced).map(({ n, stride }) => ({ n, stride })),
    MAX_KEPT_GROUPS,
  );
  const red = pad(
    groups.filter((g) => g.reduced).map(({ n, stride }) => ({ n, stride })),
    MAX_REDUCED_GROUPS,
  );
  if (!kept || !red) return null;
  return { inner, kept, reduced: red, count: red.reduce((p, g) => p * g.n, 1) };
}
