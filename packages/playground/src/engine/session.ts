/**
 * Everything the page asks of a model, in one object that lives in the Web Worker (and in Node, for
 * the tests): open, check, lay out the graph, plan the memory, run with one kernel package, compare
 * every package. Results are plain data (structured-clone safe).
 */
import {
  MicroInterpreter,
  loadModel,
  tensorTypeName,
  type InterpreterOptions,
  type MicroProfiler,
  type ModelDef,
  type Tensor,
} from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { packageShares, readAnnotations, servedNodesOfInterpreter, type PackageShare } from '@micrort/app-kit';
import { checkModelNodes, errorOf, type CheckReport, type PageError } from './check.js';
import { layoutGraph, type GraphLayout } from './graph.js';
import { fillSeeded, writeImage, type ImagePixels, type PixelRange } from './inputs.js';
import { KERNEL_CHOICES, KernelUnavailableError, kernelChoice, type KernelId, type KernelRuntime } from './kernels.js';
import { diffValues, type TensorDiff, type TensorValue } from './outputs.js';
import { analyzePlans, type PlanAnalysis, type PlanProgress } from './plans.js';
import { createProfiler, msByNode } from './profiler.js';
import { summarize, type ModelSummary } from './summary.js';

/** What a run is fed. */
export type InputSpec =
  | { kind: 'seeded'; seed: number }
  /** Pixels for input 0 (already resized to it); other inputs seeded with `seed`. `metadata`: the model's normalization. */
  | { kind: 'image'; pixels: ImagePixels; range: PixelRange; seed: number }
  /** Raw bytes per input. */
  | { kind: 'bytes'; inputs: Uint8Array[] };

/** Options of a run. */
export interface RunOptions {
  kernel: KernelId;
  planner: string;
  input: InputSpec;
  /** Time spent invoking for the latency profile after the first invoke, ms (default 300; at most 500 invokes). */
  profileMs?: number;
}

/** Per-node figures of a run. */
export interface NodeProfile {
  index: number;
  op: string;
  provider: string;
  kernel: string;
  /** Mean milliseconds per invoke (null: not recorded, e.g. the profiler was full). */
  ms: number | null;
  /** `simd-emulated`: estimated Cortex-M cycles of one invoke (null: node not served by ops-simd). */
  cyclesM4?: number | null;
  cyclesM7?: number | null;
  /** The CMSIS-NN function that served the node (emulated ops-simd). */
  cmsisKernel?: string;
}

/** What a run returns. */
export interface RunResult {
  kernel: KernelId;
  /** e.g. `gpu.js webgl2`. */
  detail?: string;
  planner: string;
  arena: { arenaBytes: number; headBytes: number; tailBytes: number };
  inputs: TensorValue[];
  outputs: TensorValue[];
  /** First invoke, and the mean of the profiled invokes, ms. */
  firstInvokeMs: number;
  meanInvokeMs: number;
  invokes: number;
  nodes: NodeProfile[];
  /** Invoke time not attributed to a node (the interpreter's loop), ms per invoke. */
  untimedMs: number;
  /** `simd-emulated`: cycles of one invoke over the nodes ops-simd served, per core. */
  cycles?: { m4: number; m7: number; estimatedNodes: number };
  /** The GPU delegate's partitions (node lists). */
  partitions?: number[][];
  /** Each composed package's share of the nodes and MACs, and what fell back from the package in front. */
  served: PackageShare[];
}

/** One kernel package in a comparison. */
export interface CompareRow {
  kernel: KernelId;
  label: string;
  detail?: string;
  /** Why it did not run (unavailable here, or the model is refused). */
  error?: PageError;
  /** Each composed package's share of the nodes and MACs (who really ran the model). */
  served?: PackageShare[];
  allocateMs?: number;
  firstInvokeMs?: number;
  /** Mean of the invokes after the first. */
  meanInvokeMs?: number;
  invokes?: number;
  arenaBytes?: number;
  /** Per output, against the first package that ran (ops-reference). */
  diffs?: TensorDiff[];
}

/** Most invokes a latency profile makes. */
const MAX_PROFILE_INVOKES = 500;

/** Progress of a long step. */
export type Progress = (label: string, done: number, total: number) => void;

function tensorValue(t: Tensor): TensorValue {
  return {
    name: t.name,
    type: tensorTypeName(t.type),
    shape: Array.from(t.dims),
    ...(t.quantization && t.quantization.scale.length ? { scale: t.params.scale, zeroPoint: t.params.zeroPoint } : {}),
    bytes: t.bytes.slice(),
  };
}

/** The playground's model session. */
export class PlaygroundSession {
  private model: ModelDef | null = null;
  private summaryCache: ModelSummary | null = null;
  private fileBytes = 0;

  /** Opens a model; throws the loader's typed error (ModelError, …) for a bad file, keeping the previous model. */
  open(bytes: Uint8Array, name: string): ModelSummary {
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const model = loadModel(copy);
    const summary = summarize(model, name, bytes.byteLength, readAnnotations(copy, model));
    this.model = model;
    this.summaryCache = summary;
    this.fileBytes = bytes.byteLength;
    return summary;
  }

  get summary(): ModelSummary {
    if (!this.summaryCache) throw new Error('no model is open');
    return this.summaryCache;
  }

  private get current(): ModelDef {
    if (!this.model) throw new Error('no model is open');
    return this.model;
  }

  /** The check report for a kernel package. */
  async check(kernel: KernelId): Promise<CheckReport> {
    const rt = await kernelChoice(kernel).create();
    try {
      return checkModelNodes(this.current, rt.resolver, rt.interpreterOptions, rt.delegateDecisions, rt.packages);
    } finally {
      rt.dispose();
    }
  }

  /** The graph, laid out. */
  graph(): GraphLayout {
    return layoutGraph(this.summary);
  }

  /** The memory picture with every planner. */
  async plans(kernel: KernelId, onProgress?: PlanProgress): Promise<PlanAnalysis> {
    const rt = await kernelChoice(kernel).create();
    try {
      return analyzePlans(this.current, rt.resolver, rt.interpreterOptions, onProgress ? { onProgress } : {});
    } finally {
      rt.dispose();
    }
  }

  private interpreter(rt: KernelRuntime, planner: string, profiler: MicroProfiler | null): MicroInterpreter {
    const options = {
      ...rt.interpreterOptions,
      ...(profiler ? { profiler } : {}),
      planner: createPlanner(planner),
      arena: 'auto',
    } as InterpreterOptions;
    return new MicroInterpreter(this.current, rt.resolver, options).allocateTensors();
  }

  /** Writes the inputs `spec` asks for into the interpreter's input tensors. */
  private feed(interp: MicroInterpreter, spec: InputSpec): void {
    const inputs = Array.from({ length: interp.inputsSize }, (_, i) => interp.input(i));
    if (spec.kind === 'bytes') {
      spec.inputs.forEach((b, i) => interp.setInput(i, b));
      return;
    }
    fillSeeded(inputs, spec.seed);
    if (spec.kind === 'image') writeImage(inputs[0]!, spec.pixels, spec.range, this.summary.imageInput?.normalization);
  }

  /** Runs the model once for its outputs, then again for the latency profile (and cycle estimate). */
  async run(options: RunOptions, onProgress?: Progress): Promise<RunResult> {
    const rt = await kernelChoice(options.kernel).create();
    const profiler = createProfiler(
      this.current.subgraphs.reduce((n, sg) => n + sg.operators.length, 0),
      MAX_PROFILE_INVOKES,
    );
    let interp: MicroInterpreter | null = null;
    try {
      onProgress?.('allocating', 0, 3);
      interp = this.interpreter(rt, options.planner, profiler);
      this.feed(interp, options.input);
      const inputs = Array.from({ length: interp.inputsSize }, (_, i) => tensorValue(interp!.input(i)));
      onProgress?.('invoking', 1, 3);
      let t0 = performance.now();
      interp.invoke();
      const firstInvokeMs = performance.now() - t0;
      const outputs = Array.from({ length: interp.outputsSize }, (_, j) => tensorValue(interp!.output(j)));
      // The profile: more invokes on the same inputs (written back each time: the planner may reuse
      // an input's memory once it is consumed) until the time budget is spent, their per-node times
      // averaged (browsers coarsen timers to 0.1 ms: many invokes make small ops measurable).
      profiler.clear();
      rt.counters?.reset();
      const budget = options.profileMs ?? 300;
      const maxInvokes = Math.max(1, Math.min(MAX_PROFILE_INVOKES, Math.floor(profiler.maxEvents / Math.max(1, interp.nodes().length))));
      onProgress?.('profiling', 2, 3);
      let total = 0;
      let invokes = 0;
      while (invokes < maxInvokes && (invokes === 0 || total < budget)) {
        inputs.forEach((v, i) => interp!.input(i).bytes.set(v.bytes));
        t0 = performance.now();
        interp.invoke();
        total += performance.now() - t0;
        invokes++;
      }
      const totals = msByNode(profiler);
      const plan = interp.nodes();
      const nodes: NodeProfile[] = plan.map((n) => ({
        index: n.index,
        op: n.delegate ? `${n.delegate.name} (${n.delegate.nodes.length} nodes)` : n.op,
        provider: n.provider,
        kernel: n.kernel,
        ms: totals.has(n.index) ? totals.get(n.index)! / invokes : null,
      }));
      const timed = nodes.reduce((s, n) => s + (n.ms ?? 0), 0);
      const result: RunResult = {
        kernel: options.kernel,
        ...(rt.detail ? { detail: rt.detail } : {}),
        planner: options.planner,
        arena: (({ arenaBytes, headBytes, tailBytes }) => ({ arenaBytes, headBytes, tailBytes }))(interp.arenaUsage()),
        inputs,
        outputs,
        firstInvokeMs,
        meanInvokeMs: total / invokes,
        invokes,
        nodes,
        untimedMs: Math.max(0, total / invokes - timed),
        served: packageShares(rt.packages, servedNodesOfInterpreter(interp, this.current)),
      };
      if (rt.counters) {
        const { estimateCycles } = await import('@micrort/ops-simd');
        const m4 = estimateCycles(rt.counters, { core: 'm4' });
        const m7 = estimateCycles(rt.counters, { core: 'm7' });
        const byNode = (e: typeof m4) => new Map(e.nodes.filter((c) => c.invocations > 0).map((c) => [c.nodeIndex, c]));
        const n4 = byNode(m4);
        const n7 = byNode(m7);
        for (const n of nodes) {
          const c4 = n4.get(n.index);
          n.cyclesM4 = c4 ? c4.cyclesPerInvoke : null;
          n.cyclesM7 = n7.get(n.index)?.cyclesPerInvoke ?? null;
          if (c4) n.cmsisKernel = c4.kernel;
        }
        result.cycles = { m4: m4.cyclesPerInvoke, m7: m7.cyclesPerInvoke, estimatedNodes: n4.size };
      }
      const parts = interp.partitions();
      if (parts.length) result.partitions = parts.map((p) => p.nodes);
      onProgress?.('done', 3, 3);
      return result;
    } finally {
      interp?.dispose();
      rt.dispose();
    }
  }

  /**
   * Runs every kernel package on the same inputs: allocation time, first and median invoke, and the
   * largest difference of each output from the first package that ran (ops-reference).
   */
  async compare(
    input: InputSpec,
    options: { kernels?: KernelId[]; profileMs?: number } = {},
    onProgress?: Progress,
  ): Promise<CompareRow[]> {
    const ids = options.kernels ?? KERNEL_CHOICES.map((k) => k.id);
    const rows: CompareRow[] = [];
    let reference: TensorValue[] | null = null;
    let fed: Uint8Array[] | null = null;
    for (const [i, id] of ids.entries()) {
      const pkg = kernelChoice(id);
      onProgress?.(`running ${pkg.label}`, i, ids.length);
      const row: CompareRow = { kernel: id, label: pkg.label };
      rows.push(row);
      let rt: KernelRuntime | null = null;
      let interp: MicroInterpreter | null = null;
      try {
        rt = await pkg.create();
        if (rt.detail) row.detail = rt.detail;
        let t0 = performance.now();
        interp = this.interpreter(rt, 'greedy', null);
        row.allocateMs = performance.now() - t0;
        row.arenaBytes = interp.arenaUsage().arenaBytes;
        row.served = packageShares(rt.packages, servedNodesOfInterpreter(interp, this.current));
        if (fed) fed.forEach((b, k) => interp!.input(k).bytes.set(b));
        else {
          this.feed(interp, input);
          fed = Array.from({ length: interp.inputsSize }, (_, k) => interp!.input(k).bytes.slice());
        }
        t0 = performance.now();
        interp.invoke();
        row.firstInvokeMs = performance.now() - t0;
        const outputs = Array.from({ length: interp.outputsSize }, (_, j) => tensorValue(interp!.output(j)));
        // Timed as a block (browsers coarsen timers to 0.1 ms) until the budget is spent, 3 to 500 invokes.
        const budget = options.profileMs ?? 300;
        let n = 0;
        let total = 0;
        while (n < 500 && (n < 3 || total < budget)) {
          fed!.forEach((b, m) => interp!.input(m).bytes.set(b));
          t0 = performance.now();
          interp.invoke();
          total += performance.now() - t0;
          n++;
        }
        row.meanInvokeMs = total / n;
        row.invokes = n;
        if (!reference) reference = outputs;
        row.diffs = outputs.map((o, j) => diffValues(o, reference![j]!));
      } catch (e) {
        row.error = errorOf(e);
        if (e instanceof KernelUnavailableError) row.error = { name: 'unavailable', message: e.reason };
      } finally {
        interp?.dispose();
        rt?.dispose();
      }
    }
    onProgress?.('done', ids.length, ids.length);
    return rows;
  }
}
