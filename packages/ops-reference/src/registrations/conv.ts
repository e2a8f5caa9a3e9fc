import type { Registration } from '@micrort/core';
import { CONV_2D } from '../kernels/conv-2d.js';
import { DEPTHWISE_CONV_2D } from '../kernels/depthwise-conv-2d.js';
import { TRANSPOSE_CONV } from '../kernels/transpose-conv.js';

/** Kernels of this group, in registration order. */
export const convKernels: Registration[] = [CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV];
