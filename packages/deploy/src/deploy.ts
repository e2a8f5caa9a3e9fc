/**
 * `deployTflm`: everything a TFLM build of a model needs, in one report — the smallest
 * `kTensorArenaSize` and the `arena_used_bytes()` TFLM will report, for a 64-bit host and a 32-bit MCU;
 * the `MicroMutableOpResolver<N>` header; what TFLM will refuse; and optionally the model with an
 * offline memory plan embedded (planners' `withOfflinePlan`, core's `writeModel`) with the arena TFLM
 * needs for it.
 *
 * The head is micrort's: the model is allocated with micrort's kernels (ops-reference + ops-signal by
 * default), which request the scratch buffers TFLM's do, and planned with TFLM's greedy rule; where the
 * kernel table knows TFLM's Prepare requests differently, the head is planned again with TFLM's requests.
 * The tail is the arena model (tflm/arena-model.ts) run over the kernel table (tflm/kernels.ts).
 */
import { loadModel, readOfflineMemoryAllocation, writeModel, type ModelDef, type OpResolver } from '@micrort/core';
import { withOfflinePlan } from '@micrort/planners';
import { abiForWord, type Abi } from './abi.js';
import { planWithMicrort, type MicrortPlan } from './micrort-plan.js';
import { tflmRefusals, type Refusal } from './refusals.js';
import { modelIdentifier, resolverHeader, resolverPlan, type ResolverEntry } from './resolver-header.js';
import type { StandIn } from './stand-ins.js';
import { tflmPlan } from './tflm-plan.js';
import { predictArena, usesResourceVariables, type ArenaPrediction, type TailKind } from './tflm/arena-model.js';
import { kernelModel } from './tflm/kernels.js';

/** Slots of the MicroResourceVariables a TFLM application creates for a model with resource variables. */
export const DEFAULT_RESOURCE_VARIABLE_SLOTS = 64;

/** Options of {@link deployTflm}. */
export interface DeployOptions {
  /**
   * Planner of the offline plan (`greedy`, `linear`, `bestfit`, `optimal`, …). Any planner but `greedy`
   * embeds its plan (TFLM's own planner is greedy, so a greedy plan changes nothing unless `embed`).
   */
  planner?: string;
  /** Embed the planner's plan even when it is `greedy`. */
  embed?: boolean;
  /** Word size of the headline figures (both are always computed); default 64. */
  word?: 64 | 32;
  /** sizeof(enum) of the 32-bit target: 1 (arm-none-eabi-gcc's default short enums) or 4. */
  enumBytes32?: 1 | 4;
  /**
   * Plan nodes micrort cannot prepare with stand-ins: a node no kernel accepts, or whose kernel's init or
   * prepare throws, has its tensors planned at the file's shapes and its TFLM allocations (op data,
   * prepare temporaries, scratch requests) taken from the kernel table when it models the op. Default
   * true; false (`--strict`): such a node throws micrort's error (UnsupportedOpError, KernelError).
   */
  standIns?: boolean;
  /** Registers the kernels micrort prepares with (default ops-reference + ops-signal). */
  registerKernels?: (resolver: OpResolver) => void;
  /**
   * Slots of the MicroResourceVariables the application creates for a model with VAR_HANDLE (TFLM's
   * MicroResourceVariables::Create(allocator, N)); default 64. Ignored for other models.
   */
  resourceVariableSlots?: number;
  /** Label of the model in the header and summary (e.g. its file name, with its folder). */
  modelLabel?: string;
  /** The model's name in C identifiers (the header's include guard); default modelIdentifier(modelLabel). */
  modelName?: string;
}

/** Nodes of one op planned with a stand-in for the same reason, and what that does to the figures. */
export interface DeployStandIn {
  op: string;
  subgraph: number;
  nodes: number[];
  /** Why micrort could not prepare them (no kernel, kernels declined, or what init/prepare threw). */
  reason: string;
  /** Where TFLM's scratch requests for them come from. */
  scratchFrom: 'kernel table' | 'none known';
  /** How the figures are affected, in one sentence. */
  effect: string;
}

/** The figures for one target. */
export interface DeployTarget {
  /** 64 (LP64, x86-64) or 32 (ILP32, ARM EABI). */
  word: 64 | 32;
  abi: string;
  /** One line: what the ABI assumes. */
  abiDescription: string;
  /** The smallest kTensorArenaSize (a multiple of 16) with which AllocateTensors and Invoke succeed. */
  arenaMinBytes: number;
  /** What MicroInterpreter::arena_used_bytes() reports after AllocateTensors. */
  arenaUsedBytes: number;
  headBytes: number;
  tailBytes: number;
  tailByKind: Record<TailKind, number>;
  /** The allocation step that sets arenaMinBytes. */
  limitedBy: string;
  /** Whether TFLM's scratch requests differ from micrort's kernels', so the head was planned again. */
  headReplanned: boolean;
}

/** The offline plan embedded in the model, and what TFLM needs with it. */
export interface DeployOfflinePlan {
  planner: string;
  /** Tensors with a fixed offset in the metadata. */
  tensorOffsets: number;
  /** The model with the OfflineMemoryAllocation metadata. */
  model: Uint8Array;
  /** Figures for each target with the embedded plan (TFLM plans scratch buffers around it). */
  targets: DeployTarget[];
}

/** Everything `micrort deploy --target tflm` reports. */
export interface DeployReport {
  model: string;
  /** The word size of the headline figures below. */
  word: 64 | 32;
  arenaMinBytes: number;
  arenaUsedBytes: number;
  headBytes: number;
  tailBytes: number;
  /** Distinct operators, in the resolver's order (`CONV_2D`, `CUSTOM:SignalFramer`). */
  ops: string[];
  /** Both targets, 64-bit first. */
  targets: DeployTarget[];
  resolver: { count: number; entries: ResolverEntry[]; missing: string[]; header: string };
  refusals: Refusal[];
  offlinePlan: DeployOfflinePlan | null;
  /** Nodes planned with stand-ins (micrort cannot prepare them): which, why, and how the figures are affected. */
  standIns: DeployStandIn[];
  /** Ops the kernel table does not model: their allocations are missing, the figures are lower bounds. */
  unmodelledOps: string[];
  /** True when every figure follows from micrort's own prepare and the kernel table (no stand-ins, no unmodelled op). */
  exact: boolean;
  notes: string[];
}

/** TFLM's offsets of every tensor of every subgraph from the model's OfflineMemoryAllocation, or null. */
export function offlineOffsetsOf(model: ModelDef): Int32Array | null {
  if (!readOfflineMemoryAllocation(model, 0)) return null;
  const parts = model.subgraphs.map((_, s) => readOfflineMemoryAllocation(model, s)!);
  const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function predictTarget(
  model: ModelDef,
  micrort: MicrortPlan,
  abi: Abi,
  resourceVariableSlots: number,
): { target: DeployTarget; prediction: ArenaPrediction } {
  const plan = tflmPlan(model, micrort, abi, kernelModel);
  const prediction = predictArena(model, {
    abi,
    kernel: kernelModel,
    scratchRequests: plan.scratchRequests,
    headBytes: plan.headBytes,
    offlineOffsets: offlineOffsetsOf(model),
    resourceVariableSlots: usesResourceVariables(model) ? resourceVariableSlots : 0,
  });
  return {
    prediction,
    target: {
      word: abi.word,
      abi: abi.name,
      abiDescription: abi.description,
      arenaMinBytes: prediction.minBytes,
      arenaUsedBytes: prediction.usedBytes,
      headBytes: prediction.headBytes,
      tailBytes: prediction.tailBytes,
      tailByKind: prediction.tailByKind,
      limitedBy: prediction.limitedBy,
      headReplanned: plan.replanned,
    },
  };
}

/**
 * The TFLM deployment report of `model` (bytes of a .tflite file, or a loaded ModelDef). Throws micrort's
 * errors when the model cannot be loaded, or (with `standIns: false`) prepared.
 */
export function deployTflm(input: Uint8Array | ModelDef, options: DeployOptions = {}): DeployReport {
  const model = input instanceof Uint8Array ? loadModel(input) : input;
  const label = options.modelLabel ?? 'model';
  const standIns = options.standIns ?? true;
  const slots = options.resourceVariableSlots ?? DEFAULT_RESOURCE_VARIABLE_SLOTS;
  const abis = [abiForWord(64), abiForWord(32, { enumBytes: options.enumBytes32 ?? 1 })];
  const kernels = options.registerKernels ? { registerKernels: options.registerKernels } : {};

  const micrort = planWithMicrort(model, { planner: 'greedy', standIns, ...kernels });
  const runs = abis.map((abi) => predictTarget(model, micrort, abi, slots));
  const targets = runs.map((r) => r.target);

  const planner = options.planner ?? 'greedy';
  let offlinePlan: DeployOfflinePlan | null = null;
  if (planner !== 'greedy' || options.embed) {
    const chosen = planner === 'greedy' ? micrort : planWithMicrort(model, { planner, standIns, ...kernels });
    const bytes = writeModel(withOfflinePlan(model, chosen.requirements, chosen.plan));
    const embedded = loadModel(bytes);
    const replanned = planWithMicrort(embedded, { planner: 'offline', standIns, ...kernels });
    offlinePlan = {
      planner: chosen.planner,
      tensorOffsets: chosen.requirements.filter((r) => r.kind === 'tensor').length,
      model: bytes,
      targets: abis.map((abi) => predictTarget(embedded, replanned, abi, slots).target),
    };
  }

  const resolver = resolverPlan(model);
  const standInList = groupStandIns(micrort.standIns);
  const unmodelledOps = [...new Set(runs.flatMap((r) => r.prediction.unmodelledOps))];
  const notes: string[] = [];
  for (const s of standInList)
    notes.push(
      `${s.op} (${s.subgraph ? `subgraph ${s.subgraph} ` : ''}node${s.nodes.length === 1 ? '' : 's'} ${s.nodes.join(', ')}) is planned with a stand-in: ` +
        `micrort cannot prepare it (${s.reason}). ${s.effect}`,
    );
  if (unmodelledOps.length)
    notes.push(
      `no kernel model for ${unmodelledOps.join(', ')}: their op data and prepare allocations are missing, so the figures are lower bounds`,
    );
  const exact = standInList.length === 0 && unmodelledOps.length === 0;
  const main = targets.find((t) => t.word === (options.word ?? 64))!;
  return {
    model: label,
    word: main.word,
    arenaMinBytes: main.arenaMinBytes,
    arenaUsedBytes: main.arenaUsedBytes,
    headBytes: main.headBytes,
    tailBytes: main.tailBytes,
    ops: resolver.entries.map((e) => e.op).concat(resolver.missing),
    targets,
    resolver: {
      count: resolver.count,
      entries: resolver.entries,
      missing: resolver.missing,
      header: resolverHeader(model, {
        modelLabel: label,
        modelName: options.modelName ?? modelIdentifier(label),
        arena: { targets, offlinePlan: offlinePlan && { planner: offlinePlan.planner, targets: offlinePlan.targets }, exact },
      }),
    },
    refusals: tflmRefusals(model),
    offlinePlan,
    standIns: standInList,
    unmodelledOps,
    exact,
    notes,
  };
}

/** What planning `op` with a stand-in does to the figures (its tensors are planned at the file's shapes either way). */
function standInEffect(op: string): { scratchFrom: DeployStandIn['scratchFrom']; effect: string } {
  const k = kernelModel(op);
  if (!k)
    return {
      scratchFrom: 'none known',
      effect:
        'Its tensors are planned at the shapes in the file; no kernel model covers the op, so its scratch requests, op data and ' +
        'prepare allocations are missing and the figures are lower bounds.',
    };
  if (k.scratch)
    return {
      scratchFrom: 'kernel table',
      effect:
        "Its tensors are planned at the shapes in the file, as TFLM's planner plans them; its op data, prepare temporaries and scratch " +
        "requests are TFLM's from the kernel table, so the figures follow TFLM, but no micrort prepare confirmed them (not exact).",
    };
  return {
    scratchFrom: 'none known',
    effect:
      'Its tensors are planned at the shapes in the file; its op data and prepare temporaries come from the kernel table, and no scratch ' +
      "buffer is assumed (micrort's kernel did not run to say), so the head can be short.",
  };
}

/** Stand-ins grouped by subgraph, op and reason, with their effect on the figures. */
function groupStandIns(list: readonly StandIn[]): DeployStandIn[] {
  const groups = new Map<string, DeployStandIn>();
  for (const s of list) {
    const key = `${s.subgraph}\u0000${s.op}\u0000${s.reason}`;
    const g = groups.get(key);
    if (g) g.nodes.push(s.node);
    else groups.set(key, { op: s.op, subgraph: s.subgraph, nodes: [s.node], reason: s.reason, ...standInEffect(s.op) });
  }
  return [...groups.values()];
}
