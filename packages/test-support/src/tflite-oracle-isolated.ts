/**
 * TFLite's C library (the `tfjs-tflite-node` addon, TFLite 2.9) run in a child process, for models that
 * may crash it: some kernels of TFLite 2.9 dereference null options or read out of bounds on inputs
 * they were never meant to get, which takes the whole process down. `runTfliteIsolated` runs a list
 * of cases in one child (`tflite-oracle-child.mjs`), reads one result line per case, and when the
 * child dies it records the case it was running as crashed and starts a new child after it.
 *
 * Where the in-process oracle (`tflite-oracle.ts`) is for comparing numbers on models known to run,
 * this one is for asking TFLite "do you accept this model at all?" over many generated models.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORACLE_ADDON_FILE } from './tflite-oracle.js';

/** One model and the raw bytes of each of its graph inputs. */
export interface IsolatedCase {
  model: Uint8Array;
  inputs: readonly Uint8Array[];
}

/** One graph output as TFLite returned it. */
export interface IsolatedOutput {
  dtype: string;
  shape: number[];
  bytes: Uint8Array;
}

/** What TFLite made of one case: it ran (with its outputs), it refused (with its error text), or it crashed. */
export type IsolatedResult =
  { status: 'ok'; outputs: IsolatedOutput[] } | { status: 'error'; error: string } | { status: 'crashed'; error: string };

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'tflite-oracle-child.mjs');

interface ChildLine {
  i: number;
  start?: boolean;
  ok?: boolean;
  error?: string;
  outputs?: { dtype: string; shape: string; bytes: string }[];
}

/**
 * Runs every case through TFLite 2.9 in child processes and returns one result per case, in order.
 * Throws when the addon is unavailable (check `oracleAvailable` first).
 */
export function runTfliteIsolated(cases: readonly IsolatedCase[]): IsolatedResult[] {
  if (!ORACLE_ADDON_FILE) throw new Error('TFLite oracle unavailable: tfjs-tflite-node addon not loaded');
  const dir = mkdtempSync(join(tmpdir(), 'micrort-tflite-'));
  try {
    const list = cases.map((c, i) => {
      const model = join(dir, `${i}.tflite`);
      writeFileSync(model, c.model);
      const inputs = c.inputs.map((b, k) => {
        const f = join(dir, `${i}.in${k}.bin`);
        writeFileSync(f, b);
        return f;
      });
      return { model, inputs };
    });
    const casesFile = join(dir, 'cases.json');
    writeFileSync(casesFile, JSON.stringify(list));
    const results: (IsolatedResult | undefined)[] = new Array(cases.length);
    let next = 0;
    while (next < cases.length) {
      const r = spawnSync(process.execPath, [CHILD, ORACLE_ADDON_FILE, casesFile, String(next)], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      let running = -1;
      for (const text of r.stdout.split('\n')) {
        if (!text) continue;
        const l = JSON.parse(text) as ChildLine;
        if (l.start) {
          running = l.i;
          continue;
        }
        running = -1;
        results[l.i] = l.ok
          ? {
              status: 'ok',
              outputs: (l.outputs ?? []).map((o) => ({
                dtype: o.dtype,
                shape: o.shape === '' ? [] : o.shape.split(',').map(Number),
                bytes: new Uint8Array(Buffer.from(o.bytes, 'base64')),
              })),
            }
          : { status: 'error', error: l.error ?? '' };
        next = l.i + 1;
      }
      if (running >= 0) {
        const why = r.signal ? `signal ${r.signal}` : `exit code ${r.status}`;
        const stderr = r.stderr.trim().split('\n').slice(-3).join(' | ');
        results[running] = { status: 'crashed', error: `TFLite crashed the process (${why})${stderr ? `: ${stderr}` : ''}` };
        next = running + 1;
      } else if (next < cases.length && r.status !== 0) {
        throw new Error(`TFLite oracle child failed before case ${next}: ${r.stderr || r.error?.message || `exit ${r.status}`}`);
      }
    }
    return results.map((r) => r!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
