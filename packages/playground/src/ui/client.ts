/** The page's side of the worker protocol: one promise per call, progress callbacks. */
import type { Method, Methods, Request, Response } from '../protocol.js';

/** An error the worker reported: keeps the typed error's name (`ModelError`, `UnsupportedOpError`, …). */
export class RemoteError extends Error {
  constructor(
    name: string,
    message: string,
    /** What to do about it in the page, when the worker knows. */
    readonly advice?: string,
  ) {
    super(message);
    this.name = name;
  }
}

type Pending = { resolve(v: unknown): void; reject(e: Error): void; progress?: (label: string, done: number, total: number) => void };

export class WorkerClient {
  private next = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (e: MessageEvent<Response>) => {
      const m = e.data;
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.type === 'progress') p.progress?.(m.label, m.done, m.total);
      else {
        this.pending.delete(m.id);
        if (m.type === 'result') p.resolve(m.value);
        else p.reject(new RemoteError(m.error.name, m.error.message, m.error.advice));
      }
    };
    worker.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new RemoteError('WorkerError', e.message || 'the worker failed'));
      this.pending.clear();
    };
  }

  /** Calls `method` in the worker; transfers nothing (arguments are copied). */
  call<M extends Method>(
    method: M,
    args: Methods[M]['args'],
    progress?: (label: string, done: number, total: number) => void,
  ): Promise<Methods[M]['result']> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(progress ? { progress } : {}) });
      const req: Request<M> = { id, method, args };
      this.worker.postMessage(req);
    });
  }
}
