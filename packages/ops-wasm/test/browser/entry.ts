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
  error?: string;
}

async function run(): Promise<BrowserResult> {
  const wasm = await loadWasmKernels();
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
  return {
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
