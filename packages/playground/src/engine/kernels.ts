/**
 * The kernel packages the page can run a model with. Every runtime has ops-reference and the signal
 * library's, MediaPipe's and Coral's custom ops as the fallback (as the CLI's); a package puts its kernels in
 * front of them (`{ fallback: true }`) or, for the GPU delegate, claims the nodes it supports at
 * allocation. Packages are imported on first use (dynamic import: their code is a chunk of its own),
 * and one that is absent from the build or cannot run in this browser is reported as unavailable with
 * the reason, never as a failure of the page.
 * Adding a package is one entry in {@link KERNEL_PACKAGES}.
 */
import { OpResolver, type Delegate, type InterpreterOptions, type Registration } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerMediapipeOps } from '@micrort/ops-mediapipe';
import { registerCoralOps } from '@micrort/ops-coral';
import { registerSignalOps } from '@micrort/ops-signal';
import type { SimdCounters } from '@micrort/ops-simd';

/** Ids of the kernel packages. */
export type KernelId = 'reference' | 'simd' | 'simd-emulated' | 'wasm' | 'gpu';

/** A runtime composed for one interpreter: the resolver, interpreter options and what to release. */
export interface KernelRuntime {
  id: KernelId;
  resolver: OpResolver;
  /** Options the package needs (ops-wasm: the arena in WebAssembly memory; ops-gpu: the delegate). */
  interpreterOptions: Partial<InterpreterOptions> & Record<string, unknown>;
  /** `simd-emulated`: the instruction counters the kernels count into (for the cycle estimate). */
  counters: SimdCounters | null;
  /** `gpu`: which nodes the delegate claimed or declined and why, after allocation. */
  delegateDecisions?: () => { node: number; op: string; claimed: boolean; reason?: string }[];
  /** `gpu`: the gpu.js mode the delegate runs in. */
  detail?: string;
  /** Releases what the package holds (GPU contexts). */
  dispose(): void;
}

/** A kernel package of the picker. */
export interface KernelPackage {
  id: KernelId;
  label: string;
  /** What it is, one line. */
  description: string;
  create(): Promise<KernelRuntime>;
}

/** A new resolver with ops-reference, the signal, MediaPipe and Coral custom ops, and `front` registered in front of them. */
export function baseResolver(front: readonly Registration[] = []): OpResolver {
  const resolver = new OpResolver();
  registerReferenceOps(resolver);
  registerSignalOps(resolver);
  registerMediapipeOps(resolver);
  registerCoralOps(resolver);
  if (front.length) resolver.registerAll(front, { fallback: true });
  return resolver;
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

function plain(id: KernelId, front: readonly Registration[], extra: Partial<KernelRuntime> = {}): KernelRuntime {
  return { id, resolver: baseResolver(front), interpreterOptions: {}, counters: null, dispose() {}, ...extra };
}

/** What `import('@micrort/ops-wasm')` gives (typed here: the package may be absent from the build). */
interface WasmModule {
  loadWasmKernels?: () => Promise<{ kernels: Registration[]; arenaBacking: unknown }>;
  /** Set by the build's optional-package stand-in when the package is not installed. */
  unavailable?: string;
}

/** The kernel packages, in picker order. */
export const KERNEL_PACKAGES: readonly KernelPackage[] = [
  {
    id: 'reference',
    label: 'ops-reference',
    description: "TFLM's reference kernels (float32, int8, int16), bit-exact with TFLM",
    create: async () => plain('reference', []),
  },
  {
    id: 'simd',
    label: 'ops-simd (fast)',
    description: 'CMSIS-NN-style int8 kernels in front of ops-reference, plain JS',
    create: async () => {
      const { createSimdKernels } = await import('@micrort/ops-simd');
      return plain('simd', createSimdKernels({ mode: 'fast' }));
    },
  },
  {
    id: 'simd-emulated',
    label: 'ops-simd (emulated, Cortex-M cycles)',
    description: 'ops-simd emulating the ARM DSP instructions and counting them: per-op Cortex-M4/M7 cycle estimate',
    create: async () => {
      const { SimdCounters, createSimdKernels } = await import('@micrort/ops-simd');
      const counters = new SimdCounters();
      return plain('simd-emulated', createSimdKernels({ mode: 'emulated', counters }), { counters });
    },
  },
  {
    id: 'wasm',
    label: 'ops-wasm',
    description: 'WebAssembly SIMD128 kernels in front of ops-reference, the arena in WebAssembly memory',
    create: async () => {
      let m: WasmModule;
      try {
        // @ts-ignore -- optional package (@ts-expect-error would fail in the build where it is installed): when it is not installed the build resolves it to a stand-in saying so
        m = (await import('@micrort/ops-wasm')) as unknown as WasmModule;
      } catch (e) {
        throw new KernelUnavailableError('wasm', `@micrort/ops-wasm could not be loaded (${(e as Error).message})`);
      }
      if (m.unavailable || typeof m.loadWasmKernels !== 'function')
        throw new KernelUnavailableError('wasm', m.unavailable ?? '@micrort/ops-wasm has no loadWasmKernels()');
      let w: { kernels: Registration[]; arenaBacking: unknown };
      try {
        w = await m.loadWasmKernels();
      } catch (e) {
        throw new KernelUnavailableError('wasm', (e as Error).message);
      }
      return plain('wasm', w.kernels, { interpreterOptions: { arenaBacking: w.arenaBacking } as KernelRuntime['interpreterOptions'] });
    },
  },
  {
    id: 'gpu',
    label: 'ops-gpu delegate',
    description: 'the gpu.js delegate claims the float32 ops it supports (WebGL2 where the browser offers it), ops-reference runs the rest',
    create: async () => {
      const { createGpuDelegate } = await import('@micrort/ops-gpu');
      let delegate: ReturnType<typeof createGpuDelegate>;
      try {
        delegate = createGpuDelegate();
      } catch (e) {
        throw new KernelUnavailableError('gpu', (e as Error).message);
      }
      return plain('gpu', [], {
        interpreterOptions: { delegates: [delegate as Delegate] },
        delegateDecisions: () => delegate.decisions(),
        detail: `gpu.js ${delegate.mode}`,
        dispose: () => delegate.destroy(),
      });
    },
  },
];

/** The package with `id`. */
export function kernelPackage(id: string): KernelPackage {
  const p = KERNEL_PACKAGES.find((k) => k.id === id);
  if (!p)
    throw new KernelUnavailableError(
      id as KernelId,
      `unknown kernel package "${id}" (known: ${KERNEL_PACKAGES.map((k) => k.id).join(', ')})`,
    );
  return p;
}

/** Whether each package can be used here: creates and disposes one runtime of each. */
export async function kernelAvailability(): Promise<
  { id: KernelId; label: string; description: string; available: boolean; reason?: string; detail?: string }[]
> {
  const out = [];
  for (const p of KERNEL_PACKAGES) {
    try {
      const rt = await p.create();
      out.push({ id: p.id, label: p.label, description: p.description, available: true, ...(rt.detail ? { detail: rt.detail } : {}) });
      rt.dispose();
    } catch (e) {
      out.push({ id: p.id, label: p.label, description: p.description, available: false, reason: (e as Error).message });
    }
  }
  return out;
}
