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
import { TensorType, type Registration } from '@micrort/core';
import { INT8_ONLY, typeReason } from '@micrort/kernel-support';
import { createConv2D } from './kernels/conv-2d.js';
import { createDepthwiseConv2D } from './kernels/depthwise-conv-2d.js';
import { createFullyConnected } from './kernels/fully-connected.js';
import { createAveragePool2D } from './kernels/average-pool-2d.js';
import { createMaxPool2D } from './kernels/max-pool-2d.js';
import { createSoftmax } from './kernels/softmax.js';
import { createAdd } from './kernels/add.js';
import { createMul } from './kernels/mul.js';
import { averagePoolSpatial, convSpatial, depthwiseSpatial, maxPoolSpatial, pointwiseSpatial } from '@micrort/kernel-support';
import { resolveOptions, type SimdKernelOptions } from './options.js';

/**
 * `supports()` of an ops-simd kernel that first declines, with a reason, any node whose input 0 is not
 * int8 (float32, int16, TFLite's uint8, ...): e.g. `"uint8 input (handles int8)"`.
 */
function declineNonInt8(reg: Registration): Registration {
  const inner = reg.supports;
  return {
    ...reg,
    supports(context, node) {
      const i = node.inputs[0];
      if (i !== undefined && i >= 0) {
        const type = context.getTensor(i).type;
        if (type !== TensorType.INT8) return typeReason('input', type, INT8_ONLY);
      }
      return inner ? inner(context, node) : true;
    },
  };
}

/**
 * The CMSIS-NN-style kernels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D,
 * SOFTMAX, ADD, MUL), each with a `supports()` that accepts only the int8 variants implemented (other
 * input types are declined with a reason), so registering them with `{ fallback: true }` in front of
 * another provider leaves everything else to it. The windowed and elementwise ones declare what they do
 * spatially (`spatial`, from kernel-support) for the patch schedule.
 */
export function createSimdKernels(options: SimdKernelOptions = {}): Registration[] {
  const o = resolveOptions(options);
  const kernels = [
    { ...createConv2D(o), spatial: convSpatial },
    { ...createDepthwiseConv2D(o), spatial: depthwiseSpatial },
    createFullyConnected(o),
    { ...createAveragePool2D(o), spatial: averagePoolSpatial },
    { ...createMaxPool2D(o), spatial: maxPoolSpatial },
    createSoftmax(o),
    { ...createAdd(o), spatial: pointwiseSpatial },
    { ...createMul(o), spatial: pointwiseSpatial },
  ] as Registration[];
  return kernels.map(declineNonInt8);
}
