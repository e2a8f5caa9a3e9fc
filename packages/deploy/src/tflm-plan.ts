/**
 * TFLM's memory plan for one ABI: the buffers micrort's allocation planned (its tensors and its kernels'
 * scratch requests), with each node's scratch requests replaced by TFLM's where the kernel table says
 * TFLM's Prepare requests differently (a different count, or sizes that depend on the ABI such as arrays
 * of pointers). When nothing differs, micrort's head is TFLM's head; otherwise the buffers are planned
 * again with the same planner.
 */
import { ARENA_ALIGNMENT, alignUp, type BufferRequirement, type MemoryPlan, type MemoryPlanner, type ModelDef } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import type { Abi } from './abi.js';
import type { KernelModel } from './tflm/kernel-model.js';
import { nodeView } from './tflm/node-view.js';
import { unplannedTensors } from './tflm/arena-model.js';
import type { MicrortPlan } from './micrort-plan.js';

/** The plan TFLM makes for one ABI. */
export interface TflmPlan {
  headBytes: number;
  /** Scratch requests per `[subgraph][node]` (count). */
  scratchRequests: number[][];
  /** Bytes of each scratch request per `[subgraph][node]`. */
  scratch: number[][][];
  /** Whether TFLM's scratch requests differ from micrort's, so the buffers were planned again. */
  replanned: boolean;
  requirements: readonly BufferRequirement[];
  plan: MemoryPlan;
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** TFLM's scratch requests and head for `abi`, from micrort's allocation and the kernel table. */
export function tflmPlan(
  model: ModelDef,
  micrort: MicrortPlan,
  abi: Abi,
  kernel: (op: string) => KernelModel | undefined,
  planner: string | MemoryPlanner = micrort.planner,
): TflmPlan {
  let differs = false;
  const scratch = micrort.scratch.map((nodes, s) =>
    nodes.map((recorded, i) => {
      const n = nodeView(model, s, i);
      const declared = kernel(n.op)?.scratch?.(n, abi);
      if (!declared || sameList(declared, recorded)) return recorded;
      differs = true;
      return declared;
    }),
  );
  const scratchRequests = scratch.map((nodes) => nodes.map((l) => l.length));
  const unplanned = model.subgraphs.map((_, si) => unplannedTensors(model, si, kernel));
  const isUnplanned = (r: BufferRequirement) => r.kind === 'tensor' && unplanned[r.subgraph ?? 0]!.has(r.id);
  if (micrort.requirements.some(isUnplanned)) differs = true;
  if (!differs)
    return {
      headBytes: micrort.headBytes,
      scratchRequests,
      scratch,
      replanned: false,
      requirements: micrort.requirements,
      plan: micrort.plan,
    };
  // Tensors as micrort planned them, then every scratch buffer in TFLM's request order, live when its
  // node's scratch lives (or, for a node micrort requested none for, at the step creating its outputs).
  const requirements: BufferRequirement[] = micrort.requirements.filter((r) => r.kind === 'tensor' && !isUnplanned(r));
  const lastTime = Math.max(0, ...micrort.requirements.map((r) => r.lastUsed));
  let id = 0;
  scratch.forEach((nodes, si) =>
    nodes.forEach((list, node) => {
      const [firstUsed, lastUsed] = micrort.scratchTimes[si]?.[node] ?? [0, lastTime];
      for (const bytes of list)
        requirements.push({
          size: alignUp(bytes),
          firstUsed,
          lastUsed,
          kind: 'scratch',
          id: id++,
          label: `scratch #${id - 1} (${si ? `subgraph ${si} ` : ''}node ${node})`,
        });
    }),
  );
  const p = typeof planner === 'object' ? planner : createPlanner(planner);
  const plan = p.plan(requirements, { alignment: ARENA_ALIGNMENT });
  return { headBytes: plan.headBytes, scratchRequests, scratch, replanned: true, requirements, plan };
}
