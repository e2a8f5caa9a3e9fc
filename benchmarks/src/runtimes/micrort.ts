/**
 * micrort with one kernel package in front of ops-reference. Kernel packages are found with a dynamic
 * import, so one that is not built or not installed yet (e.g. @micrort/ops-wasm before it lands) is
 * reported as unavailable instead of breaking the harness. Adding a kernel package is one entry in
 * {@link KERNEL_PACKAGES}.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Registration } from '@micrort/core';
import { RuntimeUnavailableError, type RuntimeAdapter, type Runner } from '../runtime.js';
import { micrortLoad, type KernelSetup } from './micrort-core.js';

export type { KernelSetup };

/** A micrort kernel package the harness times. */
export interface KernelPackage {
  /** Runtime id in the table, `micrort <name>`. */
  name: string;
  /** The package to import (null: ops-reference alone). */
  specifier: string | null;
  /** Its folder under packages/, to import the built dist when the package is not a dependency. */
  workspaceDir?: string;
  /** Shown after the specifier in the description (e.g. the thread count). */
  note?: string;
  /** Turns the imported module into registrations (and interpreter options). */
  setup(module: Record<string, unknown>): KernelSetup | Promise<KernelSetup>;
}

type Fn = (...args: unknown[]) => unknown;
const call = (m: Record<string, unknown>, name: string, ...args: unknown[]): unknown => {
  const f = m[name];
  if (typeof f !== 'function') throw new Error(`the package has no ${name}() export`);
  return (f as Fn)(...args);
};

/** ops-wasm on `threads` threads (its relaxed build where the engine has relaxed SIMD). */
async function wasmSetup(m: Record<string, unknown>, threads: number): Promise<KernelSetup> {
  const w = (await call(m, 'loadWasmKernels', { threads })) as {
    kernels: Registration[];
    arenaBacking: unknown;
    threads: number;
    variant: string;
  };
  if (w.threads !== threads) throw new Error(`${threads} threads asked, ${w.threads} available (no SharedArrayBuffer)`);
  return { registrations: w.kernels, interpreterOptions: { arenaBacking: w.arenaBacking }, provider: '@micrort/ops-wasm' };
}

/** The kernel packages, one line each. */
export const KERNEL_PACKAGES: readonly KernelPackage[] = [
  { name: 'reference', specifier: null, setup: () => ({ registrations: [] }) },
  {
    name: 'simd',
    specifier: '@micrort/ops-simd',
    workspaceDir: 'ops-simd',
    setup: (m) => ({ registrations: call(m, 'createSimdKernels', { mode: 'fast' }) as Registration[] }),
  },
  {
    name: 'wasm',
    specifier: '@micrort/ops-wasm',
    workspaceDir: 'ops-wasm',
    note: '1 thread',
    setup: (m) => wasmSetup(m, 1),
  },
  {
    name: 'wasm 2t',
    specifier: '@micrort/ops-wasm',
    workspaceDir: 'ops-wasm',
    note: '2 threads',
    setup: (m) => wasmSetup(m, 2),
  },
];

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Imports a kernel package by name, else its built dist in the workspace; null when neither is there. */
async function importPackage(p: KernelPackage): Promise<Record<string, unknown>> {
  if (!p.specifier) return {};
  try {
    return (await import(p.specifier)) as Record<string, unknown>;
  } catch {
    const dist = p.workspaceDir ? join(REPO_ROOT, 'packages', p.workspaceDir, 'dist', 'index.js') : null;
    if (dist && existsSync(dist)) return (await import(pathToFileURL(dist).href)) as Record<string, unknown>;
    throw new RuntimeUnavailableError(`micrort ${p.name}`, `${p.specifier} is not installed or built yet`);
  }
}

/** The adapter of micrort with `pkg` (greedy planner, arena sized exactly). */
export function micrortRuntime(pkg: KernelPackage): RuntimeAdapter {
  let setup: Promise<KernelSetup> | null = null;
  const id = `micrort ${pkg.name}`;
  return {
    id,
    description: pkg.specifier
      ? `${pkg.specifier}${pkg.note ? ` (${pkg.note})` : ''} in front of @micrort/ops-reference`
      : '@micrort/ops-reference',
    async load(bytes: Uint8Array): Promise<Runner> {
      setup ??= importPackage(pkg).then(async (m) => {
        try {
          return await pkg.setup(m);
        } catch (e) {
          if (e instanceof RuntimeUnavailableError) throw e;
          throw new RuntimeUnavailableError(id, `${pkg.specifier}: ${(e as Error).message}`);
        }
      });
      const s = await setup;
      return micrortLoad(bytes, s);
    },
  };
}
