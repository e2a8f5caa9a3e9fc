import type { Registration } from '@micrort/core';
import { ADD } from '../kernels/add.js';
import { DEQUANTIZE } from '../kernels/dequantize.js';
import { FULLY_CONNECTED } from '../kernels/fully-connected.js';
import { QUANTIZE } from '../kernels/quantize.js';
import { RESHAPE } from '../kernels/reshape.js';
import { SOFTMAX } from '../kernels/softmax.js';
import { pointwiseSpatial, withSpatial } from '@micrort/kernel-support';

/** Kernels of this group, in registration order. */
export const firstSetKernels: Registration[] = [
  FULLY_CONNECTED,
  withSpatial(ADD, pointwiseSpatial),
  withSpatial(QUANTIZE, pointwiseSpatial),
  withSpatial(DEQUANTIZE, pointwiseSpatial),
  RESHAPE,
  SOFTMAX,
];
