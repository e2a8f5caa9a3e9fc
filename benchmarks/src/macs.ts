/**
 * The share of a model's multiply-accumulates a kernel package served (kernel-support's `opMacs` per
 * node: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV; everything else counts 0): how
 * much of a model's arithmetic ran in that package's kernels rather than in a fallback.
 */
import { BuiltinOperator, type MicroInterpreter } from '@micrort/core';
import { opMacs } from '@micrort/kernel-support';

/** The share (0-1) of the entry subgraph's multiply-accumulates that `provider` served, and the total; null share when there are none. */
export function macShare(interp: MicroInterpreter, provider: string): { share: number | null; macs: number } {
  let total = 0;
  let served = 0;
  for (const n of interp.nodes()) {
    if ((n.subgraph ?? 0) !== 0) continue;
    const code = (BuiltinOperator as unknown as Record<string, number | undefined>)[n.op] ?? -1;
    const dims = (k: number | undefined) => (k !== undefined && k >= 0 ? interp.tensor(k).dims : undefined);
    const m = opMacs(code, dims(n.outputs[0]), dims(n.inputs[1]), dims(n.inputs[2]));
    total += m;
    if (n.provider === provider) served += m;
  }
  return { share: total > 0 ? served / total : null, macs: total };
}
