import { executeCase, type ExecuteOptions } from './execute.js';
import { sampleMemory } from './heap.js';
import type { CorpusEntry } from './corpus.js';
import { generateCase, type FuzzCase } from './generate.js';
import { outcomeKey, type CaseOutcome, type FailureKind } from './outcome.js';
import type { JobResult, WorkerPool } from './pool.js';

/** Runs cases: in this thread (tests, replay) or in a worker pool (time bounds, heap limits). */
export interface Executor {
  /** Cases run at once. */
  readonly concurrency: number;
  /** Whether hangs are caught (a worker with a time bound) rather than blocking the caller. */
  readonly bounded: boolean;
  run(c: FuzzCase, options: ExecuteOptions, timeoutMs: number, gc: boolean): Promise<JobResult>;
  close(): Promise<void>;
}

/** Runs each case synchronously in the calling thread (no time bound). */
export class InProcessExecutor implements Executor {
  readonly concurrency = 1;
  readonly bounded = false;
  async run(c: FuzzCase, options: ExecuteOptions, _timeoutMs: number, gc: boolean): Promise<JobResult> {
    const outcome = executeCase(c.bytes, options);
    return { outcome, ...sampleMemory(gc) };
  }
  async close(): Promise<void> {}
}

/** Runs cases in a {@link WorkerPool}. */
export class PoolExecutor implements Executor {
  readonly bounded = true;
  constructor(private readonly pool: WorkerPool) {}
  get concurrency(): number {
    return this.pool.size;
  }
  run(c: FuzzCase, options: ExecuteOptions, timeoutMs: number, gc: boolean): Promise<JobResult> {
    return this.pool.run(c.bytes, options, timeoutMs, gc);
  }
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** A failing case, as reported and saved. */
export interface FailureRecord {
  index: number;
  model: string;
  kind: FailureKind;
  stage: string;
  errorName?: string;
  message?: string;
  detail?: string;
  mutations: string[];
  /** Same kind and message with the numbers blanked: failures with one signature are usually one bug. */
  signature: string;
  /** Reproducer file (.tflite; a .json with the details sits beside it), when saved. */
  file?: string;
}

/** Where reproducers go (the CLI passes a Node implementation; tests may keep them in memory). */
export interface ReproducerSink {
  save(c: FuzzCase, outcome: CaseOutcome, options: ExecuteOptions): string;
}

/** Options of {@link runCampaign}. */
export interface CampaignOptions {
  seed: number;
  /** Stop starting cases after this many seconds (wall clock). */
  seconds?: number;
  /** Stop after this many cases. At least one of seconds and cases must be given. */
  cases?: number;
  corpus: readonly CorpusEntry[];
  executor: Executor;
  ops?: string;
  planner?: string;
  sink?: ReproducerSink | null;
  /** Reproducers saved per failure signature (default 3). */
  reproducersPerSignature?: number;
  /** Ask the worker for a GC'd heap figure every this many cases (default 250). */
  gcEvery?: number;
  /** Retained-heap growth over the first GC'd figure that counts as a failure (default 64 MiB). */
  heapGrowthLimitBytes?: number;
  /** Called about every 250 ms while running. */
  onProgress?: (p: CampaignProgress) => void;
}

/** A progress snapshot. */
export interface CampaignProgress {
  cases: number;
  elapsedSeconds: number;
  ok: number;
  rejected: number;
  failures: number;
}

/** What a campaign found. */
export interface CampaignSummary {
  seed: number;
  cases: number;
  elapsedSeconds: number;
  casesPerSecond: number;
  /** Outcome counts: `ok`, each typed error class, `FAILURE:<kind>`. */
  outcomes: Record<string, number>;
  /** Outcome counts per stage the case ended in (`ModelError@load`, ...). */
  outcomesByStage: Record<string, number>;
  /** Cases and ok runs per seed model. */
  models: Record<string, { cases: number; ok: number }>;
  strategies: Record<string, number>;
  failures: FailureRecord[];
  /** Failure signatures with their counts. */
  signatures: Record<string, number>;
  /** The first message seen for each outcome and stage (`KernelError@allocate` → message). */
  examples: Record<string, string>;
  memory: {
    heapFirstGcBytes: number | null;
    heapLastGcBytes: number | null;
    heapMaxBytes: number;
    rssMaxBytes: number;
    arrayBuffersMaxBytes: number;
    workerRestarts: number;
  };
  /** Whether hangs were caught by a time bound (worker pool) or could not be (in-process). */
  bounded: boolean;
}

/** Per-case time bound: generous for the seed's size (a slow model is not a hang). */
export function caseTimeoutMs(c: FuzzCase): number {
  return 15_000 + Math.round(c.bytes.byteLength / 1024) * 40;
}

function signatureOf(o: CaseOutcome): string {
  const text = `${o.errorName ?? ''}: ${o.message ?? ''} ${o.detail ?? ''}`.replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/g, 'N');
  return `${o.failure}@${o.stage} ${text.trim()}`.slice(0, 240);
}

/**
 * Runs cases 0, 1, 2, ... of `seed` until the case count or the time is reached, counting outcomes and
 * recording every failure (saving reproducers through `sink`). The same seed always generates the same
 * cases; with a time budget, how many of them run depends on the machine.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignSummary> {
  if (options.seconds === undefined && options.cases === undefined) throw new RangeError('runCampaign: give seconds or cases');
  const { corpus, executor, seed } = options;
  const gcEvery = options.gcEvery ?? 250;
  const growthLimit = options.heapGrowthLimitBytes ?? 64 * 1024 * 1024;
  const perSignature = options.reproducersPerSignature ?? 3;
  const summary: CampaignSummary = {
    seed,
    cases: 0,
    elapsedSeconds: 0,
    casesPerSecond: 0,
    outcomes: {},
    outcomesByStage: {},
    models: {},
    strategies: {},
    failures: [],
    signatures: {},
    examples: {},
    memory: { heapFirstGcBytes: null, heapLastGcBytes: null, heapMaxBytes: 0, rssMaxBytes: 0, arrayBuffersMaxBytes: 0, workerRestarts: 0 },
    bounded: executor.bounded,
  };
  const counts = { ok: 0, rejected: 0, failures: 0 };
  const start = performance.now();
  const elapsed = () => (performance.now() - start) / 1000;
  let lastProgress = 0;
  let next = 0;
  let memoryFailureReported = false;

  const record = (c: FuzzCase, execOptions: ExecuteOptions, r: JobResult): void => {
    const o = r.outcome;
    summary.cases++;
    const key = outcomeKey(o);
    summary.outcomes[key] = (summary.outcomes[key] ?? 0) + 1;
    const stageKey = `${key}@${o.stage}`;
    summary.outcomesByStage[stageKey] = (summary.outcomesByStage[stageKey] ?? 0) + 1;
    if (o.result !== 'ok' && !(stageKey in summary.examples))
      summary.examples[stageKey] = `${o.message ?? ''}${o.detail ? ` (${o.detail})` : ''} [case ${c.index}]`;
    const m = (summary.models[c.model] ??= { cases: 0, ok: 0 });
    m.cases++;
    if (o.result === 'ok') m.ok++;
    summary.strategies[c.strategy] = (summary.strategies[c.strategy] ?? 0) + 1;
    counts[o.result === 'ok' ? 'ok' : o.result === 'rejected' ? 'rejected' : 'failures']++;
    if (r.restarted) {
      summary.memory.workerRestarts++;
      summary.memory.heapFirstGcBytes = null; // a fresh worker: start the growth baseline again
    }
    if (r.heapUsed !== undefined) summary.memory.heapMaxBytes = Math.max(summary.memory.heapMaxBytes, r.heapUsed);
    if (r.rss !== undefined) summary.memory.rssMaxBytes = Math.max(summary.memory.rssMaxBytes, r.rss);
    if (r.arrayBuffers !== undefined) summary.memory.arrayBuffersMaxBytes = Math.max(summary.memory.arrayBuffersMaxBytes, r.arrayBuffers);
    if (r.afterGc && r.heapUsed !== undefined) {
      summary.memory.heapFirstGcBytes ??= r.heapUsed;
      summary.memory.heapLastGcBytes = r.heapUsed;
      if (!memoryFailureReported && r.heapUsed - summary.memory.heapFirstGcBytes > growthLimit) {
        memoryFailureReported = true;
        addFailure(c, execOptions, {
          result: 'failure',
          failure: 'memory-growth',
          stage: 'worker',
          detail: `retained heap grew from ${summary.memory.heapFirstGcBytes} to ${r.heapUsed} bytes (limit ${growthLimit}) by case ${c.index}`,
        });
      }
    }
    if (o.result === 'failure') addFailure(c, execOptions, o);
  };

  const addFailure = (c: FuzzCase, execOptions: ExecuteOptions, o: CaseOutcome): void => {
    const signature = signatureOf(o);
    const seen = summary.signatures[signature] ?? 0;
    summary.signatures[signature] = seen + 1;
    const rec: FailureRecord = {
      index: c.index,
      model: c.model,
      kind: o.failure!,
      stage: o.stage,
      mutations: c.mutations,
      signature,
      ...(o.errorName ? { errorName: o.errorName } : {}),
      ...(o.message ? { message: o.message } : {}),
      ...(o.detail ? { detail: o.detail } : {}),
    };
    if (options.sink && seen < perSignature) rec.file = options.sink.save(c, o, execOptions);
    summary.failures.push(rec);
  };

  const more = () =>
    (options.cases === undefined || next < options.cases) && (options.seconds === undefined || elapsed() < options.seconds);
  const inFlight = new Set<Promise<void>>();
  try {
    while (more() || inFlight.size > 0) {
      while (more() && inFlight.size < executor.concurrency) {
        const c = generateCase(corpus, seed, next++);
        const execOptions: ExecuteOptions = {
          ops: options.ops ?? 'reference',
          planner: options.planner ?? 'greedy',
          maxArenaBytes: c.maxArenaBytes,
          inputSeed: c.inputSeed,
          checks: c.checks,
          inPlace: c.inPlace,
        };
        const gc = (c.index + 1) % gcEvery === 0;
        const p: Promise<void> = executor.run(c, execOptions, caseTimeoutMs(c), gc).then((r) => {
          record(c, execOptions, r);
          inFlight.delete(p);
        });
        inFlight.add(p);
      }
      if (inFlight.size > 0) await Promise.race(inFlight);
      if (options.onProgress && performance.now() - lastProgress > 250) {
        lastProgress = performance.now();
        options.onProgress({ cases: summary.cases, elapsedSeconds: elapsed(), ...counts });
      }
    }
  } finally {
    await executor.close();
  }
  summary.elapsedSeconds = elapsed();
  summary.casesPerSecond = summary.cases / Math.max(1e-9, summary.elapsedSeconds);
  return summary;
}
