import type { TfLiteContext } from '../kernel/api.js';

/** Delegate flags (TfLiteDelegateFlags). */
export interface DelegateFlags {
  /** The delegate can handle tensors whose shapes change between invokes. */
  allowDynamicTensors?: boolean;
}

/**
 * A delegate (TfLiteDelegate). Its `prepare` runs during allocateTensors after every node's init and
 * before any node's prepare; it reads the plan with `context.getExecutionPlan()` /
 * `context.getNodeAndRegistration()` and claims nodes with
 * `context.replaceNodeSubsetsWithDelegateKernels(registration, nodes, this)`. Each claimed, independent
 * subset becomes one node served by `registration`, whose `init` receives `DelegateParams`.
 */
export interface Delegate {
  /** Name shown by inspection (`gpu`, `my-npu`). */
  readonly name: string;
  prepare(context: TfLiteContext, delegate: Delegate): void;
  /** Copies a delegate-owned buffer into the tensor's arena memory (for outputs read on the CPU). */
  copyFromBufferHandle?(context: TfLiteContext, tensorIndex: number): void;
  /** Copies the tensor's arena memory into the delegate-owned buffer. */
  copyToBufferHandle?(context: TfLiteContext, tensorIndex: number): void;
  /** Releases delegate-owned buffers. */
  freeBufferHandle?(context: TfLiteContext, tensorIndex: number): void;
  readonly flags?: DelegateFlags;
}

/** User options for partitioning, applied to every delegate of an interpreter. */
export interface DelegateOptions {
  /** At most this many delegated partitions per delegate (the largest are kept). */
  maxPartitions?: number;
  /** Partitions with fewer nodes stay on the CPU. */
  minPartitionSize?: number;
  /** Node indices never delegated. */
  excludeNodes?: readonly number[];
}
