/**
 * The head of the arena comes from micrort: the model is allocated with micrort's kernels (whose Prepare
 * requests the same scratch buffers as TFLM's) and planned by a micrort planner; TFLM's greedy planner on
 * the same buffers gives the same head. This module runs that allocation and records, per node, how many
 * scratch buffers its Prepare requested (TFLM keeps one ScratchBufferRequest per request in the head while
 * preparing, so the count shapes prepare's peak).
 */
import {
  ArenaTooSmallError,
  MicroInterpreter,
  OpResolver,
  type BufferRequirement,
  type MemoryPlan,
  type MemoryPlanner,
  type ModelDef,
  type Registration,
} from '@micrort/core';
import { makeDequantize, registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';
import { allocateWithStandIns, type RegistrationDecorator, type StandIn } from './stand-ins.js';

/** One Prepare call seen during allocation. */
interface PrepareRecord {
  nodeIndex: number;
  /** Bytes of each scratch request, in order. */
  scratch: number[];
}

/** A decorator that records each Prepare's scratch-buffer requests into `records`, in prepare order. */
function recordScratch(records: PrepareRecord[]): RegistrationDecorator {
  return (inner: Registration): Registration => {
    const prepare = inner.prepare;
    if (!prepare) return inner;
    return {
      ...inner,
      prepare(ctx, n) {
        const record: PrepareRecord = { nodeIndex: n.index, scratch: [] };
        records.push(record);
        const counting = new Proxy(ctx, {
          get(target, key) {
            if (key === 'requestScratchBufferInArena')
              return (bytes: number) => {
                record.scratch.push(bytes);
                return target.requestScratchBufferInArena(bytes);
              };
            const v = Reflect.get(target, key, target) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        });
        prepare.call(inner, counting, n);
      },
    };
  };
}

/**
 * Registers the kernels micrort plans with by default: ops-reference, then ops-signal, with TFLM's
 * behaviour where micrort's default differs: DEQUANTIZE does not fold constant float16 inputs into a
 * persistent output (TFLM computes every node's output in the head at invoke).
 */
export function registerDefaultKernels(resolver: OpResolver): void {
  registerReferenceOps(resolver);
  registerSignalOps(resolver);
  resolver.register(makeDequantize({ foldFloat16Constants: false }), { override: true });
}

/** The resolver micrort plans with by default (see {@link registerDefaultKernels}). */
export function defaultResolver(): OpResolver {
  const r = new OpResolver();
  registerDefaultKernels(r);
  return r;
}

/** Options of {@link planWithMicrort}. */
export interface MicrortPlanOptions {
  /** Planner (name or instance); default `greedy` (TFLM's GreedyMemoryPlanner). */
  planner?: string | MemoryPlanner;
  /** Registers the kernels to prepare with on a resolver; default {@link registerDefaultKernels}. */
  registerKernels?: (resolver: OpResolver) => void;
  /**
   * Plan nodes micrort cannot prepare (no kernel accepts them, or their kernel's init or prepare throws)
   * with stand-ins (see stand-ins.ts): their tensors are planned from the graph and they request no
   * scratch (default false: such a node throws micrort's error).
   */
  standIns?: boolean;
}

/** What micrort's allocation of the model says about the head. */
export interface MicrortPlan {
  planner: string;
  /** The planned head (bytes). */
  headBytes: number;
  /** Bytes of each scratch request per `[subgraph][node]`, in TFLM's prepare order. */
  scratch: number[][][];
  /**
   * When a scratch buffer of each node `[subgraph][node]` lives on the model's timeline (first and last
   * step, as the planner sees it): that of the node's own first scratch request, or else the step that
   * creates its outputs; null when unknown.
   */
  scratchTimes: ([number, number] | null)[][];
  /** Buffers planned and their offsets (subgraph 0), for embedding an offline plan. */
  requirements: BufferRequirement[];
  plan: MemoryPlan;
  /** Nodes planned with a stand-in (only with `standIns`), each with why micrort could not prepare it. */
  standIns: StandIn[];
}

/**
 * Allocates `model` with micrort (every node's Prepare runs) and returns the planned head and the scratch
 * requests per node. Throws micrort's errors (UnsupportedOpError, KernelError, ...) when a node cannot be
 * prepared and `standIns` is off.
 */
export function planWithMicrort(model: ModelDef, options: MicrortPlanOptions = {}): MicrortPlan {
  const planner = typeof options.planner === 'object' ? options.planner : createPlanner(options.planner ?? 'greedy');
  const makeResolver = () => {
    const r = new OpResolver();
    (options.registerKernels ?? registerDefaultKernels)(r);
    return r;
  };
  const attempt = (arena: number) => {
    const records: PrepareRecord[] = [];
    const allocation = allocateWithStandIns(
      makeResolver,
      (resolver) => {
        records.length = 0; // a retry with more stand-ins records every Prepare again
        const interp = new MicroInterpreter(model, resolver, { planner, arena });
        interp.allocateTensors();
        return interp;
      },
      { standIns: options.standIns ?? false, decorate: recordScratch(records) },
    );
    return { interp: allocation.value, records, standIns: allocation.standIns };
  };
  let run: ReturnType<typeof attempt>;
  try {
    run = attempt(0);
  } catch (e) {
    if (!(e instanceof ArenaTooSmallError) || e.requiredArenaBytes === undefined) throw e;
    run = attempt(e.requiredArenaBytes);
  }
  const { interp, records } = run;
  const committed = interp.memoryPlan();
  // Map Prepare calls onto TFLM's order (subgraph by subgraph, node by node). Scratch requirements are
  // numbered in request order, so the k-th request recorded is scratch requirement k.
  const scratch = model.subgraphs.map((sg) => sg.operators.map((): number[] => []));
  const scratchReqs = committed.requirements.filter((r) => r.kind === 'scratch').sort((a, b) => a.id - b.id);
  const times = model.subgraphs.map((sg) => sg.operators.map((): [number, number] | null => null));
  let s = 0;
  let next = 0;
  let k = 0;
  for (const r of records) {
    while (s < model.subgraphs.length && !(r.nodeIndex >= next && r.nodeIndex < model.subgraphs[s]!.operators.length)) {
      s++;
      next = 0;
    }
    if (s >= model.subgraphs.length) break;
    scratch[s]![r.nodeIndex] = r.scratch;
    const first = scratchReqs[k];
    if (r.scratch.length && first) times[s]![r.nodeIndex] = [first.firstUsed, first.lastUsed];
    k += r.scratch.length;
    next = r.nodeIndex + 1;
  }
  // A node without scratch of its own: its time is when its outputs are created.
  const created = new Map<string, number>();
  for (const r of committed.requirements) if (r.kind === 'tensor') created.set(`${r.subgraph ?? 0}:${r.id}`, r.firstUsed);
  model.subgraphs.forEach((sg, si) =>
    sg.operators.forEach((op, i) => {
      if (times[si]![i]) return;
      const t = Math.min(...Array.from(op.outputs, (o) => created.get(`${si}:${o}`) ?? Infinity));
      if (Number.isFinite(t)) times[si]![i] = [t, t];
    }),
  );
  return {
    planner: planner.name,
    headBytes: interp.arenaUsage().headBytes,
    scratch,
    scratchTimes: times,
    requirements: committed.requirements,
    plan: committed.plan,
    standIns: run.standIns,
  };
}
