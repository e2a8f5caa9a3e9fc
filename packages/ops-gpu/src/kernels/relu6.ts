/** RELU6 on the GPU (float32): min(max(0, x), 6), as reference_ops::Relu6. */
import { BuiltinOperator } from '@micrort/core';
import type { KernelThis } from './kernel-plan.js';
import { unaryKernel } from './unary-common.js';

function relu6(this: KernelThis<object>, input: Float32Array): number {
  return Math.min(Math.max(input[this.thread.x]!, 0), 6);
}

/** RELU6: float32. */
export const relu6Kernel = unaryKernel(BuiltinOperator.RELU6, 'RELU6', relu6);
