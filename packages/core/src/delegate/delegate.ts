import type { TfLiteContext } from '../kernel/api.js';

/** Delegate flags (TfLiteDelegateFlags). */
export interface DelegateFlags {
  /** The delegate can handle tensors whose shapes change between invokes. */
  allowDynamicTensors?: boolean;
  /**
   * Plan the tensors internal to each delegated subset in the arena (live during the delegate node's
   * step), for delegates whose kernels work through arena memory. By default they get no arena space:
   * only the subset's inputs and outputs cross the arena.
   */
  keepInternalTensorsInArena?: boolean;
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
  /**
   * Copies the delegate's own buffer of an output tensor of one of its nodes into the tensor's arena
   * memory. The interpreter calls it right after each delegate node's invoke, for every output of the
   * node, so CPU kernels and the user read current data (phase invoke: `getEvalTensor` works).
   */
  copyFromBufferHandle?(context: TfLiteContext, tensorIndex: number): void;
  /**
   * Copies the arena memory of a non-constant input tensor of one of its nodes into the delegate's own
   * buffer. The interpreter calls it right before each delegate node's invoke, for every such input.
   */
  copyToBufferHandle?(context: TfLiteContext, tensorIndex: number): void;
  /**
   * Releases the delegate's buffer for a tensor. Called on `dispose()`, once per non-constant input and
   * output tensor of the delegate's nodes.
   */
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
