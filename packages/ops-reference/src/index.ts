/**
 * @micrort/ops-reference — reference kernels with TFLM reference semantics: float32, int8 and int16,
 * bit-exact with TFLM's reference kernels for integer types.
 */
import type { KernelPackage, OpResolver, RegisterOptions, Registration } from '@micrort/core';
import { firstSetKernels } from './registrations/first-set.js';
import { convKernels } from './registrations/conv.js';
import { shapeKernels } from './registrations/shape.js';
import { elementwiseKernels } from './registrations/elementwise.js';
import { statefulKernels } from './registrations/stateful.js';
import { controlFlowKernels } from './registrations/control-flow.js';
import { dataKernels } from './registrations/data.js';
import { mathKernels } from './registrations/math.js';
import { complexKernels } from './registrations/complex.js';
import { tfliteKernels } from './registrations/tflite.js';
import { litertKernels } from './registrations/litert.js';
import { tfliteBuiltinKernels } from './registrations/tflite-builtins.js';
import { tfliteRecurrentKernels } from './registrations/tflite-recurrent.js';
import { tflmCustomKernels } from './registrations/tflm-custom.js';
import { typesKernels } from './registrations/types.js';

import { PROVIDER } from './provider.js';

export { PROVIDER };
export { makeDequantize, type DequantizeOptions } from './kernels/dequantize.js';
export { makeWhile, type WhileKernelOptions } from './kernels/while.js';
export { CircularBufferAbort } from './kernels/circular-buffer.js';

/** Every reference kernel. */
export const referenceKernels: readonly Registration[] = [
  ...firstSetKernels,
  ...convKernels,
  ...shapeKernels,
  ...elementwiseKernels,
  ...statefulKernels,
  ...controlFlowKernels,
  ...dataKernels,
  ...mathKernels,
  ...complexKernels,
  ...tfliteKernels,
  ...litertKernels,
  ...tfliteBuiltinKernels,
  ...tfliteRecurrentKernels,
  ...tflmCustomKernels,
  ...typesKernels,
];

/** Registers every reference kernel on `resolver`. */
export function registerReferenceOps(resolver: OpResolver, options: RegisterOptions = {}): OpResolver {
  return resolver.registerAll(referenceKernels, options);
}

/**
 * ops-reference as a kernel package (`composeRuntime([referencePackage, …])`): every reference kernel
 * (TFLM's builtins and its three custom ops), registered beside the packages composed before it.
 * Compose it first: it serves every variant, so packages that serve only some (ops-simd, ops-wasm)
 * fall back to it.
 */
export const referencePackage: KernelPackage = {
  name: 'ops-reference',
  provider: PROVIDER,
  summary: "TFLM's reference kernels (float32, int8, int16; TFLite's uint8 and float16 weights), bit-exact with TFLM",
  provides: ['builtin-ops', 'custom-ops'],
  join: 'register',
  create: () => ({ register: (resolver, options) => void registerReferenceOps(resolver, options) }),
};
