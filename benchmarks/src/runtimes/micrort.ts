/**
 * micrort with one kernel package in front of ops-reference. Kernel packages are found with a dynamic
 * import, so one that is not built or not installed yet (e.g. @micrort/ops-wasm before it lands) is
 * reported as unavailable instead of breaking the harness. Adding a kernel package is one entry in
 * {@link KERNEL_PACKAGES}.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MicroInterpreter, OpResolver, loadModel, tensorTypeName, type InterpreterOptions, type Registration } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { registerMediapipeOps } from '@micrort/ops-mediapipe';
import { createPlanner } from '@micrort/planners';
import { RuntimeUnavailableError, type RuntimeAdapter, type Runner, type TensorInfo } from '../runtime.js';

/** What a kernel package contributes to a runtime. */
export interface KernelSetup {
  /** Registrations put in front of ops-reference with `{ fallback: true }`. */
  registrations: readonly Registration[];
  /** Extra interpreter options (e.g. the arena backing of a WebAssembly package). */
  interpreterOptions?: Record<string, unknown>;
}

/** A micrort kernel package the harness times. */
export interface KernelPackage {
  /** Runtime id in the table, `micrort <name>`. */
  name: string;
  /** The package to import (null: ops-reference alone). */
  specifier: string | null;
  /** Its folder under packages/, to import the built dist when the package is not a dependency. */
  workspaceDir?: string;
  /** Turns the imported module into registrations (and interpreter options). */
  setup(module: Record<string, unknown>): KernelSetup | Promise<KernelSetup>;
}

type Fn = (...args: unknown[]) => unknown;
const call = (m: Record<string, unknown>, name: string, ...args: unknown[]): unknown => {
  const f = m[name];
  if (typeof f !== 'function') throw new Error(`the package has no ${name}() export`);
  return (f as Fn)(...args);
};

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
    setup: async (m) => {
      const w = (await call(m, 'loadWasmKernels')) as { kernels: Registration[]; arenaBacking: unknown };
      return { registrations: w.kernels, interpreterOptions: { arenaBacking: w.arenaBacking } };
    },
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
    description: pkg.specifier ? `${pkg.specifier} in front of @micrort/ops-reference` : '@micrort/ops-reference',
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
      const resolver = new OpResolver();
      registerReferenceOps(resolver);
      registerSignalOps(resolver);
      registerMediapipeOps(resolver); // MediaPipe's custom ops (selfie_segmentation's Convolution2DTransposeBias)
      if (s.registrations.length) resolver.registerAll(s.registrations as Registration[], { fallback: true });
      const model = loadModel(bytes);
      const options = { planner: createPlanner('greedy'), arena: 'auto', ...(s.interpreterOptions ?? {}) } as InterpreterOptions;
      const interp = new MicroInterpreter(model, resolver, options).allocateTensors();
      return micrortRunner(interp);
    },
  };
}

function info(t: { name: string; type: number; dims: ArrayLike<number>; byteLength: number }): TensorInfo {
  return { name: t.name, dtype: tensorTypeName(t.type), shape: Array.from(t.dims), bytes: t.byteLength };
}

/**
 * A runner over an allocated interpreter. The inputs are written back before every invoke: the memory
 * planner may reuse an input's bytes once it is consumed, so a second invoke would otherwise run on
 * what the first one left there (the copy is a memcpy of the input, small next to the invoke).
 */
function micrortRunner(interp: MicroInterpreter): Runner {
  const inputs = Array.from({ length: interp.inputsSize }, (_, i) => info(interp.input(i)));
  const outputs = Array.from({ length: interp.outputsSize }, (_, j) => info(interp.output(j)));
  const saved = inputs.map((t) => new Uint8Array(t.bytes));
  return {
    inputs,
    outputs,
    setInput(i, bytes) {
      saved[i]!.set(bytes);
    },
    run() {
      for (let i = 0; i < saved.length; i++) interp.input(i).bytes.set(saved[i]!);
      interp.invoke();
    },
    readOutputs() {
      return outputs.map((_, j) => interp.output(j).bytes.slice());
    },
    dispose() {},
  };
}
