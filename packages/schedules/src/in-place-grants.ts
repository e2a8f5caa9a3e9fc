/**
 * Where a kernel's in-place variant may run (the in-place schedules grant it; core plans the pair as an
 * overwrite, arena/in-place.ts).
 */
import { AllocationType, elementSize, type Tensor } from '@micrort/core';

/**
 * Whether a kernel's in-place variant may be granted at entry-subgraph `step` (time `time` on the
 * model's timeline): the input and output are different tensors that the planner will place (not
 * constant, variable, or bound by a kernel), neither is a graph input or output, the input was created
 * before the step and dies at it, the output is created at it, and no other variant took the input.
 */
export function canGrantInPlaceVariant(
  input: Tensor | undefined,
  output: Tensor | undefined,
  time: number,
  firstCreated: Int32Array,
  lastUsed: Int32Array,
  graphIo: ReadonlySet<number>,
  taken: ReadonlySet<number>,
): boolean {
  if (!input || !output || input === output) return false;
  for (const t of [input, output]) {
    if (t.allocationType !== AllocationType.None || t.isVariable || elementSize(t.type) === undefined) return false;
    if (graphIo.has(t.index)) return false;
  }
  if (taken.has(input.index)) return false;
  return lastUsed[input.index] === time && firstCreated[input.index]! < time && firstCreated[output.index] === time;
}
