/**
 * The kernel packages and delegates micrort's apps offer — the CLI's `--ops` and `--delegate`, the
 * playground's kernel picker, the benchmarks' runtimes — and the list every app runtime is composed
 * from with core's `composeRuntime()`. Adding a kernel package to every app is one entry in
 * {@link APP_KERNEL_PACKAGES} (and the package in this package's dependencies).
 */
import type { ComposeEntry, KernelPackage } from '@micrort/core';
import { coralPackage } from '@micrort/ops-coral';
import { mediapipePackage } from '@micrort/ops-mediapipe';
import { referencePackage } from '@micrort/ops-reference';
import { signalPackage } from '@micrort/ops-signal';

/**
 * What every app runtime has, in composition order: ops-reference (every TFLM builtin: the fallback
 * of every other package), TFLM's signal-library custom ops, MediaPipe's and Coral's custom ops.
 */
export const BASE_PACKAGES: readonly KernelPackage[] = [referencePackage, signalPackage, mediapipePackage, coralPackage];

/** A kernel package or delegate an app offers. */
export interface AppKernelPackage {
  /** What the apps call it: `--ops wasm`, `--delegate gpu`, the page's picker, `micrort wasm` in the benchmarks. */
  readonly id: string;
  /** `kernels` go in front of the base packages (`--ops`); a `delegate` claims nodes beside them (`--delegate`). */
  readonly role: 'kernels' | 'delegate';
  /** The package's name (its `KernelPackage.name`), for lists shown before it is loaded. */
  readonly label: string;
  /** Imports the package (a dynamic import: a bundled page gets a chunk per package, loaded on first use). */
  load(): Promise<KernelPackage>;
}

/** The packages the apps offer, in the order they list them. */
export const APP_KERNEL_PACKAGES: readonly AppKernelPackage[] = [
  { id: 'reference', role: 'kernels', label: 'ops-reference', load: async () => referencePackage },
  { id: 'simd', role: 'kernels', label: 'ops-simd', load: async () => (await import('@micrort/ops-simd')).simdPackage },
  { id: 'wasm', role: 'kernels', label: 'ops-wasm', load: async () => (await import('@micrort/ops-wasm')).wasmPackage },
  { id: 'gpu', role: 'delegate', label: 'ops-gpu', load: async () => (await import('@micrort/ops-gpu')).gpuPackage },
];

/** An app package after loading: the package, or why it could not be loaded here. */
export interface LoadedAppPackage {
  readonly id: string;
  readonly role: 'kernels' | 'delegate';
  readonly label: string;
  readonly package: KernelPackage | null;
  /** Why `package` is null (the import failed, or the build left the package out). */
  readonly unavailable?: string;
}

/** Loads every package of {@link APP_KERNEL_PACKAGES}; one that cannot be imported says why instead of failing the app. */
export async function loadAppKernelPackages(list: readonly AppKernelPackage[] = APP_KERNEL_PACKAGES): Promise<LoadedAppPackage[]> {
  return Promise.all(
    list.map(async ({ id, role, label, load }): Promise<LoadedAppPackage> => {
      try {
        const pkg = await load();
        // A bundler's stand-in for a package left out of the build has no package export.
        if (!pkg) return { id, role, label, package: null, unavailable: `${label} is not part of this build` };
        return { id, role, label, package: pkg };
      } catch (e) {
        return { id, role, label, package: null, unavailable: `${label} could not be loaded (${(e as Error).message})` };
      }
    }),
  );
}

/**
 * What an app runtime composes, in order: {@link BASE_PACKAGES}, then `front` in front of them
 * (nothing more when it is one of the base packages, as ops-reference alone is), then `delegates`.
 */
export function appRuntimePackages(front: ComposeEntry | null = null, delegates: readonly ComposeEntry[] = []): ComposeEntry[] {
  const pkg = front && 'package' in front ? front.package : front;
  const base: ComposeEntry[] = [...BASE_PACKAGES];
  if (front && !BASE_PACKAGES.includes(pkg as KernelPackage)) base.push(front);
  return [...base, ...delegates];
}
