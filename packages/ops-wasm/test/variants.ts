/**
 * The builds and configurations of ops-wasm that every conformance suite runs: SIMD128 on one thread,
 * and the threaded build on two threads with every splittable node split (parallelMinMacs 0), so the
 * workers compute chunks of every CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD they can. (The
 * relaxed-SIMD builds run in a child process with --experimental-wasm-relaxed-simd: test/relaxed.test.ts.)
 */
import { loadWasmKernels, type LoadOptions, type WasmKernels } from '../src/index.js';
import { threadsAvailable } from '../src/threads/pool.js';

export interface Variant {
  name: string;
  options: LoadOptions;
}

/** The variants this engine can run. */
export const VARIANTS: Variant[] = [
  { name: 'simd128', options: { threads: 1 } },
  ...(threadsAvailable() ? [{ name: 'threads', options: { threads: 2, parallelMinMacs: 0 } }] : []),
];

/** Loads every variant once (the threaded ones with their workers ready), with `extra` options. */
export async function loadVariants(extra: LoadOptions = {}): Promise<{ variant: Variant; wasm: WasmKernels }[]> {
  const out = [];
  for (const variant of VARIANTS) out.push({ variant, wasm: await loadWasmKernels({ ...variant.options, ...extra }) });
  return out;
}
