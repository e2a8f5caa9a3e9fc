/**
 * The builds and configurations of ops-wasm that every conformance suite runs: SIMD128 on one thread,
 * and the threaded build on two threads with every splittable node split (parallelMinMacs 0), so the
 * workers compute chunks of every CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD they can. Under
 * MICRORT_WASM_RELAXED=1 (test/relaxed.test.ts runs the suites again in a Node started with
 * --experimental-wasm-relaxed-simd) the same two on the relaxed builds instead.
 */
import { loadWasmKernels, type LoadOptions, type WasmKernels } from '../src/index.js';
import { threadsAvailable } from '../src/threads/pool.js';

export interface Variant {
  name: string;
  options: LoadOptions;
}

/** Whether this run covers the relaxed builds (test/relaxed.test.ts's child run). */
export const RELAXED_RUN =
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['MICRORT_WASM_RELAXED'] === '1';

/** The variants this run covers on this engine. */
export const VARIANTS: Variant[] = [
  { name: RELAXED_RUN ? 'relaxed' : 'simd128', options: { threads: 1, relaxed: RELAXED_RUN } },
  ...(threadsAvailable()
    ? [{ name: RELAXED_RUN ? 'relaxed-threads' : 'threads', options: { threads: 2, parallelMinMacs: 0, relaxed: RELAXED_RUN } }]
    : []),
];

/** Loads every variant once (the threaded ones with their workers ready), with `extra` options. */
export async function loadVariants(extra: LoadOptions = {}): Promise<{ variant: Variant; wasm: WasmKernels }[]> {
  const out = [];
  for (const variant of VARIANTS) out.push({ variant, wasm: await loadWasmKernels({ ...variant.options, ...extra }) });
  return out;
}
