/**
 * TANH on the GPU (float32): (e^2x - 1) / (e^2x + 1) with x clamped to ±9, where tanh already rounds to
 * ±1 in float32. The clamp keeps e^2x finite (GL backends compute tanh through exp, which overflows to
 * NaN for large |x|). Close to |x| = 0 the result has an absolute error of about 1e-7.
 */
import { BuiltinOperator } from '@micrort/core';
import type { KernelThis } from './kernel-plan.js';
import { unaryKernel } from './unary-common.js';

function tanhClamped(this: KernelThis<object>, input: Float32Array): number {
  const x = Math.min(Math.max(input[this.thread.x]!, -9), 9);
  const e = Math.exp(2 * x);
  return (e - 1) / (e + 1);
}

/** TANH: float32. */
export const tanhKernel = unaryKernel(BuiltinOperator.TANH, 'TANH', tanhClamped);
