import type { Registration } from '@micrort/core';
import { ABS } from '../kernels/abs.js';
import { CAST } from '../kernels/cast.js';
import { COS } from '../kernels/cos.js';
import { DIV } from '../kernels/div.js';
import { LEAKY_RELU } from '../kernels/leaky-relu.js';
import { LOGISTIC } from '../kernels/logistic.js';
import { MAXIMUM, MINIMUM } from '../kernels/maximum-minimum.js';
import { MUL } from '../kernels/mul.js';
import { RELU } from '../kernels/relu.js';
import { RELU6 } from '../kernels/relu6.js';
import { SIN } from '../kernels/sin.js';
import { SUB } from '../kernels/sub.js';
import { TANH } from '../kernels/tanh.js';
import { pointwiseSpatial, withSpatial } from '@micrort/kernel-support';

/** Kernels of this group, in registration order. */
export const elementwiseKernels: Registration[] = [
  withSpatial(SUB, pointwiseSpatial),
  withSpatial(MUL, pointwiseSpatial),
  DIV,
  withSpatial(MAXIMUM, pointwiseSpatial),
  withSpatial(MINIMUM, pointwiseSpatial),
  withSpatial(ABS, pointwiseSpatial),
  SIN,
  COS,
  withSpatial(LOGISTIC, pointwiseSpatial),
  withSpatial(TANH, pointwiseSpatial),
  withSpatial(RELU, pointwiseSpatial),
  withSpatial(RELU6, pointwiseSpatial),
  withSpatial(LEAKY_RELU, pointwiseSpatial),
  CAST,
];
