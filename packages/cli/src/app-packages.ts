/**
 * The kernel packages and delegates the CLI offers: app-kit's list (the one the playground and the
 * benchmarks offer too), loaded once when the CLI starts. `--ops` names a `kernels` package,
 * `--delegate` a `delegate` one; every runtime is app-kit's base (ops-reference, the signal and
 * MediaPipe custom ops) with the chosen packages, composed by core's `composeRuntime()`.
 */
import type { KernelPackage } from '@micrort/core';
import { loadAppKernelPackages, type LoadedAppPackage } from '@micrort/app-kit';
import { UsageError } from './args.js';

/** app-kit's packages, loaded (one that could not be imported says why). */
export const APP_PACKAGES: readonly LoadedAppPackage[] = await loadAppKernelPackages();

/** The ids of the packages of `role`. */
export function appPackageIds(role: LoadedAppPackage['role']): string[] {
  return APP_PACKAGES.filter((p) => p.role === role).map((p) => p.id);
}

/** The loaded package `id` (an `--ops` or `--delegate` value); a UsageError when it could not be loaded. */
export function appPackage(id: string, option: string): KernelPackage {
  const p = APP_PACKAGES.find((x) => x.id === id);
  if (!p?.package) throw new UsageError(`${option} ${id}: ${p?.unavailable ?? 'no such package'}`);
  return p.package;
}

/** `id: name, summary` of each package of `role`, for `--help`. */
export function appPackageHelp(role: LoadedAppPackage['role']): string {
  return APP_PACKAGES.filter((p) => p.role === role)
    .map((p) => `${p.id}: ${p.package ? `${p.package.name}, ${p.package.summary}` : `unavailable (${p.unavailable})`}`)
    .join('; ');
}
