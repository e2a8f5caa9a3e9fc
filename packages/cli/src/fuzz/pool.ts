import { Worker } from 'node:worker_threads';
import type { CaseOutcome } from './outcome.js';
import type { WorkerRequest, WorkerResponse } from './worker.js';

/** Where the worker code comes from: a module file, or (for tests) a CommonJS script run with `eval`. */
export interface WorkerSource {
  url?: URL;
  evalCode?: string;
}

/** Options of {@link WorkerPool}. */
export interface PoolOptions {
  source: WorkerSource;
  /** Parallel workers (default 1). */
  workers?: number;
  /** V8 old-generation limit per worker in MiB (default 1024): a case that needs more kills the worker. */
  heapLimitMb?: number;
}

/** What one job came back with. */
export interface JobResult {
  outcome: CaseOutcome;
  heapUsed?: number;
  arrayBuffers?: number;
  rss?: number;
  afterGc?: boolean;
  /** True when the worker was replaced after this job (hang or crash). */
  restarted?: boolean;
}

interface Pending {
  req: WorkerRequest;
  timeoutMs: number;
  resolve: (r: JobResult) => void;
}

/** One worker and the job it runs. */
class Slot {
  private worker: Worker | null = null;
  private job: Pending | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private started = 0;

  constructor(private readonly options: PoolOptions) {}

  get busy(): boolean {
    return this.job !== null;
  }

  run(job: Pending): void {
    this.job = job;
    const w = this.ensureWorker();
    this.started = performance.now();
    this.timer = setTimeout(
      () =>
        this.fail({
          result: 'failure',
          failure: 'hang',
          stage: 'worker',
          detail: `no answer within ${job.timeoutMs} ms; worker terminated`,
        }),
      job.timeoutMs,
    );
    w.postMessage(job.req);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const { source } = this.options;
    const resourceLimits = { maxOldGenerationSizeMb: this.options.heapLimitMb ?? 1024 };
    const w =
      source.evalCode !== undefined
        ? new Worker(source.evalCode, { eval: true, resourceLimits })
        : new Worker(source.url!, { resourceLimits });
    // Events of a worker that was already replaced (terminated after a hang) are ignored.
    w.on('message', (res: WorkerResponse) => {
      if (this.worker !== w || !this.job || res.id !== this.job.req.id) return;
      this.finish({ outcome: res.outcome, heapUsed: res.heapUsed, arrayBuffers: res.arrayBuffers, rss: res.rss, afterGc: res.afterGc });
    });
    w.on('error', (e: Error) => {
      if (this.worker !== w) return;
      const code = (e as { code?: string }).code;
      this.fail({
        result: 'failure',
        failure: 'crash',
        stage: 'worker',
        errorName: e.name,
        message: e.message,
        detail: code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the worker ran out of heap memory' : `worker error ${code ?? ''}`.trim(),
      });
    });
    w.on('exit', (code) => {
      if (this.worker !== w) return;
      if (this.job) this.fail({ result: 'failure', failure: 'crash', stage: 'worker', detail: `the worker exited with code ${code}` });
      else this.worker = null;
    });
    this.worker = w;
    return w;
  }

  private finish(result: JobResult): void {
    const job = this.job;
    if (!job) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.job = null;
    result.outcome.ms ??= performance.now() - this.started;
    job.resolve(result);
  }

  /** Ends the job with a failure and replaces the worker. */
  private fail(outcome: CaseOutcome): void {
    if (!this.job) return;
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    this.finish({ outcome, restarted: true });
  }
}

/**
 * Runs fuzz cases in worker threads, each under a time bound: a case that does not answer in time is a
 * `hang` (its worker is terminated and replaced); a worker that dies (e.g. ERR_WORKER_OUT_OF_MEMORY
 * under the heap limit) is a `crash`. Jobs beyond the number of workers wait in a queue.
 */
export class WorkerPool {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly options: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers ?? 1) }, () => new Slot(options));
  }

  get size(): number {
    return this.slots.length;
  }

  /** Runs one case; never rejects. */
  run(bytes: Uint8Array, execOptions: WorkerRequest['options'], timeoutMs: number, gc = false): Promise<JobResult> {
    return new Promise((resolve) => {
      const req: WorkerRequest = { id: this.nextId++, bytes, options: execOptions, gc };
      this.queue.push({
        req,
        timeoutMs,
        resolve: (r) => {
          resolve(r);
          this.dispatch();
        },
      });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.close()));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.busy) slot.run(this.queue.shift()!);
    }
  }
}
