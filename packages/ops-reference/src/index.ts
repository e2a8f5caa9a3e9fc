/**
 * @micrort/ops-reference — reference kernels with TFLM reference semantics: float32, int8 and int16,
 * bit-exact with TFLM's reference kernels for integer types.
 */
import type { OpResolver, RegisterOptions, Registration } from '@micrort/core';
import { firstSetKernels } from './registrations/first-set.js';
import { convPoolKernels } from './registrations/conv-pool.js';
import { elementwiseKernels } from './registrations/elementwise.js';
import { statefulKernels } from './registrations/stateful.js';

export { PROVIDER } from './provider.js';

/** Every reference kernel. */
export const referenceKernels: readonly Registration[] = [
  ...firstSetKernels,
  ...convPoolKernels,
  ...elementwiseKernels,
  ...statefulKernels,
];

/** Registers every reference kernel on `resolver`. */
export function registerReferenceOps(resolver: OpResolver, options: RegisterOptions = {}): OpResolver {
  return resolver.registerAll(referenceKernels, options);
}
