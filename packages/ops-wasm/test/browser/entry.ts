/**
 * Page script of the browser test: loads ops-wasm asynchronously (as a page must), runs the int8 chain
 * network through it (arena in WebAssembly memory) and through ops-reference alone, and leaves the
 * results on `window.__micrortResult` for the test to read.
 */
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { isWasmArena, loadWasmKernels } from '../../src/index.js';
import { buildChain } from '../../src/__tests__/single-op.js';

/** What the page reports. */
export interface BrowserResult {
  simd128: boolean;
  providers: string[];
  inWasmMemory: boolean;
  wasm: number[];
  reference: number[];
  /** crossOriginIsolated, the threads `threads: 'auto'` gave, and the chain's output on two threads (every node split). */
  isolated: boolean;
  autoThreads: number;
  threaded: number[];
  threadedThreads: number;
  workerChunks: number;
  error?: string;
}

async function run(): Promise<BrowserResult> {
  const wasm = await loadWasmKernels({ threads: 1 });
  const { def, input } = buildChain();
  const withWasm = new MicroInterpreter(def, registerReferenceOps(new OpResolver()).registerAll(wasm.kernels, { fallback: true }), {
    planner: createPlanner('greedy'),
    arenaBacking: wasm.arenaBacking,
  }).allocateTensors();
  const reference = new MicroInterpreter(def, registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
  }).allocateTensors();
  for (const it of [withWasm, reference]) {
    it.setInput(0, input);
    it.invoke();
  }
  // two threads (a worker from a Blob URL; the main thread spins while it waits), every node split
  const auto = await loadWasmKernels();
  auto.dispose();
  const two = await loadWasmKernels({ threads: 2, parallelMinMacs: 0 });
  const threaded = new MicroInterpreter(def, registerReferenceOps(new OpResolver()).registerAll(two.kernels, { fallback: true }), {
    planner: createPlanner('greedy'),
    arenaBacking: two.arenaBacking,
  }).allocateTensors();
  for (let i = 0; i < 20; i++) {
    threaded.setInput(0, input); // the planner may reuse the input's bytes once it is consumed
    threaded.invoke();
  }
  const workerChunks = two.pool ? Atomics.load(two.pool.control, 15) : 0;
  two.dispose();
  return {
    isolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
    autoThreads: auto.threads,
    threaded: Array.from(threaded.output(0).data as Int8Array),
    threadedThreads: two.threads,
    workerChunks,
    simd128: wasm.features.simd128,
    providers: withWasm.nodes().map((n) => n.provider),
    inWasmMemory: isWasmArena(withWasm.output(0).data.buffer),
    wasm: Array.from(withWasm.output(0).data as Int8Array),
    reference: Array.from(reference.output(0).data as Int8Array),
  };
}

run().then(
  (r) => ((window as unknown as { __micrortResult: unknown }).__micrortResult = r),
  (e: unknown) =>
    ((window as unknown as { __micrortResult: unknown }).__micrortResult = {
      error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
    }),
);
