import type { KernelContribution, KernelPackage } from '@micrort/core';
import { createWasmKernels, type LoadOptions } from './create-wasm-kernels.js';
import { PROVIDER } from './provider.js';
import { WasmArenaBacking } from './wasm-arena.js';
import { compileKernels, compileKernelsSync, detectFeatures, requireFeatures } from './wasm-module.js';

/** The kernels module, compiled once per realm (a compiled module is immutable and shareable). */
let compiled: WebAssembly.Module | null = null;
let compiling: Promise<WebAssembly.Module> | null = null;

function checkFeatures(options: LoadOptions): void {
  requireFeatures(options.validate ? detectFeatures(options.validate) : detectFeatures());
}

function contribution(module: WebAssembly.Module): KernelContribution {
  const kernels = createWasmKernels();
  return {
    register: (resolver, join) => void resolver.registerAll(kernels, join),
    interpreterOptions: { arenaBacking: new WasmArenaBacking(module) },
  };
}

/**
 * ops-wasm as a kernel package: the WebAssembly SIMD128 kernels in front of the packages composed
 * before it (ops-reference serves what they decline), and the interpreter's arena in the module's
 * WebAssembly memory (`interpreterOptions.arenaBacking`). Created asynchronously (`composeRuntimeAsync`,
 * what a browser's main thread needs) or synchronously (`composeRuntime`: Node, workers); both throw
 * WasmUnsupportedError, naming what is missing, where the engine lacks WebAssembly SIMD128. The module
 * is compiled once per realm.
 */
export const wasmPackage: KernelPackage<LoadOptions> = {
  name: 'ops-wasm',
  provider: PROVIDER,
  summary: 'WebAssembly SIMD128 kernels (int8 bit-exact with TFLM, float32), the arena in WebAssembly memory',
  provides: ['builtin-ops'],
  join: 'fallback',
  options: [{ name: 'validate', summary: 'the feature probe (tests pass one that refuses SIMD128)', default: 'WebAssembly.validate' }],
  create(options: LoadOptions = {}) {
    checkFeatures(options);
    compiled ??= compileKernelsSync();
    return contribution(compiled);
  },
  async createAsync(options: LoadOptions = {}) {
    checkFeatures(options);
    compiled ??= await (compiling ??= compileKernels());
    return contribution(compiled);
  },
};
