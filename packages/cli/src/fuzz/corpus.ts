import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel, type ModelDef } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { composeOps } from '../runtime.js';
import { zooModels } from './zoo.js';

/** A seed model the fuzzer mutates. */
export interface CorpusEntry {
  name: string;
  bytes: Uint8Array;
  def: ModelDef;
  /** Arena of the unmutated model with the reference kernels ('auto'), or null when it does not allocate. */
  arenaBytes: number | null;
  /** Relative chance of being picked (smaller for big, slow models). */
  weight: number;
  /** Big model: one invoke per case, without the determinism and guard re-runs. */
  heavy: boolean;
}

/** Files above this size are heavy seeds. */
const HEAVY_BYTES = 1 << 20;

/** Reads a file into a fresh, aligned Uint8Array. */
function readAligned(path: string): Uint8Array {
  const b = readFileSync(path);
  const out = new Uint8Array(b.byteLength);
  out.set(b);
  return out;
}

/** `<dir>/<model>/model.tflite` for each model folder of a conformance directory, sorted by name. */
export function conformanceModelFiles(dir: string): { name: string; path: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => existsSync(join(dir, n, 'model.tflite')))
    .sort()
    .map((n) => ({ name: n, path: join(dir, n, 'model.tflite') }));
}

/**
 * Builds the seed corpus: the writer-made zoo (unless `zoo` is false) and every model of the conformance
 * directory (or those named in `models`). Each seed is loaded and allocated once, unmutated, to learn its
 * arena size (the per-case arena limit is a multiple of it). The order and weights depend only on the
 * files, so a campaign seed means the same cases on every machine.
 */
export function buildCorpus(
  options: { conformanceDir?: string | null; models?: readonly string[]; zoo?: boolean; ops?: string } = {},
): CorpusEntry[] {
  const seeds: { name: string; bytes: Uint8Array }[] = [];
  if (options.zoo ?? true) seeds.push(...zooModels());
  if (options.conformanceDir) {
    for (const f of conformanceModelFiles(options.conformanceDir)) seeds.push({ name: f.name, bytes: readAligned(f.path) });
  }
  const wanted = options.models?.length ? new Set(options.models) : null;
  const picked = wanted ? seeds.filter((s) => wanted.has(s.name)) : seeds;
  if (wanted) {
    const missing = [...wanted].filter((n) => !seeds.some((s) => s.name === n));
    if (missing.length)
      throw new Error(`fuzz corpus: unknown model(s) ${missing.join(', ')} (have: ${seeds.map((s) => s.name).join(', ')})`);
  }
  return picked.map((s) => {
    const def = loadModel(s.bytes);
    let arenaBytes: number | null;
    try {
      const interp = composeOps(options.ops ?? 'reference')
        .createInterpreter(def, { planner: createPlanner('greedy') })
        .allocateTensors();
      arenaBytes = interp.arenaUsage().arenaBytes;
      interp.dispose();
    } catch {
      arenaBytes = null; // e.g. custom ops with no kernel: still a useful seed for the loader and allocator
    }
    const heavy = s.bytes.byteLength > HEAVY_BYTES;
    // Small seeds are cheap and reach every kernel: favour them; a 4 MB model gets about 1/16 the weight.
    const weight = Math.min(1, Math.sqrt(16384 / s.bytes.byteLength));
    return { name: s.name, bytes: s.bytes, def, arenaBytes, weight, heavy };
  });
}

/** The arena limit for mutants of a seed: 4× its arena, at least 1 MiB (2 MiB when unknown). */
export function caseArenaLimit(entry: CorpusEntry): number {
  return entry.arenaBytes === null ? 2 << 20 : Math.max(1 << 20, 4 * entry.arenaBytes);
}
