/**
 * Worker-thread entry of the fuzzer (see pool.ts): runs cases sent by the parent with executeCase and
 * answers each with its outcome and the worker's memory figures. On request it collects garbage first,
 * so the parent can watch the retained heap over a campaign.
 */
import { parentPort } from 'node:worker_threads';
import { executeCase, type ExecuteOptions } from './execute.js';
import { sampleMemory } from './heap.js';
import type { CaseOutcome } from './outcome.js';

/** A case sent by the parent. */
export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  options: ExecuteOptions;
  /** Collect garbage after the case and report the heap then. */
  gc: boolean;
}

/** The worker's answer. */
export interface WorkerResponse {
  id: number;
  outcome: CaseOutcome;
  /** V8 heap in use (after GC when the request asked for it), bytes. */
  heapUsed: number;
  /** ArrayBuffer memory outside the heap, bytes. */
  arrayBuffers: number;
  rss: number;
  afterGc: boolean;
}

const port = parentPort;
if (port) {
  port.on('message', (req: WorkerRequest) => {
    const outcome = executeCase(req.bytes, req.options);
    const res: WorkerResponse = { id: req.id, outcome, ...sampleMemory(req.gc) };
    port.postMessage(res);
  });
}
