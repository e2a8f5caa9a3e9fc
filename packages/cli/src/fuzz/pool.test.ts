import { describe, expect, it } from 'vitest';
import { WorkerPool } from './pool.js';

/**
 * A stand-in worker (CommonJS, run with `eval`): answers `ok`, spins forever on maxArenaBytes 1,
 * exits on maxArenaBytes 2 and allocates without bound on maxArenaBytes 3.
 */
const FAKE_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (req) => {
  const mode = req.options.maxArenaBytes;
  if (mode === 1) for (;;) {}
  if (mode === 2) process.exit(3);
  if (mode === 3) { const keep = []; for (;;) keep.push(new Array(1e5).fill(keep.length)); }
  parentPort.postMessage({ id: req.id, outcome: { result: 'ok', stage: 'invoke' }, heapUsed: 1, arrayBuffers: 0, rss: 1, afterGc: false });
});`;

const opts = (maxArenaBytes: number) => ({ maxArenaBytes, inputSeed: 0 });

describe('fuzz worker pool', () => {
  it('a case past its time bound is a hang; the worker is replaced and the next case runs', async () => {
    const pool = new WorkerPool({ source: { evalCode: FAKE_WORKER } });
    try {
      expect((await pool.run(new Uint8Array(1), opts(0), 5000)).outcome.result).toBe('ok');
      const hang = await pool.run(new Uint8Array(1), opts(1), 300);
      expect(hang.outcome).toMatchObject({ result: 'failure', failure: 'hang', stage: 'worker' });
      expect(hang.restarted).toBe(true);
      expect((await pool.run(new Uint8Array(1), opts(0), 5000)).outcome.result).toBe('ok');
    } finally {
      await pool.close();
    }
  });

  it('a worker that exits or runs out of heap is a crash, and the pool goes on', async () => {
    const pool = new WorkerPool({ source: { evalCode: FAKE_WORKER }, heapLimitMb: 32 });
    try {
      const exit = await pool.run(new Uint8Array(1), opts(2), 5000);
      expect(exit.outcome).toMatchObject({ result: 'failure', failure: 'crash', detail: 'the worker exited with code 3' });
      const oom = await pool.run(new Uint8Array(1), opts(3), 60_000);
      expect(oom.outcome).toMatchObject({ result: 'failure', failure: 'crash', detail: 'the worker ran out of heap memory' });
      expect((await pool.run(new Uint8Array(1), opts(0), 5000)).outcome.result).toBe('ok');
    } finally {
      await pool.close();
    }
  });

  it('queues cases beyond the number of workers and answers each', async () => {
    const pool = new WorkerPool({ source: { evalCode: FAKE_WORKER }, workers: 2 });
    try {
      const results = await Promise.all([0, 0, 0, 0, 0].map((m) => pool.run(new Uint8Array(1), opts(m), 5000)));
      expect(results.map((r) => r.outcome.result)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    } finally {
      await pool.close();
    }
  });
});
