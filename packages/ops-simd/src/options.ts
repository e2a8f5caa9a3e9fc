/**
 * Options of `createSimdKernels` and the per-node emulation plumbing the kernels share.
 */
import type { Node } from '@micrort/core';
import { SimdCounters, type NodeCounters } from './counters.js';
import { SimdMachine } from './machine.js';

/** How the kernels execute. Both modes run the same CMSIS-NN algorithm and give identical bytes. */
export type SimdMode = 'fast' | 'emulated';

/** Options of `createSimdKernels`. */
export interface SimdKernelOptions {
  /**
   * `fast` (default): the CMSIS-NN blocking and data layout written as plain int32 JS.
   * `emulated`: every DSP instruction, load and store runs through the instruction machine and is counted.
   */
  mode?: SimdMode;
  /** Where emulated kernels count instructions (one instance per interpreter). Created when omitted. */
  counters?: SimdCounters;
  /**
   * FULLY_CONNECTED: precompute the weight-row sums ("kernel sums") in prepare and fold
   * `input_offset * kernel_sum + bias` into the accumulator init, as TFLM's CMSIS-NN kernel does when
   * arm_fully_connected_s8_get_buffer_size() is non-zero (Helium builds); the kernel-sum buffer
   * (4 bytes per output channel) is then part of the arena. `false` runs the DSP-build
   * arm_nn_vec_mat_mult_t_s8, which adds the offset with SXTAB16 and needs no buffer. Default true.
   */
  fullyConnectedKernelSums?: boolean;
}

/** Options with defaults applied. */
export interface ResolvedOptions {
  mode: SimdMode;
  counters: SimdCounters;
  fullyConnectedKernelSums: boolean;
}

/** Applies the defaults. */
export function resolveOptions(o: SimdKernelOptions = {}): ResolvedOptions {
  const mode = o.mode ?? 'fast';
  if (mode !== 'fast' && mode !== 'emulated')
    throw new RangeError(`createSimdKernels: mode must be 'fast' or 'emulated', got '${String(mode)}'`);
  return { mode, counters: o.counters ?? new SimdCounters(), fullyConnectedKernelSums: o.fullyConnectedKernelSums ?? true };
}

/** The machine and counter record of one emulated node (both null in fast mode). */
export interface NodeEmulation {
  machine: SimdMachine | null;
  record: NodeCounters | null;
}

/** Creates (in prepare) the node's machine and counter record when running emulated. */
export function nodeEmulation(o: ResolvedOptions, node: Node, op: string, kernel: string): NodeEmulation {
  if (o.mode !== 'emulated') return { machine: null, record: null };
  const record = o.counters.node(node.index, op, kernel);
  return { machine: new SimdMachine(record.counts), record };
}
