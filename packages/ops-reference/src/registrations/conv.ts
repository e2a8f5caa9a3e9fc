import type { Registration } from '@micrort/core';
import { CONV_2D } from '../kernels/conv-2d.js';
import { DEPTHWISE_CONV_2D } from '../kernels/depthwise-conv-2d.js';
import { TRANSPOSE_CONV } from '../kernels/transpose-conv.js';
import { convSpatial, depthwiseSpatial, withSpatial } from '@micrort/kernel-support';

/** Kernels of this group, in registration order. */
export const convKernels: Registration[] = [
  withSpatial(CONV_2D, convSpatial),
  withSpatial(DEPTHWISE_CONV_2D, depthwiseSpatial),
  TRANSPOSE_CONV,
];
