import type { Registration } from '@micrort/core';
import { AVERAGE_POOL_2D } from '../kernels/average-pool-2d.js';
import { MAX_POOL_2D } from '../kernels/max-pool-2d.js';
import { MEAN } from '../kernels/mean.js';
import { PAD } from '../kernels/pad.js';
import { PADV2 } from '../kernels/pad-v2.js';
import { TRANSPOSE } from '../kernels/transpose.js';
import { STRIDED_SLICE } from '../kernels/strided-slice.js';
import { CONCATENATION } from '../kernels/concatenation.js';

/** Kernels of this group, in registration order. */
export const shapeKernels: Registration[] = [AVERAGE_POOL_2D, MAX_POOL_2D, MEAN, PAD, PADV2, TRANSPOSE, STRIDED_SLICE, CONCATENATION];
