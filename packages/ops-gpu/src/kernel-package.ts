import type { KernelContribution, KernelPackage } from '@micrort/core';
import { GpuDelegate, type GpuDelegateOptions } from './gpu-delegate.js';
import { GPU_MODES } from './mode.js';
import { PROVIDER } from './provider.js';

/** What `gpuPackage.create()` contributes: the delegate (its mode and per-node decisions are on it). */
export interface GpuContribution extends KernelContribution {
  readonly delegate: GpuDelegate;
}

/**
 * The gpu.js GPU delegate as a kernel package: no kernels, one delegate that claims the float32 nodes
 * it supports at `allocateTensors()` (the resolver's kernels run the rest). Options are
 * `createGpuDelegate`'s: `mode` (`auto`, the best available, or a gpu.js mode: GpuModeError where this
 * platform lacks it), `excludeOps`, `name`. `ComposedRuntime.dispose()` destroys the delegate.
 *
 * ```ts
 * const rt = composeRuntime([referencePackage, withOptions(gpuPackage, { mode: 'cpu' })]);
 * ```
 */
export const gpuPackage: KernelPackage<GpuDelegateOptions> = {
  name: 'ops-gpu',
  provider: PROVIDER,
  summary: 'the gpu.js GPU delegate: claims the float32 nodes it supports (WebGL2, headlessgl, webasm or cpu), the kernels run the rest',
  provides: ['delegate'],
  join: 'register',
  options: [
    { name: 'mode', summary: 'the gpu.js backend', choices: ['auto', ...GPU_MODES], default: 'auto (the best available)' },
    { name: 'excludeOps', summary: 'builtin op names the delegate leaves on the CPU', default: 'none' },
  ],
  create(options: GpuDelegateOptions = {}): GpuContribution {
    const delegate = new GpuDelegate(options);
    return { delegates: [delegate], delegate, dispose: () => delegate.destroy() };
  },
};
