/**
 * Options of the ops-wasm registrations, fixed when the package is loaded (prepare sizes buffers from
 * them).
 */

/** Options every registration of the package sees. */
export interface KernelOptions {
  /**
   * CONV_2D and FULLY_CONNECTED layers with fewer multiply-accumulates per invoke than this are declined
   * (ops-reference serves them): they take about a microsecond in JavaScript, and their parameter block,
   * folded biases and channel padding would outweigh their weights in the arena (hello_world's 16-unit
   * layers). Default 4096; 0 takes every layer.
   */
  minMacs: number;
  /**
   * Threads that run a node (the main thread and threads - 1 workers), 1 without a pool. Set by the
   * loader from its `threads` option; prepare sizes each node's per-thread scratch from it.
   */
  threads: number;
  /**
   * Nodes with fewer multiply-accumulates (or elementwise ADD with fewer elements, times 16) than this
   * run on the main thread alone: a job costs a few microseconds to hand out. Default 262144.
   */
  parallelMinMacs: number;
  /**
   * The int8 GEMM tile of a relaxed build: 0 dot_i16x8 (every SIMD128 engine); 1 relaxed dot with the
   * activations biased to unsigned (engines whose relaxed dot is exact usdot, x86 VNNI); 2 relaxed dot
   * on signed activations (exact sdot, Arm). Set by the loader from its probe of the engine.
   */
  dotMode: number;
  /**
   * float32 1x1 CONV_2D layers (stride 1, no padding) whose fixed weights have at least this fraction of
   * zeros (pruned models, weights through DENSIFY) multiply only the non-zero weights
   * (assembly/float/sparse-gemm.ts); the outputs equal the dense kernel's for finite inputs. Default 0.5;
   * above 1 every layer stays dense.
   */
  sparseMinZeros: number;
}

/** The defaults. */
export const DEFAULT_KERNEL_OPTIONS: Readonly<KernelOptions> = {
  minMacs: 4096,
  threads: 1,
  parallelMinMacs: 262144,
  dotMode: 0,
  sparseMinZeros: 0.5,
};

/**
 * Why a weighted layer (`weights` weights, `outputs` output elements over `channels` output channels) is
 * declined under `options` (fewer than minMacs multiply-accumulates per invoke), or null.
 */
export function declineSmall(weights: number, outputs: number, channels: number, options: Readonly<KernelOptions>): string | null {
  const macs = weights * (channels > 0 ? outputs / channels : 0);
  return macs < options.minMacs ? `${macs} multiply-accumulates per invoke, fewer than minMacs ${options.minMacs}` : null;
}
