/**
 * @micrort/ops-simd — CMSIS-NN-style int8 kernels that emulate the ARMv7E-M DSP (SIMD) instructions,
 * bit-exact with TFLM, in two execution modes (fast / emulated with instruction counts) and a Cortex-M4/M7
 * cycle estimate. Register with `{ fallback: true }` in front of a complete provider (ops-reference).
 */
export { PROVIDER } from './provider.js';
export { createSimdKernels } from './create-simd-kernels.js';
export { simdPackage, type SimdContribution } from './kernel-package.js';
export type { SimdKernelOptions, SimdMode } from './options.js';
export {
  SimdCounters,
  INSTR_CLASSES,
  INSTR_CLASS_COUNT,
  LOAD,
  LOAD_CONST,
  STORE,
  MAC,
  SIMD,
  ALU,
  BRANCH,
  REQUANT,
  MUL_LONG,
  DIV,
  namedCounts,
  type InstrClassName,
  type NodeCounters,
  type NodeCountSummary,
} from './counters.js';
export {
  estimateCycles,
  costTable,
  CORTEX_M4_COSTS,
  CORTEX_M7_COSTS,
  type CortexCore,
  type CostTable,
  type CycleOptions,
  type CycleEstimate,
  type NodeCycles,
} from './cycles.js';
export { SimdMachine } from './machine.js';
export * as intrinsics from './intrinsics.js';
export { selectConvPath, convBufferSize, type ConvPath } from './kernels/conv-2d.js';
export { selectDepthwisePath, type DepthwisePath } from './kernels/depthwise-conv-2d.js';
export type { FullyConnectedPath } from './kernels/fully-connected.js';
