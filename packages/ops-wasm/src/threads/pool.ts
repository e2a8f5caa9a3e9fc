/**
 * WebAssembly threads for ops-wasm: `threads - 1` workers (Node worker_threads, browser Web Workers)
 * that instantiate the threaded build of the kernels module over each interpreter's shared memory, and
 * run chunks of the jobs the main thread publishes in a shared control block (control.ts). The main
 * thread takes chunks too, then waits for the last one: Atomics.wait in Node and in workers, spinning
 * on a browser's main thread (which may not block). Nothing is allocated per job, and a job's outputs
 * are the same bytes whatever thread computed each chunk (chunks are disjoint output ranges).
 *
 * A worker that dies is a typed error, never a hang: an exception inside its chunk is caught there and
 * reported through the control block (WasmThreadError at the end of the job); a worker whose thread
 * ended (an `exit` or `error` event) fails every later job at once; and a chunk that a dead worker had
 * claimed is noticed when the job outlives `stallTimeoutMs` (the main thread cannot see the `exit` event
 * while it waits synchronously).
 */
import { MicrortError } from '@micrort/core';
import { C, Fn, NO_CHUNK, TAG_MASK } from './control.js';
import { workerSource } from './worker-source.js';

/** A job failed in a worker, or a worker died. */
export class WasmThreadError extends MicrortError {
  constructor(
    message: string,
    /** The worker (1-based; the main thread is 0), or -1 when unknown. */
    readonly worker: number,
  ) {
    super(message);
    this.name = 'WasmThreadError';
  }
}

/** The kernels' exports a job may call. */
export interface JobExports {
  qs8_conv_run(params: number, input: number, output: number, e0: number, e1: number, tid: number): void;
  qs8_dwconv_run(params: number, input: number, output: number, e0: number, e1: number, tid: number): void;
  qs8_add_range(params: number, input1: number, input2: number, output: number, e0: number, e1: number): void;
  f32_conv_run?(params: number, input: number, output: number, e0: number, e1: number, tid: number): void;
  f32_dwconv_run?(params: number, input: number, output: number, e0: number, e1: number, tid: number): void;
  hybrid_epilogue?(params: number, output: number, q0: number, q1: number): void;
  f32_tconv_run?(params: number, input: number, output: number, e0: number, e1: number, tid: number): void;
  qs8_bmm_run(params: number, lhs: number, output: number, r0: number, r1: number, tid: number): void;
  qs16_bmm_run(params: number, lhs: number, output: number, r0: number, r1: number, tid: number): void;
  qs8_tconv_run(params: number, input: number, output: number, oh0: number, oh1: number, tid: number): void;
  qs16_tconv_run(params: number, input: number, output: number, oh0: number, oh1: number, tid: number): void;
  qs16_conv_run(params: number, input: number, output: number, q0: number, q1: number, tid: number): void;
  qs16_dwconv_run(params: number, input: number, output: number, q0: number, q1: number, tid: number): void;
}

/** What the pool needs from the platform: workers. */
interface WorkerLike {
  postMessage(message: unknown): void;
  terminate(): unknown;
}

/** Options of {@link WasmThreadPool}. */
export interface PoolOptions {
  /** Microseconds a worker spins for the next job before it sleeps (default 200). */
  spinUs?: number;
  /** A job that runs longer than this means a worker died holding a chunk (default 5000 ms). */
  stallTimeoutMs?: number;
}

const nodeWorkerThreads = (): { Worker: new (src: string, o: { eval: true }) => WorkerLike & NodeLikeEvents } | null => {
  const p = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: (id: string) => unknown } }).process;
  if (!p?.versions?.node || typeof p.getBuiltinModule !== 'function') return null;
  return p.getBuiltinModule('node:worker_threads') as { Worker: new (src: string, o: { eval: true }) => WorkerLike & NodeLikeEvents };
};

interface NodeLikeEvents {
  on(event: 'message' | 'error' | 'exit', f: (x: unknown) => void): void;
  unref(): void;
}

/** Whether this thread may block in Atomics.wait (Node's main thread and workers; not a browser's main thread). */
function canBlock(probe: Int32Array): boolean {
  try {
    Atomics.wait(probe, C.Words - 1, 1, 0); // the value is 0: returns 'not-equal' at once where allowed
    return true;
  } catch {
    return false;
  }
}

/** Whether shared WebAssembly memory (and so threads) is available: SharedArrayBuffer, and cross-origin isolation in browsers. */
export function threadsAvailable(): boolean {
  if (typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') return false;
  try {
    const m = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return typeof SharedArrayBuffer !== 'undefined' && m.buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** The number of threads `'auto'` picks: Node's available parallelism, a browser's hardwareConcurrency (1 without threads). */
export function defaultThreads(): number {
  if (!threadsAvailable()) return 1;
  const p = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: (id: string) => unknown } }).process;
  if (p?.versions?.node && typeof p.getBuiltinModule === 'function') {
    const os = p.getBuiltinModule('node:os') as { availableParallelism?: () => number; cpus: () => unknown[] };
    return Math.max(1, os.availableParallelism ? os.availableParallelism() : os.cpus().length);
  }
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  return Math.max(1, nav?.hardwareConcurrency ?? 1);
}

/**
 * The pool: `threads - 1` workers. Create it with {@link WasmThreadPool.start}; `attach` each shared
 * memory (one per interpreter) before running jobs on it.
 */
export class WasmThreadPool {
  /** The control block (Int32Array over a SharedArrayBuffer). */
  readonly control: Int32Array;
  /** Set once a worker died: every later job throws it. */
  failure: WasmThreadError | null = null;
  /** Workers that reported ready. */
  ready = 0;
  private readonly workers: WorkerLike[] = [];
  private nextInstance = 0;
  private readonly blocking: boolean;
  private readonly stallMs: number;
  private readonly finalizer: FinalizationRegistry<number> | null;
  private readyWaiters: (() => void)[] = [];

  private constructor(
    readonly threads: number,
    private readonly module: WebAssembly.Module,
    options: PoolOptions,
  ) {
    this.control = new Int32Array(new SharedArrayBuffer(C.Words * 4));
    this.control[C.Next] = NO_CHUNK; // tag 0, nothing to claim
    this.control[C.SpinUs] = options.spinUs ?? 200;
    this.stallMs = options.stallTimeoutMs ?? 5000;
    this.blocking = canBlock(this.control);
    this.finalizer =
      typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<number>((id) => this.post({ type: 'detach', id })) : null;
  }

  /** Starts `threads - 1` workers over `module` (the threaded build). */
  static start(threads: number, module: WebAssembly.Module, options: PoolOptions = {}): WasmThreadPool {
    const pool = new WasmThreadPool(threads, module, options);
    const source = workerSource();
    const node = nodeWorkerThreads();
    for (let w = 1; w < threads; w++) {
      let worker: WorkerLike;
      const died = (why: string) => {
        pool.failure ??= new WasmThreadError(`@micrort/ops-wasm worker ${w} died: ${why}`, w);
      };
      if (node) {
        const nw = new node.Worker(source, { eval: true });
        // referenced until it reports ready (so an awaited start keeps the process alive), then unreferenced:
        // the pool never keeps a process from ending
        nw.on('message', (m) => {
          if ((m as { type?: string })?.type === 'ready') nw.unref();
          pool.onMessage(m);
        });
        nw.on('error', (e) => died(`${(e as Error)?.message ?? e}`));
        nw.on('exit', (code) => died(`its thread exited (code ${String(code)})`));
        worker = nw;
      } else {
        const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
        const bw = new Worker(url);
        bw.onmessage = (e: MessageEvent) => pool.onMessage(e.data);
        bw.onerror = (e: ErrorEvent) => died(e.message);
        worker = bw;
      }
      worker.postMessage({ type: 'init', module, control: pool.control.buffer, index: w });
      pool.workers.push(worker);
    }
    return pool;
  }

  private onMessage(m: unknown): void {
    if ((m as { type?: string })?.type !== 'ready') return;
    this.ready++;
    if (this.ready === this.workers.length) for (const f of this.readyWaiters.splice(0)) f();
  }

  /** Resolves once every worker has started (jobs run without them until then: the others take their chunks). */
  whenReady(): Promise<void> {
    if (this.ready === this.workers.length) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private post(message: unknown): void {
    for (const w of this.workers) w.postMessage(message);
  }

  /** Hands `memory` (shared) to every worker, which instantiates the module over it; returns its instance id. */
  attach(memory: WebAssembly.Memory): number {
    const id = this.nextInstance++;
    this.post({ type: 'attach', id, memory });
    this.finalizer?.register(memory, id);
    return id;
  }

  /** Stops the workers (a job after this throws). */
  terminate(): void {
    Atomics.store(this.control, C.Stop, 1);
    Atomics.add(this.control, C.Seq, 1);
    Atomics.notify(this.control, C.Seq);
    for (const w of this.workers) w.terminate();
    this.failure ??= new WasmThreadError('@micrort/ops-wasm: the thread pool was terminated', -1);
  }

  /**
   * Runs `fn` over [0, total) in `chunks` chunks (boundaries multiples of `align`) on instance
   * `instance`, the main thread calling `x` (its own instance's exports) for the chunks it claims.
   * Returns when every chunk is done; throws WasmThreadError when a chunk threw in a worker or a worker
   * died. Allocates nothing.
   */
  run(
    x: JobExports,
    instance: number,
    fn: Fn,
    a0: number,
    a1: number,
    a2: number,
    a3: number,
    total: number,
    align: number,
    chunks: number,
  ): void {
    if (this.failure) throw this.failure;
    const c = this.control;
    // Between jobs nothing can be claimed (the last job's tag, NO_CHUNK), then the parameters, then the new
    // tag with chunk 0: a worker claims only on a Next value carrying the tag of the job whose parameters
    // it read (compareExchange), so one late from the last job (it read that job's tag) finds nothing here.
    const last = Atomics.load(c, C.Next) >>> 16;
    const tag = (last + 1) & TAG_MASK;
    Atomics.store(c, C.Next, (last << 16) | NO_CHUNK);
    Atomics.store(c, C.Fn, fn);
    Atomics.store(c, C.Instance, instance);
    Atomics.store(c, C.Args, a0);
    Atomics.store(c, C.Args + 1, a1);
    Atomics.store(c, C.Args + 2, a2);
    Atomics.store(c, C.Args + 3, a3);
    Atomics.store(c, C.Total, total);
    Atomics.store(c, C.Align, align);
    Atomics.store(c, C.Chunks, chunks);
    Atomics.store(c, C.Error, 0);
    Atomics.store(c, C.Done, 0);
    Atomics.store(c, C.Next, tag << 16);
    Atomics.add(c, C.Seq, 1);
    Atomics.notify(c, C.Seq);
    let threw: unknown = null;
    // (the test functions run in workers only: the main thread leaves their chunks to them)
    for (; fn < Fn.TestThrow;) {
      const k = Atomics.add(c, C.Next, 1) & NO_CHUNK;
      if (k >= chunks) break;
      try {
        runChunk(x, fn, k, chunks, total, align, a0, a1, a2, a3);
      } catch (e) {
        threw ??= e;
      }
      Atomics.add(c, C.Done, 1);
    }
    this.waitDone(chunks);
    if (threw !== null) throw threw;
    const err = c[C.Error]!;
    if (err !== 0) {
      let text = '';
      for (let i = 0; i < C.ErrorTextLength && c[C.ErrorText + i] !== 0; i++) text += String.fromCharCode(c[C.ErrorText + i]!);
      throw new WasmThreadError(`@micrort/ops-wasm worker ${err - 1}: ${text}`, err - 1);
    }
  }

  /** Waits until `chunks` chunks are done: spins a little, then blocks (Node) or keeps spinning (a browser's main thread). */
  private waitDone(chunks: number): void {
    const c = this.control;
    for (let i = 0; i < 20000; i++) if (Atomics.load(c, C.Done) >= chunks) return;
    const deadline = Date.now() + this.stallMs;
    for (;;) {
      const done = Atomics.load(c, C.Done);
      if (done >= chunks) return;
      if (this.blocking) Atomics.wait(c, C.Done, done, 2);
      if (Date.now() > deadline) {
        let busy = -1;
        for (let w = 1; w < this.threads; w++) if (Atomics.load(c, C.Busy + w) !== 0) busy = w;
        const failure = new WasmThreadError(
          `@micrort/ops-wasm: a job's chunks were not all done after ${this.stallMs} ms` +
            (busy > 0 ? `: worker ${busy} holds one; it has died or cannot run` : ''),
          busy,
        );
        this.failure ??= failure;
        throw failure;
      }
    }
  }
}

/** One chunk on the main thread (participant 0). */
function runChunk(
  x: JobExports,
  fn: Fn,
  k: number,
  chunks: number,
  total: number,
  align: number,
  a0: number,
  a1: number,
  a2: number,
  a3: number,
): void {
  const units = Math.ceil(total / align);
  const e0 = Math.floor((k * units) / chunks) * align;
  const e1 = Math.min(total, Math.floor(((k + 1) * units) / chunks) * align);
  if (e0 >= e1) return;
  switch (fn) {
    case Fn.Conv:
      x.qs8_conv_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Dwconv:
      x.qs8_dwconv_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Add:
      x.qs8_add_range(a0, a1, a2, a3, e0, e1);
      break;
    case Fn.F32Conv:
      x.f32_conv_run!(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.F32Dwconv:
      x.f32_dwconv_run!(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.HybridEpilogue:
      x.hybrid_epilogue!(a0, a1, e0, e1);
      break;
    case Fn.F32Tconv:
      x.f32_tconv_run!(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Bmm8:
      x.qs8_bmm_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Bmm16:
      x.qs16_bmm_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Tconv8:
      x.qs8_tconv_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Tconv16:
      x.qs16_tconv_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Conv16:
      x.qs16_conv_run(a0, a1, a2, e0, e1, 0);
      break;
    case Fn.Dwconv16:
      x.qs16_dwconv_run(a0, a1, a2, e0, e1, 0);
      break;
    default:
      break; // the test functions run in workers only
  }
}
