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

/** A tensor read (or returned as a subgraph output) before any step writes it. */
export interface ReadBeforeWrite {
  tensor: number;
  /** Step that reads it, or -1 when it is a subgraph output no step writes. */
  step: number;
}

/**
 * The first tensor that a step reads before any step has written it, walking the plan in order, or
 * null. Tensors for which `hasData(t)` is true (subgraph inputs, constants, variables, empty tensors)
 * count as written from the start. Such a read sees whatever the arena held (another tensor's bytes or
 * stale data): the graph is not in execution order or refers to a tensor nothing produces.
 */
export function findReadBeforeWrite(
  tensorCount: number,
  steps: readonly PlanStep[],
  subgraphInputs: ArrayLike<number>,
  subgraphOutputs: ArrayLike<number>,
  hasData: (tensor: number) => boolean,
): ReadBeforeWrite | null {
  const written = new Uint8Array(tensorCount);
  for (let t = 0; t < tensorCount; t++) if (hasData(t)) written[t] = 1;
  for (let i = 0; i < subgraphInputs.length; i++) {
    const t = subgraphInputs[i]!;
    if (t >= 0 && t < tensorCount) written[t] = 1;
  }
  for (let s = 0; s < steps.length; s++) {
    const { inputs, outputs } = steps[s]!;
    for (let i = 0; i < inputs.length; i++) {
      const t = inputs[i]!;
      if (t >= 0 && t < tensorCount && !written[t]) return { tensor: t, step: s };
    }
    for (let i = 0; i < outputs.length; i++) {
      const t = outputs[i]!;
      if (t >= 0 && t < tensorCount) written[t] = 1;
    }
  }
  for (let i = 0; i < subgraphOutputs.length; i++) {
    const t = subgraphOutputs[i]!;
    if (t >= 0 && t < tensorCount && !written[t]) return { tensor: t, step: -1 };
  }
  return null;
}
