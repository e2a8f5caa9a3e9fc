/**
 * @micrort/ops-mediapipe — kernels for the TFLite custom ops MediaPipe's models use, written against
 * @micrort/core's public API only (the way any third-party kernel package is written):
 * Convolution2DTransposeBias, MaxPoolingWithArgmax2D, MaxUnpooling2D, Landmarks2TransformMatrix (v1, v2),
 * TransformLandmarks (v1, v2) and TransformTensorBilinear (v2; v1 is named TransformTensor).
 */
import type { KernelPackage, OpResolver, RegisterOptions, Registration } from '@micrort/core';
import { CONVOLUTION_2D_TRANSPOSE_BIAS } from './kernels/convolution-2d-transpose-bias.js';
import { LANDMARKS_2_TRANSFORM_MATRIX_V1, LANDMARKS_2_TRANSFORM_MATRIX_V2 } from './kernels/landmarks-2-transform-matrix.js';
import { MAX_POOLING_WITH_ARGMAX_2D } from './kernels/max-pooling-with-argmax-2d.js';
import { MAX_UNPOOLING_2D } from './kernels/max-unpooling-2d.js';
import { TRANSFORM_LANDMARKS_V1, TRANSFORM_LANDMARKS_V2 } from './kernels/transform-landmarks.js';
import { TRANSFORM_TENSOR_BILINEAR_V1, TRANSFORM_TENSOR_BILINEAR_V2 } from './kernels/transform-tensor-bilinear.js';

import { PROVIDER } from './provider.js';

export { PROVIDER };
export { transposeConvBiasOptions } from './kernels/convolution-2d-transpose-bias.js';
export { poolOptions } from './kernels/pooling-common.js';
export {
  CONVOLUTION_2D_TRANSPOSE_BIAS,
  LANDMARKS_2_TRANSFORM_MATRIX_V1,
  LANDMARKS_2_TRANSFORM_MATRIX_V2,
  MAX_POOLING_WITH_ARGMAX_2D,
  MAX_UNPOOLING_2D,
  TRANSFORM_LANDMARKS_V1,
  TRANSFORM_LANDMARKS_V2,
  TRANSFORM_TENSOR_BILINEAR_V1,
  TRANSFORM_TENSOR_BILINEAR_V2,
};

/**
 * Every kernel of this package. Each serves exactly one op version (its `version`), as MediaPipe
 * registers its ops; `registerMediapipeOps` registers them that way.
 */
export const mediapipeKernels: readonly Registration[] = [
  CONVOLUTION_2D_TRANSPOSE_BIAS,
  MAX_POOLING_WITH_ARGMAX_2D,
  MAX_UNPOOLING_2D,
  LANDMARKS_2_TRANSFORM_MATRIX_V1,
  LANDMARKS_2_TRANSFORM_MATRIX_V2,
  TRANSFORM_LANDMARKS_V1,
  TRANSFORM_LANDMARKS_V2,
  TRANSFORM_TENSOR_BILINEAR_V1,
  TRANSFORM_TENSOR_BILINEAR_V2,
] as Registration[];

/**
 * Registers every MediaPipe kernel on `resolver`, each for its own op version only (so v1 and v2 of
 * the same custom op coexist). `options` as `OpResolver.register` (`override`, `fallback`).
 */
export function registerMediapipeOps(resolver: OpResolver, options: Omit<RegisterOptions, 'versions'> = {}): OpResolver {
  for (const registration of mediapipeKernels) {
    const version = registration.version ?? 1;
    resolver.register(registration, { ...options, versions: [version, version] });
  }
  return resolver;
}

/**
 * ops-mediapipe as a kernel package (`composeRuntime([referencePackage, mediapipePackage, …])`):
 * MediaPipe's custom ops, each registered for its own op version as `registerMediapipeOps` does.
 */
export const mediapipePackage: KernelPackage = {
  name: 'ops-mediapipe',
  provider: PROVIDER,
  summary: "MediaPipe's custom ops (Convolution2DTransposeBias, MaxPoolingWithArgmax2D, MaxUnpooling2D, Landmarks2TransformMatrix, …)",
  provides: ['custom-ops'],
  join: 'register',
  create: () => ({ register: (resolver, options) => void registerMediapipeOps(resolver, options) }),
};
