/**
 * The GPU delegate: claims the float32 nodes it has a GPU kernel for and runs each delegated subset as
 * a chain of gpu.js kernels (see SubsetChain). Nodes it cannot run (other ops, other types, options it
 * does not implement) stay on the CPU kernels the resolver chose.
 *
 * ```ts
 * const gpu = createGpuDelegate();                      // best mode available: webgl2 … webasm, cpu
 * const it = new MicroInterpreter(model, resolver, { planner, delegates: [gpu] }).allocateTensors();
 * it.partitions();                                      // what the GPU runs
 * gpu.mode;                                             // which gpu.js backend it used
 * gpu.destroy();                                        // when every interpreter using it is gone
 * ```
 */
import {
  BuiltinOperator,
  DelegateError,
  KernelError,
  builtinOperatorName,
  type Delegate,
  type DelegateParams,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { GPU } from 'gpu.js';
import { KernelCache, type KernelCacheStats } from './kernel-cache.js';
import { gpuOpKernel } from './kernels/index.js';
import { isDeviceMode, resolveMode, type GpuMode } from './mode.js';
import { PROVIDER } from './provider.js';
import { SubsetChain, type ChainNode } from './subset-chain.js';

/** Options of {@link createGpuDelegate}. */
export interface GpuDelegateOptions {
  /** gpu.js backend: `'auto'` (default) takes the best one available here. */
  mode?: GpuMode | 'auto';
  /** Builtin op names (e.g. `'SOFTMAX'`) the delegate must leave on the CPU. */
  excludeOps?: readonly string[];
  /** Delegate name shown by inspection (default `gpu`). */
  name?: string;
}

/** Why the delegate did or did not claim one node (from its latest prepare). */
export interface NodeDecision {
  node: number;
  op: string;
  claimed: boolean;
  /** For a node left on the CPU: what the GPU kernels do not support. */
  reason?: string;
}

/** The gpu.js GPU delegate. */
export class GpuDelegate implements Delegate {
  readonly name: string;
  /** The gpu.js backend in use. */
  readonly mode: GpuMode;
  readonly flags = { allowDynamicTensors: false };
  /** The registration serving every delegate node of this delegate. */
  readonly registration: Registration<SubsetChain>;
  private readonly gpu: GPU;
  private readonly cache: KernelCache;
  private readonly excludeOps: ReadonlySet<string>;
  private latest: NodeDecision[] = [];
  private destroyed = false;

  constructor(options: GpuDelegateOptions = {}) {
    this.name = options.name ?? 'gpu';
    this.mode = resolveMode(options.mode ?? 'auto');
    this.excludeOps = new Set(options.excludeOps ?? []);
    this.gpu = new GPU({ mode: this.mode });
    this.cache = new KernelCache(this.gpu);
    const env = { cache: this.cache, onDevice: isDeviceMode(this.mode), name: this.name };
    const delegate = this;
    this.registration = {
      builtinCode: BuiltinOperator.DELEGATE,
      name: `DELEGATE:${this.name}(${this.mode})`,
      provider: PROVIDER,
      version: 1,
      init(context: TfLiteContext, initData: unknown): SubsetChain {
        const params = initData as DelegateParams;
        // init runs inside replaceNodeSubsetsWithDelegateKernels, where the plan is still readable.
        const members: ChainNode[] = Array.from(params.nodesToReplace, (i) => {
          const { node, registration } = context.getNodeAndRegistration(i);
          const op = gpuOpKernel(registration.builtinCode);
          if (!op)
            throw new KernelError(`DELEGATE:${delegate.name}`, i, `${builtinOperatorName(registration.builtinCode)} has no GPU kernel`);
          return { node, op };
        });
        return new SubsetChain(env, params, members);
      },
      prepare(context: TfLiteContext, node: Node): void {
        delegate.assertUsable();
        (node.userData as SubsetChain).prepare(context, node);
      },
      invoke(context: TfLiteContext, node: Node): void {
        (node.userData as SubsetChain).invoke(context);
      },
      free(_context: TfLiteContext, chain: SubsetChain): void {
        chain?.free();
      },
    };
  }

  /** Claims every node with a GPU kernel that accepts it (the context partitions and replaces them). */
  prepare(context: TfLiteContext, delegate: Delegate): void {
    this.assertUsable();
    const plan = context.getExecutionPlan();
    const claimed: number[] = [];
    const decisions: NodeDecision[] = [];
    for (let i = 0; i < plan.length; i++) {
      const index = plan[i]!;
      const { node, registration } = context.getNodeAndRegistration(index);
      const opName = builtinOperatorName(registration.builtinCode);
      const reason = this.whyNot(context, node, registration);
      decisions.push(reason === null ? { node: index, op: opName, claimed: true } : { node: index, op: opName, claimed: false, reason });
      if (reason === null) claimed.push(index);
    }
    this.latest = decisions;
    if (claimed.length) context.replaceNodeSubsetsWithDelegateKernels(this.registration, claimed, delegate);
  }

  /** Per node of the latest prepare: claimed, or why not. */
  decisions(): NodeDecision[] {
    return this.latest.map((d) => ({ ...d }));
  }

  /** Compiled-kernel counters. */
  kernelStats(): KernelCacheStats {
    return this.cache.stats();
  }

  /** Frees every kernel and the gpu.js instance. Interpreters using this delegate must not run afterwards. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.cache.destroy();
    void this.gpu.destroy();
  }

  private whyNot(context: TfLiteContext, node: Node, registration: Registration): string | null {
    if (node.delegate) return 'already replaced by a delegate';
    const op = gpuOpKernel(registration.builtinCode);
    const opName = builtinOperatorName(registration.builtinCode);
    if (!op) return `no GPU kernel for ${opName}`;
    if (this.excludeOps.has(opName)) return `${opName} excluded by the delegate options`;
    try {
      op.plan(context, node);
      return null;
    } catch (e) {
      if (e instanceof KernelError) return e.detail;
      throw e;
    }
  }

  private assertUsable(): void {
    if (this.destroyed) throw new DelegateError(`GPU delegate "${this.name}" (${this.mode}) was destroyed; create a new one`);
  }
}

/** A GPU delegate on gpu.js (see {@link GpuDelegate}). */
export function createGpuDelegate(options: GpuDelegateOptions = {}): GpuDelegate {
  return new GpuDelegate(options);
}
