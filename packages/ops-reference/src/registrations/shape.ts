import type { Registration } from '@micrort/core';
import { AVERAGE_POOL_2D } from '../kernels/average-pool-2d.js';
import { MAX_POOL_2D } from '../kernels/max-pool-2d.js';
import { MEAN } from '../kernels/mean.js';
import { PAD } from '../kernels/pad.js';
import { PADV2 } from '../kernels/pad-v2.js';
import { TRANSPOSE } from '../kernels/transpose.js';
import { STRIDED_SLICE } from '../kernels/strided-slice.js';
import { CONCATENATION } from '../kernels/concatenation.js';
import { averagePoolSpatial, maxPoolSpatial, padSpatial, withSpatial } from '@micrort/kernel-support';

/** Kernels of this group, in registration order. */
export const shapeKernels: Registration[] = [
  withSpatial(AVERAGE_POOL_2D, averagePoolSpatial),
  withSpatial(MAX_POOL_2D, maxPoolSpatial),
  MEAN,
  withSpatial(PAD, padSpatial),
  withSpatial(PADV2, padSpatial),
  TRANSPOSE,
  STRIDED_SLICE,
  CONCATENATION,
];
