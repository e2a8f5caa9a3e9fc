/**
 * Embedding a plan in a model as TFLM's `OfflineMemoryAllocation` metadata, so that the model carries its
 * own memory plan (tflite-micro docs/memory_management.md, "Offline planned tensor allocations"): a
 * buffer of little-endian int32 words `[version = 1, number of subgraphs, n, offset_0 .. offset_n-1]`,
 * one head-relative byte offset per tensor of every subgraph in subgraph order, -1 for tensors planned
 * at runtime. Scratch buffers are not tensors: they stay online and are placed around the fixed offsets.
 */
import {
  OFFLINE_MEMORY_ALLOCATION_METADATA,
  ONLINE_PLANNED_BUFFER,
  type BufferRequirement,
  type MemoryPlan,
  type ModelDef,
} from '@micrort/core';
import { InvalidRequirementError, PlanShapeError } from './errors.js';

/** Format version written in word 0. */
export const OFFLINE_PLAN_FORMAT_VERSION = 1;

/**
 * The offset words for `plan` of the tensor requirements of subgraph `subgraph` (and of the other
 * subgraphs a control-flow model plans with it, named by `requirement.subgraph`): the offset of every
 * planned tensor, -1 for every other tensor (constants, variables, unplanned subgraphs) and for scratch
 * buffers, which have no tensor.
 */
export function offlinePlanOffsets(def: ModelDef, requirements: readonly BufferRequirement[], plan: MemoryPlan, subgraph = 0): Int32Array {
  if (plan.offsets.length !== requirements.length) throw new PlanShapeError('plan offset count', requirements.length, plan.offsets.length);
  const total = def.subgraphs.reduce((n, sg) => n + sg.tensors.length, 0);
  const firstOf = (s: number) => {
    let first = 0;
    for (let k = 0; k < s; k++) first += def.subgraphs[k]!.tensors.length;
    return first;
  };
  const offsets = new Int32Array(total).fill(ONLINE_PLANNED_BUFFER);
  requirements.forEach((r, i) => {
    if (r.kind !== 'tensor') return;
    // Models with control flow plan every subgraph's tensors together: `r.subgraph` names the others.
    const s = r.subgraph ?? subgraph;
    const tensors = def.subgraphs[s]?.tensors.length ?? 0;
    if (!Number.isInteger(r.id) || r.id < 0 || r.id >= tensors)
      throw new InvalidRequirementError(i, 'id', r.id, `must be a tensor index of subgraph ${s} (it has ${tensors} tensors)`);
    offsets[firstOf(s) + r.id] = plan.offsets[i]!;
  });
  return offsets;
}

/** The metadata buffer bytes for `offsets` (one per tensor of all subgraphs). */
export function offlinePlanBytes(subgraphCount: number, offsets: Int32Array): Uint8Array {
  const bytes = new Uint8Array(4 * (3 + offsets.length));
  const view = new DataView(bytes.buffer);
  view.setInt32(0, OFFLINE_PLAN_FORMAT_VERSION, true);
  view.setInt32(4, subgraphCount, true);
  view.setInt32(8, offsets.length, true);
  for (let i = 0; i < offsets.length; i++) view.setInt32(12 + 4 * i, offsets[i]!, true);
  return bytes;
}

/**
 * A copy of `def` (sharing its constant buffers) whose `OfflineMemoryAllocation` metadata holds `plan`;
 * an existing entry of that name is replaced. Write it with core's `writeModel`.
 */
export function withOfflinePlan(def: ModelDef, requirements: readonly BufferRequirement[], plan: MemoryPlan, subgraph = 0): ModelDef {
  const bytes = offlinePlanBytes(def.subgraphs.length, offlinePlanOffsets(def, requirements, plan, subgraph));
  const buffers = [...def.buffers, { data: bytes }];
  const metadata = def.metadata.filter((m) => m.name !== OFFLINE_MEMORY_ALLOCATION_METADATA);
  metadata.push({ name: OFFLINE_MEMORY_ALLOCATION_METADATA, buffer: buffers.length - 1 });
  return { ...def, buffers, metadata };
}
