/**
 * Which kernel packages a model runs on, with one option: `'auto'` puts ops-wasm (WebAssembly SIMD128)
 * in front of ops-reference where the engine runs it and uses ops-reference alone where it does not;
 * `'wasm'` insists on ops-wasm; `'reference'` is ops-reference alone; or a list of core's compose
 * entries. TFLM's signal-library and MediaPipe's custom ops are composed with every choice.
 */
import { composeRuntime, composeRuntimeAsync, type ComposeEntry, type ComposedRuntime } from '@micrort/core';
import { mediapipePackage } from '@micrort/ops-mediapipe';
import { referencePackage } from '@micrort/ops-reference';
import { signalPackage } from '@micrort/ops-signal';
import { WasmUnsupportedError, wasmPackage } from '@micrort/ops-wasm';

/** The kernel choice of {@link loadModel}. */
export type KernelChoice = 'auto' | 'wasm' | 'reference' | readonly ComposeEntry[];

/** What every choice has: ops-reference (every TFLM builtin), TFLM's signal ops, MediaPipe's custom ops. */
export const BASE_PACKAGES: readonly ComposeEntry[] = [referencePackage, signalPackage, mediapipePackage];

/** Composes the runtime for `choice`; with `'auto'`, `fellBack` says why ops-wasm is not in it, when it is not. */
export async function composeKernels(choice: KernelChoice): Promise<{ runtime: ComposedRuntime; fellBack?: string }> {
  if (Array.isArray(choice)) return { runtime: await composeRuntimeAsync(choice as readonly ComposeEntry[]) };
  if (choice === 'reference') return { runtime: composeRuntime(BASE_PACKAGES) };
  try {
    return { runtime: await composeRuntimeAsync([...BASE_PACKAGES, wasmPackage]) };
  } catch (e) {
    if (choice === 'auto' && e instanceof WasmUnsupportedError) return { runtime: composeRuntime(BASE_PACKAGES), fellBack: e.message };
    throw e;
  }
}
