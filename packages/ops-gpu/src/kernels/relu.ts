/** RELU on the GPU (float32): max(0, x), as reference_ops::Relu. */
import { BuiltinOperator } from '@micrort/core';
import type { KernelThis } from './kernel-plan.js';
import { unaryKernel } from './unary-common.js';

function relu(this: KernelThis<object>, input: Float32Array): number {
  return Math.max(input[this.thread.x]!, 0);
}

/** RELU: float32. */
export const reluKernel = unaryKernel(BuiltinOperator.RELU, 'RELU', relu);
