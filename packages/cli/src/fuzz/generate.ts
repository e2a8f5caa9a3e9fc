import { writeModel } from '@micrort/core';
import { caseArenaLimit, type CorpusEntry } from './corpus.js';
import { cloneDef, mutateDef } from './mutate-def.js';
import { mutateBytes } from './mutate-bytes.js';
import { Rng } from './rng.js';

/** One generated fuzz case: everything needed to run it again. */
export interface FuzzCase {
  seed: number;
  index: number;
  /** Seed model it was made from. */
  model: string;
  /** `def`: structure-aware mutations then writeModel; `bytes`: raw byte mutations; `def+bytes`: both. */
  strategy: 'def' | 'bytes' | 'def+bytes';
  mutations: string[];
  bytes: Uint8Array;
  inputSeed: number;
  maxArenaBytes: number;
  /** Run the determinism and guard re-runs (off for heavy seeds). */
  checks: boolean;
  /** Plan with in-place outputs (one case in four). */
  inPlace: boolean;
}

/**
 * Case `index` of campaign `seed`: a function of (corpus, seed, index) only, so a reproducer is just
 * these three numbers and any case can be regenerated without running the ones before it.
 */
export function generateCase(corpus: readonly CorpusEntry[], seed: number, index: number): FuzzCase {
  const rng = new Rng(seed, index);
  const entry = corpus[rng.weighted(corpus.map((c) => c.weight))]!;
  const r = rng.float();
  const strategy: FuzzCase['strategy'] = r < 0.65 ? 'def' : r < 0.9 ? 'bytes' : 'def+bytes';
  const mutations: string[] = [];
  let bytes = entry.bytes;
  if (strategy !== 'bytes') {
    const def = cloneDef(entry.def);
    mutations.push(...mutateDef(def, rng, 1 + rng.int(rng.chance(0.7) ? 1 : 3)));
    const externalData = rng.chance(0.1);
    try {
      bytes = writeModel(def, { externalData });
      if (externalData) mutations.push('written with external buffer data');
    } catch (e) {
      // The writer refuses some impossible defs (e.g. a value that does not fit its field): fall back to
      // the seed's bytes so the case still runs; the refusal is part of the case's description.
      mutations.push(`writer refused the def (${(e as Error).message}); seed bytes used`);
    }
  }
  if (strategy !== 'def') {
    const [mutated, what] = mutateBytes(bytes, rng, 1 + rng.int(3));
    bytes = mutated;
    mutations.push(...what);
  }
  if (bytes === entry.bytes) bytes = bytes.slice();
  return {
    seed,
    index,
    model: entry.name,
    strategy,
    mutations,
    bytes,
    inputSeed: rng.uint32(),
    maxArenaBytes: caseArenaLimit(entry),
    checks: !entry.heavy,
    inPlace: rng.chance(0.25),
  };
}
