/**
 * In-place planning (opt-in, interpreter option `inPlace: true`): a node's output 0 may take the memory
 * of one of its inputs when that input dies at the node and the kernel declares (Registration.inPlace)
 * that it stays correct with the two aliased. TFLM has no such mode; it lets plans go below the usual
 * lower bound (max live bytes at a step) because the hand-over step then needs one buffer, not two.
 *
 * The allocator marks such pairs with `BufferRequirement.inPlaceOf`; planners that honour it place the
 * output at its input's offset, and plan validation accepts exactly that overlap.
 */
import { MicrortError } from '../errors.js';
import type { Node, Registration, TfLiteContext } from '../kernel/api.js';
import type { BufferRequirement } from '../planner/memory-planner.js';
import type { PlanStep } from './lifetimes.js';

/**
 * Per execution step: the tensor indices (in order of preference) whose memory the step's output 0 may
 * share, as the step's kernel declared them, or null when it declared none.
 */
export type InPlaceCandidates = readonly (readonly number[] | null | undefined)[];

/** One output that shares the memory of the input that dies at its node. */
export interface InPlacePair {
  /** Execution step of the node. */
  step: number;
  /** Tensor index of the output (the requirement that got `inPlaceOf`). */
  output: number;
  /** Tensor index of the input whose memory it takes. */
  input: number;
  /** Aligned bytes of either buffer (the smaller one for an overwrite): what the pair saves at the hand-over step. */
  bytes: number;
  /**
   * Set for a kernel's in-place variant (`Registration.inPlaceVariant`): the output overwrites the
   * input's buffer from its first byte and may be smaller or larger; `scratchBytes` is the temporary
   * the variant requested instead. Absent for an elementwise pair (same size, `Registration.inPlace`).
   */
  overwrite?: { scratchBytes: number };
}

/** An in-place variant a schedule granted during prepare (`ScheduleRun.overwrites`); planned by `applyOverwrites`. */
export interface GrantedOverwrite {
  step: number;
  input: number;
  output: number;
  scratchBytes: number;
}

/**
 * Asks a kernel which inputs its output 0 may share (`registration.inPlace`) and turns the answer from
 * input positions into tensor indices, skipping omitted inputs (-1). Returns null when the kernel has no
 * `inPlace` or declares none. A position outside `node.inputs` is a kernel bug: MicrortError naming the
 * node, the kernel and the position.
 */
export function kernelInPlaceInputs(registration: Registration, context: TfLiteContext, node: Node): number[] | null {
  if (!registration.inPlace) return null;
  const answer = registration.inPlace(context, node);
  if (answer === null || answer === undefined) return null;
  const positions: readonly number[] = typeof answer === 'number' ? [answer] : answer;
  const tensors: number[] = [];
  for (const p of positions) {
    if (!Number.isInteger(p) || p < 0 || p >= node.inputs.length)
      throw new MicrortError(
        `kernel ${registration.name ?? registration.builtinCode} (node ${node.index}) declared in-place input position ${p}, but the node has ${node.inputs.length} inputs`,
      );
    const t = node.inputs[p]!;
    if (t >= 0 && !tensors.includes(t)) tensors.push(t);
  }
  return tensors.length > 0 ? tensors : null;
}

/**
 * Sets `inPlaceOf` on the requirement of each step's output 0 whose kernel declared candidates, taking
 * the first candidate input that:
 * - is a planned tensor (has a requirement: not constant, not variable) and not a graph input or output;
 * - was created before the step and dies at it (`lastUsed === step`, output `firstUsed === step`);
 * - has exactly the output's aligned size;
 * - is placed the same way as the output: both online, or both offline at the same offset (an embedded
 *   in-place plan).
 * Returns the pairs it made, in step order. Requirements not meeting the rules are left untouched, so
 * the plan stays the ordinary one for them.
 */
export function applyInPlace(
  reqs: BufferRequirement[],
  steps: readonly PlanStep[],
  candidates: InPlaceCandidates,
  graphInputs: ArrayLike<number>,
  graphOutputs: ArrayLike<number>,
  /** Time of each step on the model's timeline (default: the step index; see graph/allocation-info.ts). */
  times?: ArrayLike<number>,
): InPlacePair[] {
  const byTensor = new Map<number, BufferRequirement>();
  for (const r of reqs) if (r.kind === 'tensor') byTensor.set(r.id, r);
  const graphIo = new Set<number>();
  for (let i = 0; i < graphInputs.length; i++) graphIo.add(graphInputs[i]!);
  for (let i = 0; i < graphOutputs.length; i++) graphIo.add(graphOutputs[i]!);
  // Inputs already shared (by overwrite pairs set before) are not shared twice.
  const taken = new Set<number>();
  for (const r of reqs) if (r.inPlaceOf !== undefined && r.inPlaceOf >= 0) taken.add(r.inPlaceOf);
  const pairs: InPlacePair[] = [];
  for (let step = 0; step < steps.length; step++) {
    const inputs = candidates[step];
    if (!inputs || inputs.length === 0) continue;
    const outputs = steps[step]!.outputs;
    const t = outputs.length > 0 ? outputs[0]! : -1;
    const out = t >= 0 ? byTensor.get(t) : undefined;
    const time = times ? times[step]! : step;
    if (!out || out.firstUsed !== time || out.inPlaceOf !== undefined) continue;
    for (const u of inputs) {
      if (u === t || graphIo.has(u) || taken.has(u)) continue;
      const input = byTensor.get(u);
      if (!input || input.lastUsed !== time || input.firstUsed >= time || input.size !== out.size) continue;
      if (offlineOf(input) !== offlineOf(out)) continue;
      out.inPlaceOf = u;
      taken.add(u);
      pairs.push({ step, output: t, input: u, bytes: out.size });
      break;
    }
  }
  return pairs;
}

/**
 * Sets `inPlaceOf` for each granted in-place variant whose input and output both got requirements
 * placed the same way (both online, or both offline at the same offset). Returns the pairs made; a
 * grant left out (e.g. offline plans that disagree) leaves the two buffers apart, which the variant
 * handles too.
 */
export function applyOverwrites(reqs: BufferRequirement[], grants: readonly GrantedOverwrite[]): InPlacePair[] {
  const byTensor = new Map<number, BufferRequirement>();
  for (const r of reqs) if (r.kind === 'tensor') byTensor.set(r.id, r);
  const pairs: InPlacePair[] = [];
  for (const g of grants) {
    const input = byTensor.get(g.input);
    const out = byTensor.get(g.output);
    if (!input || !out || out.inPlaceOf !== undefined) continue;
    if (input.lastUsed !== out.firstUsed || offlineOf(input) !== offlineOf(out)) continue;
    out.inPlaceOf = g.input;
    pairs.push({
      step: g.step,
      output: g.output,
      input: g.input,
      bytes: Math.min(input.size, out.size),
      overwrite: { scratchBytes: g.scratchBytes },
    });
  }
  return pairs;
}

function offlineOf(r: BufferRequirement): number {
  return r.offlineOffset !== undefined && r.offlineOffset >= 0 ? r.offlineOffset : -1;
}

/**
 * The in-place partner of each requirement (the index of the requirement of kind tensor whose id is its
 * `inPlaceOf` and whose last use is its first use), or -1. The same rule as the planners' alias table;
 * plan validation allows a partner pair, and only a pair, to overlap when both sit at the same offset.
 */
export function inPlacePartners(reqs: readonly BufferRequirement[]): Int32Array {
  const partner = new Int32Array(reqs.length).fill(-1);
  let index: Map<number, number> | null = null;
  // The partner is a tensor of the same subgraph (tensor indices are per subgraph).
  const tensorKey = (subgraph: number | undefined, id: number) => (subgraph ?? -1) * 0x100000000 + id;
  for (let i = 0; i < reqs.length; i++) {
    const t = reqs[i]!.inPlaceOf;
    if (t === undefined || t < 0) continue;
    if (!index) {
      index = new Map();
      for (let j = 0; j < reqs.length; j++) {
        const r = reqs[j]!;
        if (r.kind !== 'tensor') continue;
        const key = tensorKey(r.subgraph, r.id);
        if (!index.has(key)) index.set(key, j);
      }
    }
    const j = index.get(tensorKey(reqs[i]!.subgraph, t));
    if (j !== undefined && j !== i && reqs[j]!.lastUsed === reqs[i]!.firstUsed) partner[i] = j;
  }
  return partner;
}
