/**
 * micrort with one kernel package in front of ops-reference: one runtime per `kernels` entry of
 * app-kit's list (the packages the CLI's `--ops` and the playground offer), ops-wasm on one thread and
 * on two, composed as every app composes, by core's `composeRuntimeAsync()` over app-kit's base packages
 * and the chosen one. A package that cannot be loaded or created here (no WebAssembly SIMD128) is
 * reported as unavailable instead of breaking the harness. Adding a kernel package to app-kit's list
 * adds it here.
 */
import { composeRuntimeAsync, withOptions, type ComposeEntry, type ComposedRuntime, type KernelPackage } from '@micrort/core';
import { APP_KERNEL_PACKAGES, appRuntimePackages, type AppKernelPackage } from '@micrort/app-kit';
import { RuntimeUnavailableError, type RuntimeAdapter, type Runner } from '../runtime.js';
import { micrortLoad } from './micrort-core.js';

/** A micrort kernel package the harness times: app-kit's entry, with the options it is created with. */
export interface BenchKernelPackage {
  /** Runtime id in the table, `micrort <id>`. */
  readonly id: string;
  /** The package's name. */
  readonly label: string;
  /** Shown after the name in the description (e.g. the thread count). */
  readonly note?: string;
  /** The package (ops-reference alone: null) and the options it is created with. */
  load(): Promise<{ entry: ComposeEntry | null; provider?: string }>;
}

/** ops-wasm's entry with `threads` (its relaxed build where the engine has relaxed SIMD). */
function wasmThreads(p: AppKernelPackage, threads: number): BenchKernelPackage {
  return {
    id: threads > 1 ? `${p.id} ${threads}t` : p.id,
    label: p.label,
    note: `${threads} thread${threads > 1 ? 's' : ''}`,
    async load() {
      const pkg = (await p.load()) as KernelPackage<{ threads?: number }>;
      return { entry: withOptions(pkg, { threads }), provider: pkg.provider };
    },
  };
}

/** The micrort kernel packages the harness times (app-kit's `kernels` entries, ops-wasm on 1 and 2 threads), reference first. */
export const KERNEL_PACKAGES: readonly BenchKernelPackage[] = APP_KERNEL_PACKAGES.filter((p) => p.role === 'kernels').flatMap(
  (p): BenchKernelPackage[] =>
    p.id === 'wasm'
      ? [wasmThreads(p, 1), wasmThreads(p, 2)]
      : [
          {
            id: p.id,
            label: p.label,
            async load() {
              const pkg = await p.load();
              return p.id === 'reference' ? { entry: null } : { entry: pkg, provider: pkg.provider };
            },
          },
        ],
);

/** The adapter of micrort with `pkg` (greedy planner, arena sized by what the model uses). */
export function micrortRuntime(pkg: BenchKernelPackage): RuntimeAdapter {
  const id = `micrort ${pkg.id}`;
  let runtime: Promise<{ rt: ComposedRuntime; provider?: string }> | null = null;
  return {
    id,
    description:
      pkg.id === 'reference'
        ? '@micrort/ops-reference'
        : `@micrort/${pkg.label}${pkg.note ? ` (${pkg.note})` : ''} in front of @micrort/ops-reference`,
    async load(bytes: Uint8Array): Promise<Runner> {
      runtime ??= (async () => {
        try {
          const { entry, provider } = await pkg.load();
          return { rt: await composeRuntimeAsync(appRuntimePackages(entry)), ...(provider ? { provider } : {}) };
        } catch (e) {
          throw new RuntimeUnavailableError(id, `${pkg.label}: ${(e as Error).message}`);
        }
      })();
      const { rt, provider } = await runtime;
      return micrortLoad(bytes, rt, provider);
    },
  };
}
