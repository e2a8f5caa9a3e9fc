/**
 * `createSimdKernels`: the ops-simd registrations, in one execution mode.
 *
 * ```ts
 * const resolver = new OpResolver();
 * resolver.registerAll(referenceKernels);                       // ops-reference first: the fallback
 * const counters = new SimdCounters();
 * resolver.registerAll(createSimdKernels({ mode: 'emulated', counters }), { fallback: true });
 * // ... run the interpreter, then:
 * estimateCycles(counters, { core: 'm4', waitStates: 1 });
 * ```
 */
import type { Registration } from '@micrort/core';
import { createConv2D } from './kernels/conv-2d.js';
import { createDepthwiseConv2D } from './kernels/depthwise-conv-2d.js';
import { createFullyConnected } from './kernels/fully-connected.js';
import { createAveragePool2D } from './kernels/average-pool-2d.js';
import { createMaxPool2D } from './kernels/max-pool-2d.js';
import { createSoftmax } from './kernels/softmax.js';
import { createAdd } from './kernels/add.js';
import { createMul } from './kernels/mul.js';
import { resolveOptions, type SimdKernelOptions } from './options.js';

/**
 * The CMSIS-NN-style kernels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D,
 * SOFTMAX, ADD, MUL), each with a `supports()` that accepts only the int8 variants implemented, so
 * registering them with `{ fallback: true }` in front of another provider leaves everything else to it.
 */
export function createSimdKernels(options: SimdKernelOptions = {}): Registration[] {
  const o = resolveOptions(options);
  return [createConv2D(o), createDepthwiseConv2D(o), createFullyConnected(o), createAveragePool2D(o), createMaxPool2D(o), createSoftmax(o), createAdd(o), createMul(o)] as Registration[];
}
