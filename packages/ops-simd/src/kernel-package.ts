import type { KernelContribution, KernelPackage } from '@micrort/core';
import { SimdCounters } from './counters.js';
import { createSimdKernels } from './create-simd-kernels.js';
import { PROVIDER } from './provider.js';
import type { SimdKernelOptions } from './options.js';

/** What `simdPackage.create()` contributes: the kernels, and the counters emulated kernels count into. */
export interface SimdContribution extends KernelContribution {
  /** Where the kernels count instructions (`options.counters`, or one made for this runtime); null in fast mode. */
  readonly counters: SimdCounters | null;
}

/**
 * ops-simd as a kernel package: the CMSIS-NN-style int8 kernels in front of the packages composed
 * before it (ops-reference serves every node they decline: float32, int16, uint8, …). Options are
 * `createSimdKernels`'s: `mode` (`fast` or `emulated`, which counts every emulated instruction into
 * `counters` for the Cortex-M cycle estimate) and `fullyConnectedKernelSums`.
 *
 * ```ts
 * const counters = new SimdCounters();
 * const rt = composeRuntime([referencePackage, withOptions(simdPackage, { mode: 'emulated', counters })]);
 * ```
 */
export const simdPackage: KernelPackage<SimdKernelOptions> = {
  name: 'ops-simd',
  provider: PROVIDER,
  summary: 'CMSIS-NN-style int8 kernels emulating the ARM DSP instructions, bit-exact with TFLM, with a Cortex-M cycle estimate',
  provides: ['builtin-ops'],
  join: 'fallback',
  options: [
    { name: 'mode', summary: 'fast JS, or every DSP instruction emulated and counted', choices: ['fast', 'emulated'], default: 'fast' },
    { name: 'counters', summary: 'the SimdCounters emulated kernels count into', default: 'one per runtime' },
    { name: 'fullyConnectedKernelSums', summary: "FULLY_CONNECTED precomputes its weight-row sums (TFLM's Helium build)", default: 'true' },
  ],
  create(options: SimdKernelOptions = {}): SimdContribution {
    const counters = options.mode === 'emulated' ? (options.counters ?? new SimdCounters()) : null;
    const kernels = createSimdKernels({ ...options, ...(counters ? { counters } : {}) });
    return { register: (resolver, join) => void resolver.registerAll(kernels, join), counters };
  },
};
