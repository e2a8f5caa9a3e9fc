/**
 * Page script of the browser test: loads ops-wasm asynchronously (as a page must), runs the int8 chain
 * network through it (arena in WebAssembly memory) and through ops-reference alone, and leaves the
 * results on `window.__micrortResult` for the test to read.
 */
import { MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { isWasmArena, loadWasmKernels } from '../../src/index.js';
import { buildChain, buildConv, buildFullyConnected, randomConvCase } from '../../src/__tests__/single-op.js';
import type { ModelDef } from '@micrort/core';

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
  /** The relaxed build: its variant, what the engine's relaxed dot computes, and random int8 nodes against ops-reference. */
  relaxed: { variant: string; dot: string; ran: number; served: number; mismatches: string[] } | null;
  error?: string;
}

/** Random CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED models through the relaxed build and ops-reference in the page. */
async function relaxedCheck(): Promise<BrowserResult['relaxed']> {
  const w = await loadWasmKernels({ threads: 1, relaxed: true, minMacs: 0 });
  const run = (def: ModelDef, input: Int8Array, wasm: boolean) => {
    const resolver = registerReferenceOps(new OpResolver());
    if (wasm) resolver.registerAll(w.kernels, { fallback: true });
    const it = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      ...(wasm ? { arenaBacking: w.arenaBacking } : {}),
    }).allocateTensors();
    it.setInput(0, input);
    it.invoke();
    return {
      out: Array.from(it.output(0).data as Int8Array),
      served: it.nodes().filter((n) => n.provider !== '@micrort/ops-reference').length,
    };
  };
  const mismatches: string[] = [];
  let ran = 0;
  let served = 0;
  const check = (desc: string, def: ModelDef, input: Int8Array) => {
    const a = run(def, input, true);
    const b = run(def, input, false);
    ran++;
    served += a.served;
    if (a.out.join() !== b.out.join()) mismatches.push(desc);
  };
  for (let seed = 1; ran < 80; seed++) {
    const c = randomConvCase(seed, seed % 4 === 0);
    const m = buildConv(c);
    if (m) check(`conv ${JSON.stringify(c)}`, m.def, m.input);
  }
  for (let seed = 1; seed <= 40; seed++) {
    const m = buildFullyConnected(seed);
    check(m.desc, m.def, m.input);
  }
  return { variant: w.variant, dot: w.relaxedDot, ran, served, mismatches };
}

async function run(): Promise<BrowserResult> {
  const wasm = await loadWasmKernels({ threads: 1, relaxed: false });
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
  const two = await loadWasmKernels({ threads: 2, parallelMinMacs: 0, relaxed: false });
  const threaded = new MicroInterpreter(def, registerReferenceOps(new OpResolver()).registerAll(two.kernels, { fallback: true }), {
    planner: createPlanner('greedy'),
    arenaBacking: two.arenaBacking,
  }).allocateTensors();
  // 20 invokes, then more (yielding to the event loop) until a worker has taken a chunk: on a loaded
  // machine the worker may still be starting after the first 20, and the main thread takes every chunk.
  let workerChunks: number;
  const deadline = performance.now() + 30_000;
  for (let i = 0; ; i++) {
    threaded.setInput(0, input); // the planner may reuse the input's bytes once it is consumed
    threaded.invoke();
    workerChunks = two.pool ? Atomics.load(two.pool.control, 15) : 0;
    if (i < 19) continue;
    if (workerChunks > 0 || !two.pool || performance.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  two.dispose();
  return {
    isolated: (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
    autoThreads: auto.threads,
    threaded: Array.from(threaded.output(0).data as Int8Array),
    threadedThreads: two.threads,
    workerChunks,
    relaxed: wasm.features.relaxedSimd ? await relaxedCheck() : null,
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
