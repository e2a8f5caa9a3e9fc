/**
 * @micrort/ops-coral — kernels for the TFLite custom ops of Google Coral's models, written against
 * @micrort/core's public API only (the way any third-party kernel package is written): PosenetDecoderOp,
 * the pose decoder at the end of Coral's PoseNet and BodyPix models.
 */
import type { KernelPackage, OpResolver, RegisterOptions, Registration } from '@micrort/core';
import { POSENET_DECODER_OP } from './kernels/posenet-decoder-op.js';

import { PROVIDER } from './provider.js';

export { PROVIDER };
export { MASK_SIZE } from './kernels/posenet-decoder-op.js';
export { NUM_EDGES, NUM_KEYPOINTS, POSENET_EDGES, POSENET_KEYPOINTS } from './kernels/posenet/pose-graph.js';
export { POSENET_DECODER_OP };

/** Every kernel of this package. */
export const coralKernels: readonly Registration[] = [POSENET_DECODER_OP] as Registration[];

/**
 * Registers every Coral kernel on `resolver`, each for its own op version only. `options` as
 * `OpResolver.register` (`override`, `fallback`).
 */
export function registerCoralOps(resolver: OpResolver, options: Omit<RegisterOptions, 'versions'> = {}): OpResolver {
  for (const registration of coralKernels) {
    const version = registration.version ?? 1;
    resolver.register(registration, { ...options, versions: [version, version] });
  }
  return resolver;
}

/**
 * ops-coral as a kernel package (`composeRuntime([referencePackage, coralPackage, …])`): Coral's custom
 * ops, registered beside the others.
 */
export const coralPackage: KernelPackage = {
  name: 'ops-coral',
  provider: PROVIDER,
  summary: "Coral's custom ops (PosenetDecoderOp)",
  provides: ['custom-ops'],
  join: 'register',
  create: () => ({ register: (resolver, options) => void registerCoralOps(resolver, options) }),
};
