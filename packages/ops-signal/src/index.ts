/**
 * @micrort/ops-signal — kernels for TFLM's signal-library custom ops.
 */
import type { OpResolver, RegisterOptions, Registration } from '@micrort/core';

/** Every signal kernel. */
export const signalKernels: readonly Registration[] = [];

/** Registers every signal kernel on `resolver`. */
export function registerSignalOps(resolver: OpResolver, options: RegisterOptions = {}): OpResolver {
  return resolver.registerAll(signalKernels, options);
}
