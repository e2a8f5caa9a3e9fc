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
import { resolverHeader, resolverPlan, type ResolverEntry } from './resolver-header.js';
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
   * Plan nodes micrort cannot prepare yet with stand-ins (tensors planned from the graph, scratch
   * requests from the kernel table when it declares them). Default true; false: such a node throws
   * micrort's error (UnsupportedOpError, KernelError).
   */
  standIns?: boolean;
  /** Registers the kernels micrort prepares with (default ops-reference + ops-signal). */
  registerKernels?: (resolver: OpResolver) => void;
  /**
   * Slots of the MicroResourceVariables the application creates for a model with VAR_HANDLE (TFLM's
   * MicroResourceVariables::Create(allocator, N)); default 64. Ignored for other models.
   */
  resourceVariableSlots?: number;
  /** Label of the model in the header and summary (e.g. its file name). */
  modelLabel?: string;
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
  /** Ops planned with stand-ins (micrort cannot prepare them yet): `scratchFrom` says where their scratch requests came from. */
  standIns: { op: string; nodes: number[]; scratchFrom: 'kernel table' | 'none known' }[];
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
  const standInList = micrort.standIns.map((s) => ({
    ...s,
    scratchFrom: kernelModel(s.op)?.scratch ? ('kernel table' as const) : ('none known' as const),
  }));
  const unmodelledOps = [...new Set(runs.flatMap((r) => r.prediction.unmodelledOps))];
  const notes: string[] = [];
  for (const s of standInList)
    notes.push(
      `micrort cannot prepare ${s.op} (node${s.nodes.length === 1 ? '' : 's'} ${s.nodes.join(', ')}): its tensors are planned from the graph, ` +
        (s.scratchFrom === 'kernel table'
          ? "its scratch requests are TFLM's from the kernel table"
          : 'assuming TFLM requests no scratch buffer for it'),
    );
  if (unmodelledOps.length)
    notes.push(
      `no kernel model for ${unmodelledOps.join(', ')}: their op data and prepare allocations are missing, so the figures are lower bounds`,
    );
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
      header: resolverHeader(model, { modelLabel: label }),
    },
    refusals: tflmRefusals(model),
    offlinePlan,
    standIns: standInList,
    unmodelledOps,
    exact: standInList.length === 0 && unmodelledOps.length === 0,
    notes,
  };
}
