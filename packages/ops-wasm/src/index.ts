/**
 * @micrort/ops-wasm — WebAssembly SIMD128 kernels, int8 bit-exact with TFLM, working in place on an
 * arena that lives in the module's linear memory. Load with `loadWasmKernels()` (or the sync variant in
 * Node), register `wasm.kernels` with `{ fallback: true }` in front of ops-reference, and create the
 * interpreter with `arenaBacking: wasm.arenaBacking`.
 */
export { PROVIDER } from './provider.js';
export { loadWasmKernels, loadWasmKernelsSync, createWasmKernels, type WasmKernels, type LoadOptions } from './create-wasm-kernels.js';
export { wasmPackage, type WasmContribution } from './kernel-package.js';
export { WasmArenaBacking, isWasmArena } from './wasm-arena.js';
export { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from './options.js';
export { probeRelaxedDot, hasRelaxedSimd, type RelaxedDot } from './relaxed.js';
export { WasmThreadPool, WasmThreadError, defaultThreads, threadsAvailable, type PoolOptions } from './threads/pool.js';
export {
  WasmUnsupportedError,
  checkModuleLayout,
  checkModuleAbi,
  detectFeatures,
  requireFeatures,
  kernelsWasmBytes,
  type KernelsVariant,
  type WasmFeatures,
  type KernelExports,
} from './wasm-module.js';
export { KERNELS_SOURCE_HASH, KERNELS_WASM_SHA256 } from './generated/kernels-wasm.js';
export { ABI_HASH } from './generated/abi.js';
