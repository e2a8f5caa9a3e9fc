/**
 * The kernel packages the page can run a model with: app-kit's list (what the CLI's `--ops` and
 * `--delegate` and the benchmarks offer), each composed with app-kit's base packages (ops-reference,
 * the signal and MediaPipe custom ops) by core's `composeRuntimeAsync()`: a kernel package in front of
 * the base, the GPU delegate beside it. Packages are imported on first use (app-kit's dynamic imports:
 * their code is a chunk of its own), and one that cannot be loaded or created in this browser is
 * reported as unavailable with the reason, never as a failure of the page.
 *
 * Adding a package to app-kit's list adds it here. The one entry of the page's own is ops-simd's
 * emulated variant, whose instruction counters feed the page's Cortex-M cycle estimate.
 */
import { composeRuntimeAsync, withOptions, type ComposeEntry, type InterpreterOptions, type OpResolver } from '@micrort/core';
import {
  APP_KERNEL_PACKAGES,
  appRuntimePackages,
  type AppKernelPackage,
  type DelegatingPackage,
  type ServingPackage,
} from '@micrort/app-kit';
import type { SimdCounters } from '@micrort/ops-simd';

/** Ids of the page's kernel choices: app-kit's ids, and `simd-emulated`. */
export type KernelId = string;

/** A runtime composed for one interpreter: the resolver, interpreter options and what to release. */
export interface KernelRuntime {
  id: KernelId;
  resolver: OpResolver;
  /** Options the packages need (ops-wasm: the arena in WebAssembly memory; ops-gpu: the delegate). */
  interpreterOptions: Partial<InterpreterOptions>;
  /** The composed packages, in composition order (for which package served each node). */
  packages: readonly (ServingPackage & DelegatingPackage)[];
  /** `simd-emulated`: the instruction counters the kernels count into (for the cycle estimate). */
  counters: SimdCounters | null;
  /** A delegate's: which nodes it claimed or declined and why, after allocation. */
  delegateDecisions?: () => { node: number; op: string; claimed: boolean; reason?: string }[];
  /** A delegate's mode, e.g. `gpu.js webgl2`. */
  detail?: string;
  /** Releases what the packages hold (GPU contexts). */
  dispose(): void;
}

/** A kernel choice of the picker. */
export interface KernelChoice {
  id: KernelId;
  label: string;
  /** What it is, one line (the package's summary once loaded). */
  description: string;
  create(): Promise<KernelRuntime>;
}

/** Thrown when a kernel package cannot be used here (absent from the build, no SIMD128, …). */
export class KernelUnavailableError extends Error {
  constructor(
    readonly kernel: KernelId,
    readonly reason: string,
  ) {
    super(`${kernel} kernels unavailable: ${reason}`);
    this.name = 'KernelUnavailableError';
  }
}

/** What a delegate of the GPU package exposes beyond `Delegate` (read without importing the package). */
interface DelegateWithDecisions {
  mode?: string;
  decisions?: () => { node: number; op: string; claimed: boolean; reason?: string }[];
}

/** Composes the runtime of `app` (with `options`): the base, then the package in front or, for a delegate, beside it. */
async function compose(id: KernelId, app: AppKernelPackage, options?: object): Promise<KernelRuntime> {
  let entry: ComposeEntry;
  try {
    const pkg = await app.load();
    if (!pkg) throw new Error(`${app.label} is not part of this build`);
    entry = options ? withOptions(pkg, options) : pkg;
  } catch (e) {
    throw new KernelUnavailableError(id, `${app.label} could not be loaded (${(e as Error).message})`);
  }
  let rt: Awaited<ReturnType<typeof composeRuntimeAsync>>;
  try {
    rt = await composeRuntimeAsync(app.role === 'delegate' ? appRuntimePackages(null, [entry]) : appRuntimePackages(entry));
  } catch (e) {
    throw new KernelUnavailableError(id, (e as Error).message);
  }
  const delegate = rt.delegates[0] as DelegateWithDecisions | undefined;
  const counters = (rt.packages.find((p) => 'counters' in p.contribution)?.contribution as { counters?: SimdCounters | null } | undefined)
    ?.counters;
  return {
    id,
    resolver: rt.resolver,
    interpreterOptions: rt.interpreterOptions,
    packages: rt.packages,
    counters: counters ?? null,
    ...(delegate?.decisions ? { delegateDecisions: () => delegate.decisions!() } : {}),
    ...(delegate?.mode ? { detail: `gpu.js ${delegate.mode}` } : {}),
    dispose: () => rt.dispose(),
  };
}

/** The page's labels of app-kit's packages (the page names ops-simd's two modes apart). */
const LABELS: Record<string, string> = { simd: 'ops-simd (fast)', gpu: 'ops-gpu delegate' };

/** The kernel choices, in picker order: app-kit's packages, ops-simd's emulated variant after ops-simd. */
export const KERNEL_CHOICES: readonly KernelChoice[] = APP_KERNEL_PACKAGES.flatMap((app): KernelChoice[] => {
  const plain: KernelChoice = {
    id: app.id,
    label: LABELS[app.id] ?? app.label,
    description: app.label,
    create: () => compose(app.id, app),
  };
  if (app.id !== 'simd') return [plain];
  return [
    plain,
    {
      id: 'simd-emulated',
      label: 'ops-simd (emulated, Cortex-M cycles)',
      description: 'ops-simd emulating the ARM DSP instructions and counting them: per-op Cortex-M4/M7 cycle estimate',
      create: () => compose('simd-emulated', app, { mode: 'emulated' }),
    },
  ];
});

/** The choice with `id`. */
export function kernelChoice(id: string): KernelChoice {
  const p = KERNEL_CHOICES.find((k) => k.id === id);
  if (!p) throw new KernelUnavailableError(id, `unknown kernel package "${id}" (known: ${KERNEL_CHOICES.map((k) => k.id).join(', ')})`);
  return p;
}

/** Whether each choice can be used here: creates and disposes one runtime of each; the description is the package's summary. */
export async function kernelAvailability(): Promise<
  { id: KernelId; label: string; description: string; available: boolean; reason?: string; detail?: string }[]
> {
  const out = [];
  for (const p of KERNEL_CHOICES) {
    const app = APP_KERNEL_PACKAGES.find((a) => a.id === p.id);
    const summary = app ? ((await app.load().catch(() => null))?.summary ?? p.description) : p.description;
    try {
      const rt = await p.create();
      out.push({ id: p.id, label: p.label, description: summary, available: true, ...(rt.detail ? { detail: rt.detail } : {}) });
      rt.dispose();
    } catch (e) {
      out.push({ id: p.id, label: p.label, description: summary, available: false, reason: (e as Error).message });
    }
  }
  return out;
}
