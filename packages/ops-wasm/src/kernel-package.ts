import type { KernelContribution, KernelPackage } from '@micrort/core';
import { loadWasmKernels, loadWasmKernelsSync, type LoadOptions, type WasmKernels } from './create-wasm-kernels.js';
import { PROVIDER } from './provider.js';

/** What ops-wasm's creation returns: the contribution, and the build and thread count it chose. */
export interface WasmContribution extends KernelContribution {
  readonly variant: WasmKernels['variant'];
  readonly threads: number;
}

function contribution(wasm: WasmKernels): WasmContribution {
  return {
    register: (resolver, join) => void resolver.registerAll(wasm.kernels, join),
    interpreterOptions: { arenaBacking: wasm.arenaBacking },
    dispose: () => wasm.dispose(),
    variant: wasm.variant,
    threads: wasm.threads,
  };
}

/**
 * ops-wasm as a kernel package: the WebAssembly SIMD128 kernels in front of the packages composed
 * before it (ops-reference serves what they decline), and the interpreter's arena in the module's
 * WebAssembly memory (`interpreterOptions.arenaBacking`). Created asynchronously (`composeRuntimeAsync`,
 * what a browser's main thread needs) or synchronously (`composeRuntime`: Node, workers) with
 * loadWasmKernels' options (threads, relaxed SIMD); both throw WasmUnsupportedError, naming what is
 * missing, where the engine lacks WebAssembly SIMD128. Each build is compiled once per realm;
 * `ComposedRuntime.dispose()` stops the workers.
 */
export const wasmPackage: KernelPackage<LoadOptions> = {
  name: 'ops-wasm',
  provider: PROVIDER,
  summary:
    'WebAssembly SIMD128 kernels (int8 and uint8 bit-exact with TFLM, float32), threads, relaxed SIMD, the arena in WebAssembly memory',
  provides: ['builtin-ops'],
  join: 'fallback',
  options: [
    { name: 'threads', summary: 'threads per node (1 where shared WebAssembly memory is unavailable)', default: "'auto'" },
    { name: 'relaxed', summary: 'the relaxed-SIMD build: where the engine has it, never, or required', default: "'auto'" },
    { name: 'validate', summary: 'the feature probe (tests pass one that refuses SIMD128)', default: 'WebAssembly.validate' },
  ],
  create(options: LoadOptions = {}) {
    return contribution(loadWasmKernelsSync(options));
  },
  async createAsync(options: LoadOptions = {}) {
    return contribution(await loadWasmKernels(options));
  },
};
