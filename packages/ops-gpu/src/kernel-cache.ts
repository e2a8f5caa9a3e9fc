/**
 * Compiled gpu.js kernels, keyed by op, attributes and shapes (`KernelPlan.key`) plus an instance number.
 *
 * Every kernel runs with `pipeline: true`: in the GL modes its result is a texture that stays in device
 * memory and feeds the next kernel directly; in webasm / cpu mode it is a typed array. Kernels are not
 * immutable, so a kernel reuses its output texture on every call; two nodes of one chain that need the
 * same kernel therefore get different instances (`#0`, `#1`, ...), while chains that run one after the
 * other (and later interpreters using the same delegate) share them. gpu.js compiles a kernel on its
 * first call; the delegate makes that call at prepare.
 */
import { CPUKernel, HeadlessGLKernel, WebAssemblyKernel, WebGL2Kernel, WebGLKernel, type GPU, type IKernelRunShortcut } from 'gpu.js';
import type { KernelPlan, KernelSource, KernelThis } from './kernels/kernel-plan.js';

/** A compiled kernel as the delegate calls it. */
export type CompiledKernel = IKernelRunShortcut;

function copyElement(this: KernelThis<object>, a: Float32Array): number {
  return a[this.thread.x]!;
}

/** Counters of a cache, for reports and tests. */
export interface KernelCacheStats {
  /** Kernels created (each compiles on its first call). */
  compiled: number;
  /** Requests served by an existing kernel. */
  hits: number;
  /** Keys currently cached. */
  keys: string[];
  /**
   * The gpu.js backends the compiled kernels actually run on (gpu.js may degrade a kernel it cannot
   * build to `cpu`; this shows it). Empty before the first kernel ran.
   */
  backends: string[];
  /** Kernels gpu.js degraded to another backend, with its reason. */
  fallbacks: { key: string; reason: string }[];
}

/** The kernel cache of one gpu.js instance. */
export class KernelCache {
  private readonly kernels = new Map<string, CompiledKernel>();
  private compiled = 0;
  private hits = 0;

  constructor(private readonly gpu: GPU) {}

  /** The kernel for `plan` (whose `source` must not be null), instance `instance` of its key. */
  kernel(plan: KernelPlan, instance: number): CompiledKernel {
    if (!plan.source) throw new Error(`${plan.op}: an alias has no kernel`);
    return this.get(`${plan.key}#${instance}`, plan.source, plan.outputSize, plan.constants, plan.floatConstants, false);
  }

  /** A kernel copying `size` host elements to the device (reused output: one per chain input). */
  upload(size: number, instance: number): CompiledKernel {
    return this.get(`UPLOAD|n=${size}#${instance}`, copyElement, size, {}, [], false);
  }

  /** A kernel copying `size` host elements to a new device value per call (for constants kept on the device). */
  constantUpload(size: number): CompiledKernel {
    return this.get(`UPLOAD_CONSTANT|n=${size}`, copyElement, size, {}, [], true);
  }

  stats(): KernelCacheStats {
    const backends = new Set<string>();
    const fallbacks: { key: string; reason: string }[] = [];
    for (const [key, k] of this.kernels) {
      const inner = k.kernel;
      if (!inner?.built) continue;
      backends.add(backendOf(inner));
      if (inner.fallbackReason) fallbacks.push({ key, reason: inner.fallbackReason });
    }
    return { compiled: this.compiled, hits: this.hits, keys: [...this.kernels.keys()], backends: [...backends].sort(), fallbacks };
  }

  /** Destroys every kernel (their device memory too). */
  destroy(): void {
    for (const k of this.kernels.values()) k.destroy();
    this.kernels.clear();
  }

  private get(
    key: string,
    source: KernelSource,
    size: number,
    constants: Readonly<Record<string, number>>,
    floatConstants: readonly string[],
    immutable: boolean,
  ): CompiledKernel {
    const cached = this.kernels.get(key);
    if (cached) {
      this.hits++;
      return cached;
    }
    const constantTypes: Record<string, 'Float' | 'Integer'> = {};
    for (const name of Object.keys(constants)) constantTypes[name] = floatConstants.includes(name) ? 'Float' : 'Integer';
    const kernel = this.gpu.createKernel(source as never, {
      output: [size],
      constants: { ...constants },
      constantTypes,
      pipeline: true,
      immutable,
      precision: 'single',
      tactic: 'precision',
    });
    this.kernels.set(key, kernel);
    this.compiled++;
    return kernel;
  }
}

/** Kernel classes by the delegate's mode names, most specific first (headless-gl and WebGL2 extend WebGL). */
const BACKENDS: [string, unknown][] = [
  ['headlessgl', HeadlessGLKernel],
  ['webgl2', WebGL2Kernel],
  ['webgl', WebGLKernel],
  ['webasm', WebAssemblyKernel],
  ['cpu', CPUKernel],
];

/** The mode a gpu.js kernel instance runs on. */
function backendOf(kernel: object): string {
  for (const [name, cls] of BACKENDS) if (typeof cls === 'function' && kernel instanceof cls) return name;
  return (kernel.constructor as { mode?: string }).mode ?? kernel.constructor.name;
}
