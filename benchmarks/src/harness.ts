/**
 * Benchmarks one model in this process: every runtime gets the same input bytes and runs once (outputs
 * kept for the comparison); then the runtimes that ran are timed **interleaved** (one batch of each in
 * turn, {@link timeInterleaved}), or one after another with `interleave: false`. A runtime that cannot be
 * set up, refuses the model or fails is reported with its typed error and the others go on.
 */
import { compareOutputs, type Agreement } from './compare.js';
import { seededInputs } from './inputs.js';
import type { BenchModel } from './models.js';
import { RuntimeUnavailableError, errorLine, type RuntimeAdapter, type Runner, type TensorInfo } from './runtime.js';
import { DEFAULT_TIMING, timeInterleaved, timeRuns, type Timing, type TimingOptions } from './timing.js';

/** One runtime on one model. */
export interface RuntimeResult {
  runtime: string;
  description: string;
  /** `ok`: timed; `refused`: could not load or run the model; `unavailable`: the runtime itself is missing. */
  status: 'ok' | 'refused' | 'unavailable';
  /** The typed error (`ErrorName: message`) when not ok. */
  error?: string;
  loadMs?: number;
  timing?: Timing;
  inputs?: TensorInfo[];
  outputs?: TensorInfo[];
  /** Agreement with the reference runtime's outputs (absent for the reference itself). */
  agreement?: Agreement;
  /** micrort with a kernel package: the share (0-1) of the model's multiply-accumulates that package served. */
  macShare?: number | null;
  /** The first run's output bytes, base64 (only with `keepOutputs`: the parent compares runtimes of other processes). */
  outputsB64?: string[];
  /** Rounds whose medians `timing` combines (absent: one). */
  rounds?: number;
}

/** One model across the runtimes. */
export interface ModelResult {
  model: string;
  kind: string;
  description: string;
  inputSource: string;
  /** The runtime whose outputs the others are compared with: the first that ran (micrort reference comes first). */
  reference: string | null;
  runtimes: RuntimeResult[];
}

/** Options of {@link benchModel}. */
export interface BenchOptions {
  timing?: Partial<TimingOptions>;
  /** Called with each runtime's result as soon as it is known. */
  onResult?: (r: RuntimeResult) => void;
  /** Called before each runtime starts. */
  onStart?: (runtime: string) => void;
  /** Called once the model is loaded (before any runtime). */
  onLoaded?: (meta: { inputSource: string; bytes: number }) => void;
  /** Put the first run's outputs in each result (base64). */
  keepOutputs?: boolean;
  /**
   * Time the runtimes interleaved, a batch of each in turn (default true), so that their medians cover
   * the same stretch of a shared machine's load; false times each in turn, right after its first run.
   */
  interleave?: boolean;
}

interface Ran {
  result: RuntimeResult;
  outputs: Uint8Array[] | null;
}

function sameSizes(inputs: readonly TensorInfo[], bytes: readonly Uint8Array[]): string | null {
  if (inputs.length !== bytes.length) return `the model has ${inputs.length} inputs here, ${bytes.length} input files`;
  for (let i = 0; i < inputs.length; i++)
    if (inputs[i]!.bytes !== bytes[i]!.byteLength)
      return `input ${i} (${inputs[i]!.dtype}[${inputs[i]!.shape.join(',')}]) takes ${inputs[i]!.bytes} bytes, the input is ${bytes[i]!.byteLength}`;
  return null;
}

/** Benchmarks `model` on each runtime: the first runs in turn, then the timing (interleaved by default). */
export async function benchModel(model: BenchModel, runtimes: readonly RuntimeAdapter[], options: BenchOptions = {}): Promise<ModelResult> {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const interleave = options.interleave ?? true;
  const loaded = model.load();
  options.onLoaded?.({ inputSource: loaded.inputSource, bytes: loaded.bytes.byteLength });
  let inputs = loaded.inputs;
  const ran: Ran[] = [];
  /** Runners that ran once and wait for the interleaved timing (disposed after it). */
  const live: { ran: Ran; runner: Runner }[] = [];
  const dispose = (runner: Runner | null) => {
    try {
      runner?.dispose();
    } catch {
      /* teardown errors do not change the result */
    }
  };
  for (const rt of runtimes) {
    options.onStart?.(rt.id);
    const result: RuntimeResult = { runtime: rt.id, description: rt.description, status: 'ok' };
    let runner: Runner | null = null;
    let outputs: Uint8Array[] | null;
    try {
      const t0 = performance.now();
      runner = await rt.load(loaded.bytes, model.name);
      result.loadMs = performance.now() - t0;
      if (runner.macShare !== undefined) result.macShare = runner.macShare;
      result.inputs = [...runner.inputs];
      result.outputs = [...runner.outputs];
      inputs ??= seededInputs(runner.inputs);
      const bad = sameSizes(runner.inputs, inputs);
      if (bad) throw new Error(bad);
      inputs.forEach((b, i) => runner!.setInput(i, b));
      await runner.run();
      outputs = await runner.readOutputs();
      if (options.keepOutputs) result.outputsB64 = outputs.map((o) => base64(o));
      const r = runner;
      if (!interleave) result.timing = await timeRuns(() => r.run(), timing);
    } catch (e) {
      result.status = e instanceof RuntimeUnavailableError ? 'unavailable' : 'refused';
      result.error = e instanceof RuntimeUnavailableError ? e.reason : errorLine(e);
      outputs = null;
    }
    // The first runtime that ran is the reference; each later one is compared with it right away.
    const ref = ran.find((r) => r.outputs);
    if (ref && outputs) result.agreement = compareOutputs(ref.result.outputs!, ref.outputs!, result.outputs!, outputs);
    const entry = { result, outputs };
    ran.push(entry);
    if (interleave && result.status === 'ok' && runner) live.push({ ran: entry, runner });
    else {
      dispose(runner);
      // reported before the next runtime starts (a peer may crash the process at teardown)
      options.onResult?.(result);
    }
  }
  if (live.length) {
    try {
      const timings = await timeInterleaved(
        live.map(
          ({ runner }) =>
            () =>
              runner.run(),
        ),
        timing,
      );
      live.forEach(({ ran: r }, i) => (r.result.timing = timings[i]));
    } catch (e) {
      for (const { ran: r } of live) {
        r.result.status = 'refused';
        r.result.error = `failed while timed interleaved with ${live.length - 1} other runtime(s): ${errorLine(e)}`;
      }
    }
    // every result is out before any teardown
    for (const { ran: r } of live) options.onResult?.(r.result);
    for (const { runner } of live) dispose(runner);
  }
  const ref = ran.find((r) => r.outputs);
  return {
    model: model.name,
    kind: model.kind,
    description: model.description,
    inputSource: loaded.inputSource,
    reference: ref?.result.runtime ?? null,
    runtimes: ran.map((r) => r.result),
  };
}

/** Base64 of bytes (Node and browsers). */
export function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Bytes of base64. */
export function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
