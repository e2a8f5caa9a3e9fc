/**
 * Multiply-accumulates per node of an allocated interpreter (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV; everything else counts 0), and the share a kernel package served:
 * how much of a model's arithmetic ran in that package's kernels rather than in a fallback.
 */
import type { MicroInterpreter } from '@micrort/core';

/** Multiply-accumulates of one node from its op and its tensors' shapes. */
export function nodeMacs(op: string, inputDims: readonly (ArrayLike<number> | null)[], outputDims: ArrayLike<number>): number {
  const numel = (d: ArrayLike<number>) => Array.from(d).reduce((a, x) => a * x, 1);
  const filter = inputDims[1];
  if (!filter) return 0;
  const out = numel(outputDims);
  switch (op) {
    case 'CONV_2D': // out [N, H, W, O] x filter [O, kH, kW, I]
      return out * (numel(filter) / Math.max(1, filter[0] ?? 1));
    case 'DEPTHWISE_CONV_2D': // out [N, H, W, C] x filter [1, kH, kW, C]
      return out * (numel(filter) / Math.max(1, filter[filter.length - 1] ?? 1));
    case 'FULLY_CONNECTED': // out [.., units] x filter [units, depth]
      return out * (filter[filter.length - 1] ?? 0);
    case 'TRANSPOSE_CONV': // filter [O, kH, kW, I] over the input pixels
      return numel(inputDims[2] ?? []) * (numel(filter) / Math.max(1, filter[0] ?? 1));
    default:
      return 0;
  }
}

/** The share (0-1) of the entry subgraph's multiply-accumulates that `provider` served, and the total; null share when there are none. */
export function macShare(interp: MicroInterpreter, provider: string): { share: number | null; macs: number } {
  let total = 0;
  let served = 0;
  for (const n of interp.nodes()) {
    if ((n.subgraph ?? 0) !== 0) continue;
    const dims = n.inputs.map((i) => (i >= 0 ? interp.tensor(i).dims : null));
    const out = n.outputs.length ? interp.tensor(n.outputs[0]!).dims : [];
    const m = nodeMacs(n.op, dims, out);
    total += m;
    if (n.provider === provider) served += m;
  }
  return { share: total > 0 ? served / total : null, macs: total };
}
