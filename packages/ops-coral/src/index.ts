/**
 * @micrort/ops-coral — kernels for the TFLite custom ops of Google Coral's models, written against
 * @micrort/core's public API only (the way any third-party kernel package is written): PosenetDecoderOp,
 * the pose decoder at the end of Coral's PoseNet and BodyPix models.
 */
import type { OpResolver, RegisterOptions, Registration } from '@micrort/core';
import { POSENET_DECODER_OP } from './kernels/posenet-decoder-op.js';

export { PROVIDER } from './provider.js';
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
