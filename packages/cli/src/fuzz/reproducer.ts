import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReproducerSink } from './campaign.js';
import type { ExecuteOptions } from './execute.js';
import type { FuzzCase } from './generate.js';
import type { CaseOutcome } from './outcome.js';

/** The .json saved next to a reproducer's .tflite. */
export interface ReproducerMeta {
  seed: number;
  index: number;
  model: string;
  strategy: string;
  mutations: string[];
  options: ExecuteOptions;
  outcome: CaseOutcome;
  /** How to run it again. */
  replay: string;
}

/** Saves reproducers as `<dir>/<kind>-s<seed>-c<index>.tflite` plus a `.json` with what happened. */
export class DirectorySink implements ReproducerSink {
  constructor(readonly dir: string) {}

  save(c: FuzzCase, outcome: CaseOutcome, options: ExecuteOptions): string {
    mkdirSync(this.dir, { recursive: true });
    const base = join(this.dir, `${outcome.failure ?? 'case'}-s${c.seed}-c${c.index}`);
    writeFileSync(`${base}.tflite`, c.bytes);
    const meta: ReproducerMeta = {
      seed: c.seed,
      index: c.index,
      model: c.model,
      strategy: c.strategy,
      mutations: c.mutations,
      options,
      outcome,
      replay: `micrort fuzz --replay ${base}.json`,
    };
    writeFileSync(`${base}.json`, `${JSON.stringify(meta, null, 2)}\n`);
    return `${base}.tflite`;
  }
}

/**
 * Reads a reproducer: `x.json` (with `x.tflite` beside it) or a bare `.tflite` (run with default options:
 * input seed 1, arena limit 16 MiB).
 */
export function readReproducer(path: string): { bytes: Uint8Array; options: ExecuteOptions; meta: ReproducerMeta | null } {
  const jsonPath = path.endsWith('.json') ? path : path.replace(/\.tflite$/, '.json');
  const tflitePath = path.endsWith('.json') ? path.replace(/\.json$/, '.tflite') : path;
  const raw = readFileSync(tflitePath);
  const bytes = new Uint8Array(raw.byteLength);
  bytes.set(raw);
  if (existsSync(jsonPath)) {
    const meta = JSON.parse(readFileSync(jsonPath, 'utf8')) as ReproducerMeta;
    return { bytes, options: meta.options, meta };
  }
  return { bytes, options: { maxArenaBytes: 16 << 20, inputSeed: 1 }, meta: null };
}
