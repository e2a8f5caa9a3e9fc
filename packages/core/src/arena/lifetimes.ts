/**
 * Buffer lifetimes over an execution plan, as TFLM's AllocationInfoBuilder computes them: subgraph inputs
 * are created at step 0, subgraph outputs live until the last step, each node's outputs are created at
 * its step and each input is used until the last step that reads it.
 */
export interface PlanStep {
  readonly inputs: ArrayLike<number>;
  readonly outputs: ArrayLike<number>;
}

export interface Lifetimes {
  /** Step that creates tensor i, or -1. */
  firstCreated: Int32Array;
  /** Last step that reads tensor i, or -1. */
  lastUsed: Int32Array;
}

export function computeLifetimes(
  tensorCount: number,
  steps: readonly PlanStep[],
  subgraphInputs: ArrayLike<number>,
  subgraphOutputs: ArrayLike<number>,
): Lifetimes {
  const firstCreated = new Int32Array(tensorCount).fill(-1);
  const lastUsed = new Int32Array(tensorCount).fill(-1);
  const lastStep = Math.max(0, steps.length - 1);
  for (let i = 0; i < subgraphInputs.length; i++) {
    const t = subgraphInputs[i]!;
    if (t >= 0) firstCreated[t] = 0;
  }
  for (let s = 0; s < steps.length; s++) {
    const { inputs, outputs } = steps[s]!;
    for (let i = 0; i < inputs.length; i++) {
      const t = inputs[i]!;
      if (t < 0) continue;
      if (lastUsed[t]! < s) lastUsed[t] = s;
    }
    for (let i = 0; i < outputs.length; i++) {
      const t = outputs[i]!;
      if (t < 0) continue;
      if (firstCreated[t] === -1) firstCreated[t] = s;
    }
  }
  for (let i = 0; i < subgraphOutputs.length; i++) {
    const t = subgraphOutputs[i]!;
    if (t < 0) continue;
    lastUsed[t] = lastStep;
    if (firstCreated[t] === -1) firstCreated[t] = 0;
  }
  for (let t = 0; t < tensorCount; t++) {
    // Read but never written (and not a subgraph input): live from the start.
    if (firstCreated[t] === -1 && lastUsed[t]! >= 0) firstCreated[t] = 0;
    // Written but never read: needs memory at the step that writes it.
    if (lastUsed[t] === -1 && firstCreated[t]! >= 0) lastUsed[t] = firstCreated[t]!;
  }
  return { firstCreated, lastUsed };
}
