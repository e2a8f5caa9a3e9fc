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

/** Kernels of this group, in registration order. */
export const elementwiseKernels: Registration[] = [
  SUB,
  MUL,
  DIV,
  MAXIMUM,
  MINIMUM,
  ABS,
  SIN,
  COS,
  LOGISTIC,
  TANH,
  RELU,
  RELU6,
  LEAKY_RELU,
  CAST,
];
