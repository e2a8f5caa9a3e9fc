/**
 * The head of the arena comes from micrort: the model is allocated with micrort's kernels (whose Prepare
 * requests the same scratch buffers as TFLM's) and planned by a micrort planner; TFLM's greedy planner on
 * the same buffers gives the same head. This module runs that allocation and records, per node, how many
 * scratch buffers its Prepare requested (TFLM keeps one ScratchBufferRequest per request in the head while
 * preparing, so the count shapes prepare's peak).
 */
import {
  ArenaTooSmallError,
  BuiltinOperator,
  KernelError,
  MicroInterpreter,
  opDisplayName,
  OpResolver,
  type BufferRequirement,
  type MemoryPlan,
  type MemoryPlanner,
  type ModelDef,
  type Node,
  type Registration,
  type Resolution,
  type TfLiteContext,
} from '@micrort/core';
import { makeDequantize, registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { createPlanner } from '@micrort/planners';

/** One Prepare call seen during allocation. */
interface PrepareRecord {
  nodeIndex: number;
  /** Bytes of each scratch request, in order. */
  scratch: number[];
}

/** Provider name of the planning stand-ins (ops micrort cannot prepare). */
export const STAND_IN_PROVIDER = 'micrort deploy (planning stand-in, no kernel)';

/**
 * An OpResolver whose registrations report each Prepare's scratch-buffer requests. With stand-ins, a node
 * no kernel accepts (or whose op is in `forced`) gets a registration without Prepare: its tensors are
 * planned from the graph, and it requests no scratch.
 */
class RecordingResolver extends OpResolver {
  readonly records: PrepareRecord[] = [];
  /** Ops served by a stand-in, with the node indices. */
  readonly standIns = new Map<string, number[]>();

  constructor(
    private readonly useStandIns: boolean,
    private readonly forced: ReadonlySet<string>,
  ) {
    super();
  }

  private standIn(builtinCode: number, version: number, customName: string | null | undefined, node: Node): Resolution {
    const op = opDisplayName(builtinCode, customName);
    const nodes = this.standIns.get(op) ?? [];
    nodes.push(node.index);
    this.standIns.set(op, nodes);
    const registration: Registration = {
      builtinCode,
      ...(builtinCode === BuiltinOperator.CUSTOM ? { customName: customName ?? '' } : {}),
      version,
      provider: STAND_IN_PROVIDER,
      name: `${op} (stand-in)`,
      invoke(_context, n) {
        throw new KernelError(op, n.index, 'planning stand-in: micrort has no kernel for this node');
      },
    };
    return { registration, tried: [] };
  }

  override resolve(
    builtinCode: number,
    version: number,
    customName: string | null | undefined,
    context: TfLiteContext,
    node: Node,
  ): Resolution | null {
    if (this.useStandIns && this.forced.has(opDisplayName(builtinCode, customName)))
      return this.standIn(builtinCode, version, customName, node);
    const res = super.resolve(builtinCode, version, customName, context, node);
    if (!res?.registration) return this.useStandIns ? this.standIn(builtinCode, version, customName, node) : res;
    if (!res.registration.prepare) return res;
    const inner = res.registration;
    const records = this.records;
    const prepare = inner.prepare!;
    const wrapped: Registration = {
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
    return { ...res, registration: wrapped };
  }
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
   * Plan nodes micrort cannot prepare (no kernel accepts them, or their Prepare throws a KernelError)
   * with stand-ins: their tensors are planned from the graph and they request no scratch (default false:
   * such a node throws micrort's error).
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
  /** Ops planned with a stand-in (only with `standIns`), with their node indices. */
  standIns: { op: string; nodes: number[] }[];
}

/**
 * Allocates `model` with micrort (every node's Prepare runs) and returns the planned head and the scratch
 * requests per node. Throws micrort's errors (UnsupportedOpError, KernelError, ...) when a node cannot be
 * prepared.
 */
export function planWithMicrort(model: ModelDef, options: MicrortPlanOptions = {}): MicrortPlan {
  const planner = typeof options.planner === 'object' ? options.planner : createPlanner(options.planner ?? 'greedy');
  const forced = new Set<string>();
  const attempt = (arena: number) => {
    const resolver = new RecordingResolver(options.standIns ?? false, forced);
    (options.registerKernels ?? registerDefaultKernels)(resolver);
    const interp = new MicroInterpreter(model, resolver, { planner, arena });
    interp.allocateTensors();
    return { interp, records: resolver.records, standIns: resolver.standIns };
  };
  const allocate = (): ReturnType<typeof attempt> => {
    try {
      return attempt(0);
    } catch (e) {
      if (!(e instanceof ArenaTooSmallError) || e.requiredArenaBytes === undefined) throw e;
      return attempt(e.requiredArenaBytes);
    }
  };
  let run: ReturnType<typeof attempt> | undefined;
  while (!run) {
    try {
      run = allocate();
    } catch (e) {
      // A kernel that accepted the node but whose Prepare rejects it: plan that op with a stand-in too.
      if (!options.standIns || !(e instanceof KernelError) || forced.has(e.op)) throw e;
      forced.add(e.op);
    }
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
    standIns: [...run.standIns].map(([op, nodes]) => ({ op, nodes })),
  };
}
