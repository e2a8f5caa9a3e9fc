/**
 * LOGISTIC on the GPU (float32), reference_ops::Logistic semantics: 1 / (1 + exp(-x)), exactly 1 above
 * 16.619047164916992 and exp(x) below -9 (TFLite's cut-offs, which also keep exp() from overflowing).
 */
import { BuiltinOperator } from '@micrort/core';
import type { KernelThis } from './kernel-plan.js';
import { unaryKernel } from './unary-common.js';

function logistic(this: KernelThis<object>, input: Float32Array): number {
  const x = input[this.thread.x]!;
  // gpu.js infers a variable's type from its initializer: the 0 is not dead.
  // eslint-disable-next-line no-useless-assignment
  let y = 0;
  if (x > 16.619047164916992) {
    y = 1;
  } else if (x < -9) {
    y = Math.exp(x);
  } else {
    y = 1 / (1 + Math.exp(-x));
  }
  return y;
}

/** LOGISTIC: float32. */
export const logisticKernel = unaryKernel(BuiltinOperator.LOGISTIC, 'LOGISTIC', logistic);
